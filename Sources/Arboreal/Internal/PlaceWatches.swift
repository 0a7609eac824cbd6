import ArborealTracking

/// The children a place holds at one reading, each with its key (`RouteEntry`). Every reader
/// of presence reads this one list, made by the one reader of the place's kind (`RouteEntry`'s
/// `held`, `optional`, `collection`, `stack`, `caseStack` and `destination`): the store's
/// lifetime records and its mounts through a shared watch (``PlaceWatches``), and
/// `Store.children`, the reports and the test store's checks of new models through the route.
struct PlaceReading {
  /// The children, in the place's order.
  let entries: [RouteEntry]
  /// Their identities, kept for a reading of more than `scanLimit` (a scan is cheaper below).
  private let ids: Set<ObjectIdentifier>?
  private static let scanLimit = 8

  /// A reading of `entries`.
  ///
  /// - Complexity: O(*n*) for *n* entries.
  init(_ entries: [RouteEntry]) {
    self.entries = entries
    guard entries.count > Self.scanLimit else {
      ids = nil
      return
    }
    var ids = Set<ObjectIdentifier>(minimumCapacity: entries.count)
    for entry in entries { ids.insert(entry.id) }
    self.ids = ids
  }

  /// Whether the place held the child `id`.
  func contains(_ id: ObjectIdentifier) -> Bool {
    if let ids { return ids.contains(id) }
    return entries.contains { $0.id == id }
  }
}

// The readers, one per kind of place: what a route's `entries` and a forward's lifetime link
// both call, so that the two cannot disagree.
extension [RouteEntry] {
  /// The child a parent always holds.
  @inlinable
  static func held<Parent, Child: AnyObject>(
    _ parent: Parent, _ path: KeyPath<Parent, Child>
  ) -> Self {
    [RouteEntry(object: parent[keyPath: path], key: nil)]
  }

  /// An optional or presented child, when it is there.
  @inlinable
  static func optional<Parent, Child: AnyObject>(
    _ parent: Parent, _ path: KeyPath<Parent, Child?>
  ) -> Self {
    parent[keyPath: path].map { [RouteEntry(object: $0, key: nil)] } ?? []
  }

  /// The children of a collection, keyed by their identifiers.
  ///
  /// - Complexity: O(*n*) for *n* children.
  @inlinable
  static func collection<Parent, Children: Collection>(
    _ parent: Parent, _ path: KeyPath<Parent, Children>
  ) -> Self where Children.Element: AnyObject & Identifiable, Children.Element.ID: Sendable {
    // The element's own identifier (`Element.ID`, which the constraint makes `Sendable`): without
    // it, `$0.id` would resolve to the `ObjectIdentifier` every class has.
    parent[keyPath: path].map { RouteEntry(object: $0, key: PlaceKey($0.id)) }
  }

  /// The screens of a stack of one kind, keyed by their element identifiers.
  ///
  /// - Complexity: O(*n*) for *n* screens.
  @inlinable
  static func stack<Parent, Screen: ArborealModel>(
    _ parent: Parent, _ path: KeyPath<Parent, ModelStack<Screen>>
  ) -> Self {
    let stack = parent[keyPath: path]
    var entries: [RouteEntry] = []
    entries.reserveCapacity(stack.count)
    for position in stack.indices {
      entries.append(RouteEntry(object: stack[position], key: .stack(stack.id(at: position))))
    }
    return entries
  }

  /// The models the screens of a stack of several kinds hold, keyed by their element
  /// identifiers (a case that holds no model, an alert, has no entry).
  ///
  /// - Complexity: O(*n*) for *n* screens.
  static func caseStack<Parent, Cases: ModelCases>(
    _ parent: Parent, _ path: KeyPath<Parent, ModelStack<Cases>>
  ) -> Self {
    var entries: [RouteEntry] = []
    let stack = parent[keyPath: path]
    for position in stack.indices {
      if let object = stack[position].heldObject {
        entries.append(RouteEntry(object: object, key: .stack(stack.id(at: position))))
      }
    }
    return entries
  }

