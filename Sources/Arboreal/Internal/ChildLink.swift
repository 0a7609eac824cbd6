import ArborealTracking

/// One step of an effect's ownership: the child model a parent forwarded an action to with
/// `forward`, the parent, and the route that says where the parent holds it.
///
/// `forward` makes one per call whose child returned effects, and appends it to the owners of
/// each of them (`FxEntry.Work.owners`), so that an effect started by a grandchild carries the
/// grandchild's link, then the child's. The store's `ChildLifetimes` watches each route and ends
/// the child's effects when the route no longer holds the child.
///
/// Invariant (why `@unchecked Sendable` holds): every stored property is a `let`; the models
/// and the `read` closure are used only on the main actor (by `forward`, which runs in an
/// update, and by the store). An `Fx` that carries a link to another thread carries it
/// unused.
@usableFromInline
final class ChildLink: @unchecked Sendable {
  /// The child model. Held strongly: the store's lifetime record keeps the model alive while
  /// its effects run, so that its identifier stays its own.
  let child: AnyObject
  /// The model that forwarded to it.
  let parent: AnyObject
  /// Which of the parent's routes holds the child: the parent and the key path.
  let route: RouteKey
  /// Reads, through the parent's tracked properties, which children the route holds now: the
  /// reader of its kind (`RouteEntry.held` and its siblings), the one a route's `entries` is.
  let read: () -> [RouteEntry]
  /// The child's place in its parent for messages: `\Album.rows` and, for a child in a
  /// collection, its key.
  private let place: (path: AnyKeyPath, key: PlaceKey?)
  /// The membership identifier every effect of the child (and of its descendants) carries.
  let membership: CancelID

  @usableFromInline
  init(
    child: AnyObject, parent: AnyObject, path: AnyKeyPath, key: PlaceKey?,
    membership: CancelID, read: @escaping () -> [RouteEntry]
  ) {
    self.child = child
    self.parent = parent
    self.route = RouteKey(parent: ObjectIdentifier(parent), path: path)
    self.read = read
    self.place = (path, key)
    self.membership = membership
  }

  /// The child's place in messages, named as everywhere (`PlaceNames`): `Album.photos[id: 5]
  /// (Photo)`, under the parent's place when a store's update runs on this thread.
  var name: String {
    let read = self.read
    return PlaceNames.describe(
      child: type(of: child), at: place.path, key: place.key, in: parent
    ) { _ = read() }
  }

  /// The child's identity.
  var id: ObjectIdentifier { ObjectIdentifier(child) }
}

/// A route of one parent instance: the parent and the key path its `forward` named.
///
/// Invariant (why `@unchecked Sendable` holds): key paths are immutable values, and
/// `ObjectIdentifier` is a plain value.
struct RouteKey: Hashable, @unchecked Sendable {
  let parent: ObjectIdentifier
  let path: AnyKeyPath

  /// Hashes the parent alone: a parent has few routes, and hashing a key path walks its
  /// components (about 2,500 instructions per push and pop, where the store looks its routes
  /// up). Equal keys have equal parents, so the hash stays consistent with `==`, which
  /// compares the key paths (at once when they are the same object, as a route's are).
  func hash(into hasher: inout Hasher) {
    hasher.combine(parent)
  }
}

/// A child's key among its siblings in its place: a stack's element identifier, a collection
/// element's identifier; nil (as `PlaceKey?`) for a child held without one.
///
/// Stack identifiers and integer identifiers are kept unboxed: a push and a pop make, hash and
/// compare their keys in the effect table, the lifetime records and the lifetime links, and an
/// `AnyHashable` made, unboxed and compared there cost a metadata lookup and an allocation each
/// time. Any other identifier is boxed once. Two keys of different cases are never equal: a
/// place's keys are all of one type, so they are always made the same way.
///
/// Invariant (why `@unchecked Sendable` holds): `value` boxes only identifiers that are
/// `Sendable` (`Identifiable.ID: Sendable` in every route that makes one).
@usableFromInline
enum PlaceKey: Hashable, @unchecked Sendable {
  /// A stack's element identifier.
  case stack(StackElementID)
  /// A collection element's `Int` identifier.
  case int(Int)
  /// Any other identifier.
  case value(AnyHashable)

  /// The key of `id`: unboxed for a `StackElementID` or an `Int`, which the compiler decides
  /// where the type is known.
  @inlinable
  init<ID: Hashable & Sendable>(_ id: ID) {
    if ID.self == StackElementID.self {
      self = .stack(id as! StackElementID)
    } else if ID.self == Int.self {
      self = .int(id as! Int)
    } else {
      self = .value(AnyHashable(id))
    }
  }

  /// The identifier itself.
  var base: Any {
    switch self {
    case .stack(let id): id
    case .int(let id): id
    case .value(let value): value.base
    }
  }

  /// The identifier as an `ID`, nil when it is of another type.
  @inlinable
  func id<ID>(as type: ID.Type) -> ID? {
    switch self {
    case .stack(let id): id as? ID
    case .int(let id): id as? ID
    case .value(let value): value.base as? ID
    }
  }
}
