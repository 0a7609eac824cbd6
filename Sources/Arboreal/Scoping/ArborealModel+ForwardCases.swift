// How a forward reaches the model an enumeration's case holds (a destination, or a screen of a
// stack of several kinds): the enumeration's two switches say which case the action is for
// and what the place holds, with no reflection.
extension ArborealModel {
  /// Starts the subscriptions of the model `value` holds.
  func startCase<Cases: ModelCases>(
    _ value: Cases, at place: CasePlace<Self, Cases>, environment: Cases.Environment
  ) -> Fx<Action> {
    let held = value.child
    return held.kind.start(held, from: self, at: place, environment: environment)
  }

  /// Sends `action` to the child of its case, when `value`, what the place holds now, is
  /// that case; drops it otherwise (reported in debug builds). The place is made only when
  /// the child returned effects, an alert closes or the action is dropped.
  ///
  /// No reflection: the enumeration's two switches say which case the action is for and
  /// what the place holds. Inlined where the parent is compiled, with the case's `deliver`
  /// (made where the enumeration is), so that an action whose child returns no effect runs
  /// specialised code only; a child's effects are wrapped out of line.
  @inlinable @inline(__always)
  func forwardCase<Cases: ModelCases>(
    _ action: Cases.Action, to value: Cases?, environment: Cases.Environment,
    at place: () -> CasePlace<Self, Cases>
  ) -> Fx<Action> {
    let routed = Cases.child(of: action)
    if let value {
      let held = value.child
      if held.kind == routed.kind {
        switch held.deliver(routed, held, environment) {
        case .delivered:
          return Fx(storage: nil)
        case .effects(let fx, let childEnvironment):
          return wrapCase(fx, of: held, environment: childEnvironment, at: place())
        case .closeAlert:
          place().close(self)
          return Fx(storage: nil)
        case .otherCase:
          break
        }
      }
    }
    dropCase(routed, at: place())
    return Fx.dropped
  }

  /// Reports an action for a case that is not there; debug builds only. Out of line.
  @usableFromInline
  func dropCase<Cases: ModelCases>(_ routed: CaseAction<Cases>, at place: CasePlace<Self, Cases>) {
    dropForwarded(
      routed.action, child: routed.kind.heldType, path: place.path,
      key: place.key.map(PlaceKey.init))
  }

  /// The effects (and subscriptions) of the child `held` holds, made this model's: the way of
  /// a child that returned effects or subscribes, out of line.
  @usableFromInline
  func wrapCase<Cases: ModelCases>(
    _ fx: Any, of held: CaseChild<Cases>, environment: Any, at place: CasePlace<Self, Cases>
  ) -> Fx<Action> {
    held.kind.wrap(fx, of: held, environment: environment, from: self, at: place)
  }
}

/// What a case's `deliver` did with an action, where the enumeration is compiled.
@usableFromInline
enum CaseDelivery {
  /// The action's case is not the one held (both hold the same type): not delivered.
  case otherCase
  /// Delivered to the model, which returned no effect and does not subscribe.
  case delivered
  /// Delivered to the model, which returned effects (`Fx<Child.Action>`) or subscribes; with
  /// the services they use (`Child.Environment`).
  case effects(Any, Any)
  /// The action of a button of the alert held: the parent closes it.
  case closeAlert
}

/// Where a parent holds a ``ModelCases`` value for one forwarded action: an optional
/// destination, or a screen of a stack. A value with no closure of its own, so that making one
/// per forwarded action allocates nothing; what it does is read from its location.
@usableFromInline
struct CasePlace<Parent: ArborealModel, Cases: ModelCases> {
  @usableFromInline
  enum Location {
    case destination(
      ReferenceWritableKeyPath<Parent, Cases?>,
      @Sendable (PresentationAction<Cases.Action>) -> Parent.Action)
    case screen(
      StackElementID, ReferenceWritableKeyPath<Parent, ModelStack<Cases>>,
      @Sendable (StackAction<Cases.Action>) -> Parent.Action)
  }

  @usableFromInline let location: Location

  @inlinable
  init(location: Location) {
    self.location = location
  }

  /// An optional destination.
  @inlinable
  static func destination(
    _ path: ReferenceWritableKeyPath<Parent, Cases?>,
    tag: @escaping @Sendable (PresentationAction<Cases.Action>) -> Parent.Action
  ) -> CasePlace {
    CasePlace(location: .destination(path, tag))
  }

