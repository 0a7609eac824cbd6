import ArborealTracking

/// The store's following of ``ArborealModel/routes``: which children are in the state now, so
/// that a subscribing child's subscriptions start when it enters and its effects end when it
/// leaves, however it got there.
///
/// ## Data
/// - A tree of nodes, the store's model at the root: one node per followed model (a model
///   that subscribes or declares routes) that a followed route holds.
/// - Each node has one watch per followed place of its model (one per property: two routes over
///   the same property follow it once): the identities of the place's children at its last
///   reconciliation (`known`), the nodes of those that are followed (`nodes`), and the store's
///   watch of the place (``PlaceWatches``, shared with the lifetime records), which tells it of
///   each new reading; it waits, marked dirty, until the store reconciles it.
/// - `dirty`: the watches read since their last reconciliation, in the order they were read.
///
/// ## Invariants
/// 1. A watch's `nodes` are the followed children among its `known` ones; a node is in exactly
///    one watch's `nodes` (the root in none).
/// 2. A stopped node's watches are cancelled and hold no nodes; a stopped watch is never
///    reconciled again (it may still be in `dirty`, and is skipped there).
/// 3. A node's subscriptions were started (through its parent's `forward` wrapping, so that
///    the store's `ChildLifetimes` ends them when the route drops the child) before its own
///    watches are reconciled.
///
/// Reconciliation happens in ``flush()``, which the store calls after each action, never
/// inside an update: an observation only marks its watch dirty.
final class Mounts {
  private var dirty: [RouteWatch] = []
  /// The root's node.
  private var root: MountNode?
  /// The store's watches of places, which this object shares with the lifetime records.
  let places: PlaceWatches

  /// Starts following the store's model.
  init<Model: ArborealModel>(
    model: Model, environment: Model.Environment, places: PlaceWatches,
    run: @escaping (Fx<Model.Action>) -> Void
  ) {
    self.places = places
    let node = ModelMountNode(
      model: model, environment: environment, place: "\(Model.self)", run: run)
    root = node
    node.start(in: self)
  }

  /// How many routes are followed, across the tree; for this package's tests.
  var watchCount: Int { root?.watchCount ?? 0 }

  /// Whether a watch waits for reconciliation.
  var isDirty: Bool { !dirty.isEmpty }

  func markDirty(_ watch: RouteWatch) {
    dirty.append(watch)
  }

  /// Reconciles the watches read since the last flush, and those that their new children
  /// add, until none is left.
  ///
  /// - Complexity: O(*n*) per dirty watch of a route holding *n* children.
  func flush() {
    var index = 0
    while index < dirty.count {
      let watch = dirty[index]
      index += 1
      watch.reconcile()
    }
    dirty.removeAll(keepingCapacity: true)
  }

  // Released with the store: each watch ends its observation in its deinitialiser.
}

/// A followed model in the tree of ``Mounts``.
class MountNode {
  /// `MeetingList.path[id: 2].detail`.
  let place: String
  var watches: [RouteWatch] = []
  /// Set when the node starts.
  weak var mounts: Mounts?

  init(place: String) {
    self.place = place
  }

  /// The watches of this node and its descendants.
  var watchCount: Int {
    watches.reduce(watches.count) { sum, watch in
      watch.nodes.values.reduce(sum) { $0 + $1.watchCount }
    }
  }

  /// Stops following the model and its descendants.
  func stop() {
    for watch in watches { watch.stop() }
    watches = []
  }
}

/// A followed model of type `Model`, which knows its routes and how its effects reach the
/// store.
final class ModelMountNode<Model: ArborealModel>: MountNode {
  let model: Model
  let environment: Model.Environment
  /// Runs an `Fx` of the model: wraps it as its parent's, up to the store.
  let run: (Fx<Model.Action>) -> Void

  init(
    model: Model, environment: Model.Environment, place: String,
    run: @escaping (Fx<Model.Action>) -> Void
  ) {
    self.model = model
    self.environment = environment
    self.run = run
    super.init(place: place)
  }

