import ArborealTracking

/// The store's record of which child models own running effects, and the watches that end
/// those effects when a child leaves the state.
///
/// ## Data
/// - `records`: one per child model (by identity) that started an effect through `forward`
///   and has not left the state since, or that is the parent of such a child. A record keeps
///   its `ChildLink`, hence the model, alive.
/// - `watches`: one per route (a parent instance and the key path its `forward` named) that
///   holds at least one recorded child: the store's watch of that place (``PlaceWatches``),
///   shared with the mounts, which keeps this object's `members` there and tells it of each
///   new reading (`placeChanged`), made after each transaction that changed the place,
///   synchronously in the store's isolation, before the store handles its next action.
/// - `watchesByParent`: the routes of each parent, to drop them when the parent leaves.
///
/// ## Invariants
/// 1. A child is in `records` only while its route held it at the route's last reading; its
///    identifier is in its watch's `members` exactly while it is in `records`.
/// 2. Every record's route has a watch; a watch whose `members` are empty is removed.
/// 3. A record's parent, when it is not the store's model, has a record too (or was never
///    forwarded to: a parent the store cannot see leave, treated as always present).
/// 4. When a child leaves (its route no longer holds it, or its parent left), its record, its
///    descendants' records and its routes' watches are removed, and `leave` is called for it
///    before anything else happens, so that its effects are cancelled within the action.
/// 5. A record whose child has no running effect and no recorded descendant is dropped the
///    next time its route is read, so that idle children cost nothing.
///
/// A route's reading is O(*n*) for a collection of *n* children, once per transaction that
/// changed what the route reads: the cost of the comparison of element identifiers that
/// TCA's `forEach` makes for each action that changes a collection.
final class ChildLifetimes {
  private struct Record {
    let link: ChildLink
    /// The identifiers of the recorded children whose parent is this child.
    var children: Set<ObjectIdentifier> = []
  }

  /// The store's watches of the places of `watches`, whose `members` this object keeps.
  private typealias Watch = PlaceWatches.Watch

  // Without the dynamic exclusivity checks (about 1,000 instructions per push and pop): the
  // object is used only in its store's isolation, and no method holds an access to these
  // across a call that could reach back into this object (each is read or written in one
  // statement, and `leave`, which ends effects, runs after the record is gone).
  @exclusivity(unchecked) private var records: [ObjectIdentifier: Record] = [:]
  @exclusivity(unchecked) private var watches: [RouteKey: Watch] = [:]
  @exclusivity(unchecked) private var watchesByParent: [ObjectIdentifier: [RouteKey]] = [:]

  /// Ends the effects of a child that left the state (and those of its descendants).
  private let leave: (ChildLink) -> Void
  /// Whether a child still has running effects (of its own or of its descendants).
  private let isBusy: (ChildLink) -> Bool

  /// The store's watches of places, which this object shares with the mounts.
  private let places: PlaceWatches

  init(
    places: PlaceWatches, leave: @escaping (ChildLink) -> Void,
    isBusy: @escaping (ChildLink) -> Bool
  ) {
    self.places = places
    self.leave = leave
    self.isBusy = isBusy
    places.lifetimes = self
  }

  #if ARBOREAL_INTERNAL_CHECKS
    /// Asserts invariants 1 to 3 when built with `-DARBOREAL_INTERNAL_CHECKS`; does nothing
    /// otherwise.
    ///
    /// - Complexity: O(*r* + *w*) for *r* records and *w* watches.
    @inline(never)
    func checkInvariants() {
      for (id, record) in records {
        let watch = watches[record.link.route]
        precondition(watch != nil, "ChildLifetimes: a recorded child's route is not watched")
        precondition(
          watch?.members.contains(id) == true, "ChildLifetimes: a watch misses a recorded child")
        for child in record.children {
          precondition(
            records[child]?.link.route.parent == id,
            "ChildLifetimes: a record lists a child that is not its own")
        }
      }
      for watch in watches.values {
        precondition(!watch.members.isEmpty, "ChildLifetimes: a watch without members")
        precondition(watch.isLifetimeWatch, "ChildLifetimes: a watch not marked as its own")
        for member in watch.members {
          precondition(records[member] != nil, "ChildLifetimes: a watch lists a dropped child")
        }
      }
    }
  #else
    /// Does nothing: the checks are built with `-DARBOREAL_INTERNAL_CHECKS`.
    @inline(__always)
    func checkInvariants() {}
  #endif