  /// The screen `id` of a stack.
  @inlinable
  static func screen(
    _ id: StackElementID, of stack: ReferenceWritableKeyPath<Parent, ModelStack<Cases>>,
    tag: @escaping @Sendable (StackAction<Cases.Action>) -> Parent.Action
  ) -> CasePlace {
    CasePlace(location: .screen(id, stack, tag))
  }

  /// The parent's property, for messages and the child's lifetime.
  @inlinable
  var path: AnyKeyPath {
    switch location {
    case .destination(let path, _): path
    case .screen(_, let stack, _): stack
    }
  }

  /// The screen's identifier on a stack; nil for a destination.
  @inlinable
  var key: StackElementID? {
    switch location {
    case .destination: nil
    case .screen(let id, _, _): id
    }
  }

  /// The value now.
  @inlinable
  func value(_ parent: Parent) -> Cases? {
    switch location {
    case .destination(let path, _): parent[keyPath: path]
    case .screen(let id, let stack, _): parent[keyPath: stack][id: id]
    }
  }

  /// Sets the destination to nil, or pops the screen.
  @inlinable
  func close(_ parent: Parent) {
    switch location {
    case .destination(let path, _):
      if parent[keyPath: path] != nil { parent[keyPath: path] = nil }
    case .screen(let id, let stack, _):
      parent[keyPath: stack].pop(from: id)
    }
  }

  /// The models the place holds now.
  func presence(_ parent: Parent) -> [RouteEntry] {
    switch location {
    case .destination(let path, _): .destination(parent, path)
    case .screen(_, let stack, _): .caseStack(parent, stack)
    }
  }

  /// What the parent receives when the child dismisses itself.
  var dismissal: Parent.Action {
    switch location {
    case .destination(_, let tag): tag(.dismiss)
    case .screen(let id, _, let tag): tag(.popFrom(id: id))
    }
  }

  /// Makes the parent's action of an action of the cases.
  var embed: @Sendable (Cases.Action) -> Parent.Action {
    switch location {
    case .destination(_, let tag): { tag(.presented($0)) }
    case .screen(let id, _, let tag): { tag(.element(id: id, action: $0)) }
    }
  }
}

/// How one kind of case is handled: a case holding a model of one type (``ModelCase``), an
/// alert with one type of actions (``AlertCase``), or, this class itself, a case that holds
/// nothing. Called through the kind's metatype, which ``CaseChild`` and ``CaseAction`` carry:
/// no allocation, no reflection. A class, not a protocol, so that the inlinable factories of
/// those can name a kind while what a kind does stays internal.
@usableFromInline
class CaseKind {
  /// The type the case holds, for messages.
  class var heldType: Any.Type { Void.self }

  /// Whether this kind of case holds a model that has something for a route to follow:
  /// subscriptions or routes.
  class var isFollowed: Bool { false }

  /// Makes the effects `deliver` returned for the model `held` holds (`fx`, an
  /// `Fx<Child.Action>`, with `environment`, a `Child.Environment`) the parent's.
  class func wrap<Parent: ArborealModel, Cases: ModelCases>(
    _ fx: Any, of held: CaseChild<Cases>, environment: Any, from parent: Parent,
    at place: CasePlace<Parent, Cases>
  ) -> Fx<Parent.Action> { .none }

  /// Starts the subscriptions of the model `held` holds.
  class func start<Parent: ArborealModel, Cases: ModelCases>(
    _ held: CaseChild<Cases>, from parent: Parent, at place: CasePlace<Parent, Cases>,
    environment: Cases.Environment
  ) -> Fx<Parent.Action> { .none }

  /// Starts following the model `held` holds under `node`; nil when it has nothing to follow.
  class func enter<Parent: ArborealModel, Cases: ModelCases>(
    _ held: CaseChild<Cases>, under node: ModelMountNode<Parent>,
    at place: CasePlace<Parent, Cases>, environment: Cases.Environment, place prefix: String
  ) -> MountNode? { nil }

  /// Lists the model `held` holds, and its descendants, at `place`.
  class func list<Cases: ModelCases>(
    _ held: CaseChild<Cases>, at place: String, into places: inout [ChildPlace]
  ) {}
}

/// A case that holds a model of type `Child`.
@usableFromInline
final class ModelCase<Child: ArborealModel>: CaseKind {
  override class var heldType: Any.Type { Child.self }