  /// The model an enumeration of destinations holds, when one is presented and holds one.
  static func destination<Parent, Cases: ModelCases>(
    _ parent: Parent, _ path: KeyPath<Parent, Cases?>
  ) -> Self {
    parent[keyPath: path]?.heldObject.map { [RouteEntry(object: $0, key: nil)] } ?? []
  }
}

/// A store's watches of its places: one observation per place (a parent instance and the
/// property a route names) that something follows, read once per change, whose reading every
/// consumer shares: the lifetime records (`ChildLifetimes`, while a child there owns effects)
/// and the mounts (`Mounts`, while the parent's routes are followed). Each is told of a new
/// reading; neither reads the place itself, so they cannot disagree on what it holds.
///
/// ## Data
/// - `watches`: by place (`RouteKey`). A watch keeps the parent (so that its identifier stays
///   its own while watched), its last reading, its observation, the lifetime records' part
///   (whether they use it, and their members there) and the mounts' callback.
/// - `lifetimes`: the store's lifetime records, told of a new reading of the watches they use.
///
/// ## Invariants
/// 1. A watch is in `watches` exactly while a consumer uses it (`isLifetimeWatch`, or its
///    `mount` callback set); its observation is cancelled when it leaves.
/// 2. A watch's `reading` is what its reader returned at its making or after the last
///    transaction that changed what the reader read. After each new reading the consumers are
///    told, the lifetime records first: a child that left ends its effects within the action,
///    before the mounts reconcile (which they do after the action).
final class PlaceWatches {
  /// One watched place.
  final class Watch {
    let key: RouteKey
    /// The parent: held, so that no other object takes its identifier while it is watched.
    let parent: AnyObject
    // No dynamic exclusivity checks on the watch's fields nor on `watches` below: they are
    // used only in the store's isolation, each in one statement, never across a call back.
    /// The place's children at the last reading.
    @exclusivity(unchecked) fileprivate(set) var reading: PlaceReading
    @exclusivity(unchecked) fileprivate var token: TrackingToken?
    /// Whether the lifetime records use the watch (`ChildLifetimes` owns this and `members`).
    @exclusivity(unchecked) var isLifetimeWatch = false
    /// The lifetime records' children at this place (see `ChildLifetimes`).
    @exclusivity(unchecked) var members: Set<ObjectIdentifier> = []
    /// Told after each new reading while the mounts use the watch.
    var mount: ((Watch) -> Void)?

    fileprivate init(key: RouteKey, parent: AnyObject) {
      self.key = key
      self.parent = parent
      self.reading = PlaceReading([])
    }

    /// Ends the observation on purpose when the store (which owns the watches) is released.
    deinit {
      token?.cancel()
    }
  }

  @exclusivity(unchecked) private var watches: [RouteKey: Watch] = [:]
  /// The store's lifetime records, once made.
  weak var lifetimes: ChildLifetimes?

  /// How many places are watched; for this package's tests.
  var count: Int { watches.count }

  /// The watch of `key`, made and read once if there is none. The caller sets its callback.
  ///
  /// - Parameter read: Reads the place through the parent's tracked properties.
  /// - Complexity: O(*n*) for a new watch of a place of *n* children; O(1) otherwise.
  func watch(
    _ key: RouteKey, parent: AnyObject, read: @escaping () -> [RouteEntry]
  ) -> Watch {
    if let watch = watches[key] { return watch }
    let watch = Watch(key: key, parent: parent)
    watches[key] = watch
    // The body runs now, then after each transaction that changed what `read` read, in the
    // store's isolation; it holds the watch weakly (this object owns it).
    watch.token = observeInStoreIsolation(ignoringChanges: { [weak self, weak watch] in
      let entries = read()
      guard let self, let watch else { return }
      watch.reading = PlaceReading(entries)
      if watch.isLifetimeWatch { self.lifetimes?.placeChanged(watch) }
      watch.mount?(watch)
    })
    return watch
  }

  /// Ends `watch` if no consumer uses it any more.
  func release(_ watch: Watch) {
    guard !watch.isLifetimeWatch, watch.mount == nil, watches[watch.key] === watch else {
      return
    }
    watches[watch.key] = nil
    watch.token?.cancel()
    watch.token = nil
  }
}