  /// How many children are recorded; for this package's tests.
  var recordCount: Int { records.count }

  /// How many routes are watched; for this package's tests.
  var watchCount: Int { watches.count }

  /// Records the owners of an effect about to start, outermost first, and checks that each is
  /// in the state now.
  ///
  /// - Parameter owners: The effect's owners, innermost first (`FxEntry.Work.owners`).
  /// - Returns: The first owner that is not in the state (start nothing), or nil.
  /// - Complexity: O(*d*) for *d* owners whose routes are watched already; a route watched
  ///   for the first time is read once (O(*n*) for a collection of *n*).
  func admit(_ owners: [ChildLink]) -> ChildLink? {
    defer { checkInvariants() }
    for link in owners.reversed() {
      if records[link.id] != nil { continue }
      let watch = self.watch(for: link)
      guard watch.reading.contains(link.id) else {
        if watch.members.isEmpty { removeWatch(watch.key) }
        return link
      }
      watch.members.insert(link.id)
      records[link.id] = Record(link: link)
      records[link.route.parent]?.children.insert(link.id)
    }
    return nil
  }

  /// The watch of a link's route, made (its place read, or its reading shared) if there is
  /// none.
  private func watch(for link: ChildLink) -> Watch {
    if let watch = watches[link.route] { return watch }
    let watch = places.watch(link.route, parent: link.parent, read: link.read)
    watch.isLifetimeWatch = true
    watches[link.route] = watch
    watchesByParent[link.route.parent, default: []].append(link.route)
    return watch
  }

  /// Applies a new reading of a route (`PlaceWatches` calls it): its members that it no
  /// longer holds leave; those that are idle are dropped.
  func placeChanged(_ watch: PlaceWatches.Watch) {
    let present = watch.reading
    guard !watch.members.isEmpty else { return }
    defer { checkInvariants() }
    var gone: [ObjectIdentifier] = []
    var idle: [ObjectIdentifier] = []
    for id in watch.members {
      if !present.contains(id) {
        gone.append(id)
      } else if let record = records[id], record.children.isEmpty, !isBusy(record.link) {
        idle.append(id)
      }
    }
    for id in gone { childLeft(id) }
    for id in idle { drop(id, leaving: false) }
  }

  /// A child left the state: drop it and its descendants, and end their effects.
  private func childLeft(_ id: ObjectIdentifier) {
    drop(id, leaving: true)
  }

  /// Removes a record, its descendants' records and its routes; calls `leave` for each
  /// removed record when `leaving`.
  private func drop(_ id: ObjectIdentifier, leaving: Bool) {
    guard let record = records.removeValue(forKey: id) else { return }
    let route = record.link.route
    if let watch = watches[route] {
      watch.members.remove(id)
      if watch.members.isEmpty { removeWatch(route) }
    }
    records[route.parent]?.children.remove(id)
    for child in record.children { drop(child, leaving: leaving) }
    for key in watchesByParent.removeValue(forKey: id) ?? [] { removeWatch(key) }
    if leaving { leave(record.link) }
  }

  private func removeWatch(_ key: RouteKey) {
    guard let watch = watches.removeValue(forKey: key) else { return }
    watch.isLifetimeWatch = false
    watch.members = []
    places.release(watch)
    if var keys = watchesByParent[key.parent] {
      keys.removeAll { $0 == key }
      watchesByParent[key.parent] = keys.isEmpty ? nil : keys
    }
  }

  /// Cancels every watch: for the store's release.
  func removeAll() {
    for watch in watches.values {
      watch.isLifetimeWatch = false
      watch.members = []
      places.release(watch)
    }
    watches = [:]
    watchesByParent = [:]
    records = [:]
  }
}
