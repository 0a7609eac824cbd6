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
  private let place: (path: AnyKeyPath, key: AnyHashable?)
  /// The membership identifier every effect of the child (and of its descendants) carries.
  let membership: CancelID

  init(
    child: AnyObject, parent: AnyObject, path: AnyKeyPath, key: AnyHashable?,
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