  /// Makes a watch for each followed place and marks it for reconciliation.
  func start(in mounts: Mounts) {
    self.mounts = mounts
    var paths = Set<AnyKeyPath>()
    for route in Model.routes where route.isFollowed() && paths.insert(route.path).inserted {
      let model = self.model
      let entries = route.entries
      let place = mounts.places.watch(
        RouteKey(parent: ObjectIdentifier(model), path: route.path), parent: model
      ) { entries(model) }
      let watch = RouteWatch(mounts: mounts, place: place)
      watches.append(watch)
      watch.reconcileEntries = { [weak self, weak watch] present in
        guard let self, let watch else { return }
        self.reconcile(watch, route: route, with: present)
      }
      // Told of each new reading; `Mounts.flush()` applies the latest after the action.
      place.mount = { [weak watch] _ in watch?.changed() }
      watch.changed()
    }
  }

  /// Follows a child the route `watch` holds now: starts its subscriptions and its routes.
  ///
  /// - Parameter wrap: Makes an `Fx` of the child this model's (nil once this model is gone).
  /// - Returns: The child's node; nil when it has nothing to follow.
  func enter<Child: ArborealModel>(
    _ child: Child, environment: Child.Environment, place: String,
    wrap: @escaping (Fx<Child.Action>, Child.Environment) -> Fx<Model.Action>?
  ) -> MountNode? {
    #if DEBUG
      SubscriptionCheck.check(Child.self)
    #endif
    guard Child.subscribes || !Child.routes.isEmpty, let mounts else { return nil }
    let node = ModelMountNode<Child>(
      model: child, environment: environment, place: place,
      run: { [weak self] fx in
        guard let self, let lifted = wrap(fx, environment) else { return }
        self.run(lifted)
      })
    // Wrapping nothing still carries the child's subscriptions, and records it as present
    // for its lifetime: the same path as an action forwarded to it.
    if Child.subscribes { node.run(.none) }
    node.start(in: mounts)
    return node
  }

  /// Applies a reading of a route: its children that left stop being followed; those that
  /// entered start.
  private func reconcile(_ watch: RouteWatch, route: ChildRoute<Model>, with present: PlaceReading)
  {
    var ids = Set<ObjectIdentifier>(minimumCapacity: present.entries.count)
    for entry in present.entries { ids.insert(entry.id) }
    for (id, node) in watch.nodes where !ids.contains(id) {
      node.stop()
      watch.nodes[id] = nil
    }
    for entry in present.entries where !watch.known.contains(entry.id) {
      if let node = route.enter(self, entry) { watch.nodes[entry.id] = node }
    }
    watch.known = ids
  }
}

/// One followed place of one model instance.
final class RouteWatch {
  weak var mounts: Mounts?
  /// The store's watch of the place; nil once stopped.
  private var place: PlaceWatches.Watch?
  /// The identifiers of the children at the last reconciliation.
  var known: Set<ObjectIdentifier> = []
  /// The followed children among them.
  var nodes: [ObjectIdentifier: MountNode] = [:]
  /// Whether a reading waits for reconciliation.
  private var isPending = false
  var reconcileEntries: ((PlaceReading) -> Void)?

  init(mounts: Mounts, place: PlaceWatches.Watch) {
    self.mounts = mounts
    self.place = place
  }

  /// Marks the watch for reconciliation at the next flush, which applies the latest reading.
  func changed() {
    guard place != nil, !isPending else { return }
    isPending = true
    mounts?.markDirty(self)
  }

  /// Applies the latest reading, if one is pending.
  func reconcile() {
    guard let place, isPending else { return }
    isPending = false
    reconcileEntries?(place.reading)
  }

  /// Leaves the place's watch and stops the children's nodes.
  func stop() {
    if let place {
      place.mount = nil
      mounts?.places.release(place)
    }
    place = nil
    isPending = false
    reconcileEntries = nil
    for node in nodes.values { node.stop() }
    nodes = [:]
    known = []
  }
}