  override class var isFollowed: Bool { Child.subscribes || !Child.routes.isEmpty }

  override class func wrap<Parent: ArborealModel, Cases: ModelCases>(
    _ fx: Any, of held: CaseChild<Cases>, environment: Any, from parent: Parent,
    at place: CasePlace<Parent, Cases>
  ) -> Fx<Parent.Action> {
    #if DEBUG
      if isFollowed { FollowedCases.insert(Cases.self) }
    #endif
    // `deliver` returned them for this kind of case: the casts hold.
    let child = unsafeDowncast(held.object.unsafelyUnwrapped, to: Child.self)
    return wrap(
      fx as! Fx<Child.Action>, of: child, held: held, from: parent, at: place,
      environment: environment as! Child.Environment)
  }

  override class func start<Parent: ArborealModel, Cases: ModelCases>(
    _ held: CaseChild<Cases>, from parent: Parent, at place: CasePlace<Parent, Cases>,
    environment: Cases.Environment
  ) -> Fx<Parent.Action> {
    guard Child.subscribes else { return .none }
    let child = unsafeDowncast(held.object.unsafelyUnwrapped, to: Child.self)
    return wrap(
      .none, of: child, held: held, from: parent, at: place,
      environment: self.environment(of: held)(environment))
  }

  override class func enter<Parent: ArborealModel, Cases: ModelCases>(
    _ held: CaseChild<Cases>, under node: ModelMountNode<Parent>,
    at place: CasePlace<Parent, Cases>, environment: Cases.Environment, place prefix: String
  ) -> MountNode? {
    let child = unsafeDowncast(held.object.unsafelyUnwrapped, to: Child.self)
    return node.enter(
      child, environment: self.environment(of: held)(environment), place: prefix,
      wrap: { [weak parent = node.model] fx, environment in
        parent.map {
          wrap(fx, of: child, held: held, from: $0, at: place, environment: environment)
        }
      })
  }

  override class func list<Cases: ModelCases>(
    _ held: CaseChild<Cases>, at place: String, into places: inout [ChildPlace]
  ) {
    ChildPlace.list(
      unsafeDowncast(held.object.unsafelyUnwrapped, to: Child.self), at: place, into: &places)
  }

  /// The child's services from the cases', as the case's line said.
  private class func environment<Cases: ModelCases>(
    of held: CaseChild<Cases>
  ) -> @Sendable (Cases.Environment) -> Child.Environment {
    guard let map = held.environment else {
      // No mapping: the services are the same (the factory without one requires it).
      return { $0 as! Child.Environment }
    }
    return map as! @Sendable (Cases.Environment) -> Child.Environment
  }

  /// The child's effects (and subscriptions), made the parent's.
  private class func wrap<Parent: ArborealModel, Cases: ModelCases>(
    _ fx: Fx<Child.Action>, of child: Child, held: CaseChild<Cases>, from parent: Parent,
    at place: CasePlace<Parent, Cases>, environment childEnvironment: Child.Environment
  ) -> Fx<Parent.Action> {
    let embedAction = held.embed as! @Sendable (Child.Action) -> Cases.Action
    let embedParent = place.embed
    return parent.wrap(
      fx, of: child, environment: childEnvironment, path: place.path,
      key: place.key.map(PlaceKey.init)
    ) {
      ForwardRoute(
        dismissal: place.dismissal, read: { place.presence(parent) },
        tag: { embedParent(embedAction($0)) })
    }
  }
}

/// A case that holds an alert or a confirmation dialog whose buttons send `AlertAction`s.
@usableFromInline
final class AlertCase<AlertAction: Sendable>: CaseKind {
  override class var heldType: Any.Type { AlertState<AlertAction>.self }
}

/// The enumerations of cases seen holding a model with something to follow (subscriptions or
/// routes), learnt as actions are forwarded to them: what a `forward` through a route that
/// ``ArborealModel/routes`` misses reports. Debug builds only fill it.
enum FollowedCases {
  private static let seen = Locked.make(Set<ObjectIdentifier>())

  static func insert(_ cases: Any.Type) {
    seen.withLock { _ = $0.insert(ObjectIdentifier(cases)) }
  }

  static func contains(_ cases: Any.Type) -> Bool {
    seen.withLock { $0.contains(ObjectIdentifier(cases)) }
  }
}
