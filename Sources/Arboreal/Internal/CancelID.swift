/// The identity an effect is cancelled by: any `Hashable & Sendable` value, type-erased, within
/// the scope of the child model that started the effect.
///
/// Two identifiers are equal when their values have the same type and are equal
/// (`AnyHashable` semantics) and they were made in the same scope, so `"search"` and
/// `SearchID()` never collide, two uses of `"search"` by the same model do, and two sibling
/// rows that both use `UploadID()` do not (their parent tagged their effects with different
/// keys, see ``EffectScope``).
///
/// Invariant (why `@unchecked Sendable` holds): `base` is only ever made from a value that is
/// itself `Sendable` (the initialisers take `some Hashable & Sendable` or an ``EffectScope``,
/// which is `Sendable`), and `AnyHashable` adds no shared mutable state of its own.
@usableFromInline
struct CancelID: Hashable, @unchecked Sendable {
  /// A user's value, or the membership of a child (a case of its own, so that no user value can
  /// equal it, and compared without `AnyHashable`'s dynamic casts: ending a child's effects
  /// looks its membership up in the effect table once per effect, and a boxed comparison cost
  /// thousands of instructions there).
  private enum Base: Hashable {
    case value(AnyHashable)
    case membership(EffectScope)
  }

  private let base: Base
  /// The children, outermost first, between the store's model and the model that made the
  /// identifier: empty for the root model's own identifiers.
  private(set) var scope: [EffectScope] = []

  init(_ value: some Hashable & Sendable) {
    base = .value(AnyHashable(value))
  }

  /// The identifier every effect a parent tags for `child` carries, in the parent's scope:
  /// cancelling it cancels all of that child's effects (and its descendants').
  @usableFromInline
  init(member child: EffectScope) {
    base = .membership(child)
  }

  /// The same identifier, seen from the parent that tagged it for `child`. The membership of
  /// an instance is unchanged: it is unique in the whole state, so it is never scoped, and the
  /// store's lifetime records find it at any depth (a grandchild replaced while its parent
  /// stays).
  @usableFromInline
  func scoped(in child: EffectScope) -> CancelID {
    if case .membership(let member) = base, member.instance != nil { return self }
    var copy = self
    copy.scope.insert(child, at: 0)
    return copy
  }

  /// Whether this is the membership identifier of a child.
  var isMembership: Bool {
    if case .membership = base { true } else { false }
  }

  /// What describes the identifier in a failure message: its value, and the children it is
  /// scoped to.
  var debugDescription: String {
    let value =
      switch base {
      case .value(let value): String(reflecting: value.base)
      case .membership(let child): "membership of \(child)"
      }
    if scope.isEmpty { return value }
    return "\(value) in \(scope.map(\.description).joined(separator: " › "))"
  }
}

/// One level of effect scoping: the child a parent forwarded an action to with `forward` (the
/// child instance itself, and its key among its siblings), or a kind of child keyed by a value
/// (`Subscription`'s own identifiers): the child's action type, and its key.
///
/// Invariant (why `@unchecked Sendable` holds): `key` is only ever made from a `Sendable`
/// value (`forward` and subscriptions take `some Hashable & Sendable` keys or key
/// paths, which are immutable), `ObjectIdentifier` is a plain value, and `actionType` is a
/// metatype, immutable and only named.
///
/// An instance scope names a model by its `ObjectIdentifier`, which the runtime may reuse once
/// the model is freed. It cannot be mistaken for a later model: the store's lifetime records
/// (`ChildLifetimes`) keep every model with running effects alive, and cancel those effects
/// when the model leaves the state, before it can be freed.
@usableFromInline
struct EffectScope: Hashable, @unchecked Sendable, CustomStringConvertible {
  /// The child's action type.
  let action: ObjectIdentifier
  /// The type itself, named only in messages (naming it on every forward would cost more than
  /// the rest of the scope); not part of the identity.
  let actionType: Any.Type
  /// The child's key among its siblings, or nil for a child held without one.
  let key: PlaceKey?
  /// The child model itself, for a child forwarded to with `forward`; nil for a kind of child.
  let instance: ObjectIdentifier?

  /// The scope of the children of a type held without a key.
  init<Action>(_ action: Action.Type) {
    self.action = ObjectIdentifier(action)
    self.actionType = action
    self.key = nil
    self.instance = nil
  }

  /// The scope of the child with `key`.
  init<Action>(_ action: Action.Type, key: some Hashable & Sendable) {
    self.action = ObjectIdentifier(action)
    self.actionType = action
    self.key = PlaceKey(key)
    self.instance = nil
  }

  /// The scope of one child model instance, forwarded to with `forward`.
  @usableFromInline
  init<Action>(_ action: Action.Type, instance: AnyObject, key: PlaceKey?) {
    self.action = ObjectIdentifier(action)
    self.actionType = action
    self.key = key
    self.instance = ObjectIdentifier(instance)
  }

  @usableFromInline
  static func == (lhs: EffectScope, rhs: EffectScope) -> Bool {
    // The instance first: it tells siblings apart without comparing their boxed keys.
    lhs.instance == rhs.instance && lhs.action == rhs.action && lhs.key == rhs.key
  }

  @usableFromInline
  func hash(into hasher: inout Hasher) {
    hasher.combine(action)
    // An instance tells its scope apart alone: its boxed key is hashed only for a kind of
    // child (equal scopes have equal instances, so the hash stays consistent with `==`).
    if let instance {
      hasher.combine(instance)
    } else {
      hasher.combine(key)
    }
  }

  @usableFromInline
  var description: String {
    let name = String(reflecting: actionType)
    guard let key else { return name }
    return "\(name)[\(String(reflecting: key.base))]"
  }
}
