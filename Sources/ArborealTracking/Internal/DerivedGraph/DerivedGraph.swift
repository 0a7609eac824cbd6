import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The new derived engine's graph with its values and its one lock (issue "A new derived
/// engine", stops 2 to 4): sources and computed values over ``DerivedGraphCore``, safe from
/// any thread. Its own cells (``GraphSource``, ``GraphComputed``) are what its tests drive;
/// built with `-DARBOREAL_NEW_DERIVED`, every public `Derived` is a computed row of
/// ``shared`` (`GraphDerivedNode`), whose tracked properties reach it through an input row
/// per value (read how there).
///
/// ## Data
/// - `core`: the pure graph (marks, links, versions), which says what to compute.
/// - `rows`: the storage of each row (``GraphNode``; `Unmanaged`, retained once by the graph
///   while the row lives, so reaching one costs no reference count); nil for a free row. The
///   handle a user holds keeps the graph and removes its row when it goes.
/// - `computing`: the rows whose computations run now, innermost last: what a read links to.
/// - `reached`: scratch for the watched rows a write reaches.
///
/// ## Locking
/// One lock per graph, taken once per top-level read that must refresh (and per clean read,
/// for now: publishing values for lock-free clean reads is a later stop), and once per write.
/// Computations run while it is held: a read inside a computation is on the thread that holds
/// it (`holder` says so) and takes it no more. So a computation must not wait
/// for another thread that reads or writes this graph. Observers run after the write, outside
/// the lock. The one exception is the graph's own: a first read nests one computation per
/// value, and every `stackHop` levels the next ones run on a thread with a fresh stack while
/// the holder waits for it (`holder` names that thread meanwhile). What a computation keeps in
/// thread-local storage does not travel with it: `GraphDerivedNode` needs none to (each
/// computation opens and consumes its own tracking scope on the thread it runs on, and the
/// reader's link goes through `computing`), and its isolation check trusts a hop
/// (``isOnStackHop``). With `Derived` on the graph (stop 4), one lock serves every derived
/// value of the process (``shared``): a computation that waits for another thread which
/// reads, writes or disposes any derived value deadlocks, where the current engine, which
/// computes outside its locks, does not.
///
/// ## Cost, and what the next stops change
/// Measured with a throwaway driver on the deep, broad and diamond shapes (release, CPU time,
/// quiet machine): 57–65 ns per recomputed value on the chain, 104–107 on the broad shape
/// (1,000 observers per write) and 79–82 on the diamond, observers included (the current
/// engine: 587–2,374; alien-signals: 40.5, 65.1 and 39.0 in this week's run; the core alone:
/// 31–36). Keeping a computed value in an optional had cost 189–245: unspecialised generic
/// code looked up `Optional<Value>`'s metadata on every access. Still to take: an observer's
/// lock trip to read its value after the write (most of what the broad shape costs over the
/// others), and the reference counting around the compute closure and the node.
///
/// ## Invariants
/// - `core` and `rows` change only under the lock; `rows[r]` is non-nil exactly while row `r`
///   is live in `core`.
/// - `computing` is empty whenever the lock is free.
/// - A computed cell's `value` is the result of its last computation, and the core's version
///   of its row went up exactly when that result differed from the one before.
final class DerivedGraph: @unchecked Sendable {
  private let lock = Lock()
  /// The thread that holds `lock` (its `pthread_self()`), or 0.
  private let holder = Atomic<UInt>(0)
  private let core = DerivedGraphCore()
  @exclusivity(unchecked) private var rows: [Unmanaged<GraphNode>?] = []
  @exclusivity(unchecked) private var computing: [DerivedGraphCore.Node] = []
  @exclusivity(unchecked) private var reached: [DerivedGraphCore.Node] = []
  /// The version each entry of `reached` had when a write reached it (its observer runs if
  /// the refresh at the end of the write, or of the batch, moved it).
  @exclusivity(unchecked) private var reachedVersions: [UInt32] = []
  /// How many `batch` calls are open (on the thread that holds the lock: a batch holds it).
  @exclusivity(unchecked) private var batchDepth = 0
  /// Counts flushes, so that a value reached twice in one batch is notified once.
  @exclusivity(unchecked) private var flushCount = 0
  /// How many stack hops are under way (under the lock: the holder's chain of hops).
  @exclusivity(unchecked) private var hopDepth = 0
  /// Source rows to mark once the outermost refresh ends (``markAfterRefresh(_:)``).
  @exclusivity(unchecked) private var marksAfterRefresh: [DerivedGraphCore.Node] = []

  /// An empty graph.
  init() {}

  /// How many cells are live; for tests.
  var cellCount: Int { locked { $0.core.nodeCount } }

  /// How many rows the arena has for nodes and links; for tests (a warm graph's stay put).
  var capacity: (nodes: Int, links: Int) { locked { $0.core.capacity } }

  // MARK: Locking

  /// Runs `body` holding the lock, or at once on the thread that holds it (a read inside a
  /// computation).
  @inline(__always)
  private func locked<R>(_ body: (DerivedGraph) -> R) -> R {
    // Only the holder stores its own thread here, so a thread that finds itself holds the
    // lock; any other finds another thread or none (a relaxed load is enough for that).
    #if canImport(Darwin)
      let thread = UInt(bitPattern: pthread_self())
    #else
      let thread = UInt(pthread_self())
    #endif
    if holder.load(ordering: .relaxed) == thread { return body(self) }
    return lock.withLock(owner: UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())) {
      holder.store(thread, ordering: .relaxed)
      defer { holder.store(0, ordering: .relaxed) }
      return body(self)
    }
  }

  /// Runs `body` holding the lock (or at once on the thread that holds it): for state a
  /// row's storage keeps under the graph's lock.
  func withLock<R>(_ body: () -> R) -> R {
    locked { _ in body() }
  }

  // MARK: Cells

  /// Adds a row holding `node` (retained until the row is removed).
  func add(_ node: GraphNode, computed: Bool) -> DerivedGraphCore.Node {
    locked { graph in
      let row = computed ? graph.core.addComputed() : graph.core.addSource()
      let index = Int(row)
      if index == graph.rows.count {
        graph.rows.append(Unmanaged.passRetained(node))
      } else {
        graph.rows[index] = Unmanaged.passRetained(node)
      }
      return row
    }
  }

  /// Removes a row, and releases its node after the lock (its value's deinit may run user
  /// code).
  func remove(_ row: DerivedGraphCore.Node) {
    let node = locked { graph in
      graph.core.remove(row)
      defer { graph.rows[Int(row)] = nil }
      graph.rows[Int(row)]?.takeUnretainedValue().isRemoved = true
      return graph.rows[Int(row)]
    }
    node?.release()
  }

  func setWatched(_ row: DerivedGraphCore.Node, _ watched: Bool) {
    locked { $0.core.setWatched(row, watched) }
  }

  // MARK: Reading

  /// Brings `row` up to date if it is stale, links it to the computation that reads it, and
  /// returns `read(node)` under the lock.
  func read<R>(_ row: DerivedGraphCore.Node, _ value: () -> R) -> R {
    read(row, watch: false, before: {}, value)
  }

  /// ``read(_:_:)`` that first runs `before` under the lock (a model's value notes its model
  /// there) and, with `watch`, marks the row watched: an observer outside the graph depends on
  /// it, so that a write that reaches it reports it (see ``flush()``). A row whose
  /// computation reads inputs that changed while it ran is marked again after the refresh, and
  /// the watched values that reaches are refreshed and reported after the lock.
  func read<R>(
    _ row: DerivedGraphCore.Node, watch: Bool, before: () -> Void, _ value: () -> R
  ) -> R {
    var notify: [Notification] = []
    let result = locked { graph in
      before()
      if graph.core.isStale(row) {
        // Every `stackHop` nested computations, the next ones run on a fresh stack: a first
        // read of a long chain nests one computation per value (its sources are not known
        // until it runs), which no fixed stack holds.
        let depth = graph.computing.count
        if depth > 0, depth % Self.stackHop == 0 {
          graph.refreshOnFreshStack(row)
        } else {
          graph.refresh(row)
        }
      }
      if let reader = graph.computing.last {
        if !graph.core.track(row, by: reader) { graph.reportCycle(row) }
      } else {
        if watch { graph.core.setWatched(row, true) }
        if !graph.marksAfterRefresh.isEmpty {
          graph.applyMarksAfterRefresh()
          notify = graph.batchDepth > 0 ? [] : graph.flush()
        }
      }
      return value()
    }
    if !notify.isEmpty { Self.deliver(notify, in: self) }
    return result
  }

  /// Whether a computation of this graph runs on the calling thread now (a read there links
  /// to it rather than to an observer outside the graph).
  var isComputingOnThisThread: Bool {
    #if canImport(Darwin)
      let thread = UInt(bitPattern: pthread_self())
    #else
      let thread = UInt(pthread_self())
    #endif
    guard holder.load(ordering: .relaxed) == thread else { return false }
    // This thread holds the lock, so `computing` is its to read.
    return !computing.isEmpty
  }

  /// Whether the calling thread runs computations on a stack hop (``refreshOnFreshStack(_:)``)
  /// now: it stands in for the thread that waits for it, whose isolation its computations
  /// keep (that thread is blocked meanwhile, so they run exclusively), though an isolation
  /// check that looks at the thread cannot tell. False on any thread but the lock's holder.
  var isOnStackHop: Bool {
    isComputingOnThisThread && hopDepth > 0
  }

  /// Under the lock, inside a computation: links the running computation to `row` (a source
  /// it depends on by construction: a computed value's input row).
  func trackByRunningComputation(_ row: DerivedGraphCore.Node) {
    guard let reader = computing.last else { return }
    core.track(row, by: reader)
  }

  /// Under the lock, inside a computation: marks the source `row` once the outermost refresh
  /// ends (what the computation read changed while it ran; marking its row now would meet the
  /// computation half done).
  func markAfterRefresh(_ row: DerivedGraphCore.Node) {
    marksAfterRefresh.append(row)
  }

  /// Under the lock, outside any computation: applies ``markAfterRefresh(_:)``'s marks.
  private func applyMarksAfterRefresh() {
    var rows: [DerivedGraphCore.Node] = []
    swap(&rows, &marksAfterRefresh)
    for row in rows where self.rows[Int(row)] != nil { mark(row) }
    rows.removeAll(keepingCapacity: true)
    if marksAfterRefresh.isEmpty { swap(&rows, &marksAfterRefresh) }
  }

  /// Under the lock: computes what the core asks, innermost first, until `row` is up to date.
  private func refresh(_ row: DerivedGraphCore.Node) {
    core.beginRefresh(row)
    while true {
      switch core.nextStep() {
      case .compute(let next):
        let node = rows[Int(next)]!.takeUnretainedValue()
        core.beginCompute(next)
        computing.append(next)
        let changed = node.recompute()
        computing.removeLast()
        core.endCompute(next, changed: changed)
      case .done:
        return
      case .cycle(let node):
        reportCycle(node)
      }
    }
  }

  /// How many computations nest on one stack before the next ones move to a fresh one.
  static let stackHop = 256

  /// The stack each hop gets: far more than `stackHop` nested computations need in a debug
  /// build (each nests a few frames of this file and the computation's own).
  private static let hopStackBytes = 64 << 20

  /// Under the lock: ``refresh(_:)`` on a thread of its own with a large stack, this thread
  /// waiting for it. The lock stays held (by this thread, which waits); `holder` names the
  /// new thread while it runs, so that its reads take the lock no more, and this one again
  /// after. Creating and joining the thread order its memory with this one's.
  private func refreshOnFreshStack(_ row: DerivedGraphCore.Node) {
    hopDepth += 1
    defer { hopDepth -= 1 }
    let previous = holder.load(ordering: .relaxed)
    let job = StackHop {
      #if canImport(Darwin)
        let thread = UInt(bitPattern: pthread_self())
      #else
        let thread = UInt(pthread_self())
      #endif
      self.holder.store(thread, ordering: .relaxed)
      self.refresh(row)
    }
    job.runOnFreshStack(bytes: Self.hopStackBytes)
    holder.store(previous, ordering: .relaxed)
  }

  // MARK: Writing

  /// Stores a source's new value (`store`, under the lock, returns whether it changed), marks
  /// what depends on it, and runs the observers of the watched values it reached whose value
  /// changed, once each, after the lock.
  fileprivate func write(_ row: DerivedGraphCore.Node, _ store: () -> Bool) {
    // Strong references, taken under the lock: a handle released meanwhile on another thread
    // removes its row, and the node lives until its observer has run.
    let notify: [Notification] = locked { graph in
      guard store() else { return [] }
      graph.mark(row)
      return graph.batchDepth > 0 ? [] : graph.flush()
    }
    Self.deliver(notify, in: self)
  }

  /// Marks what depends on the source `row` when it still holds `node` (a row removed
  /// meanwhile, perhaps reused, is left alone), without refreshing or notifying anything:
  /// the watched values it reaches are appended to `reached` with their versions, which the
  /// calling thread keeps until its notification loop or transaction ends and then hands to
  /// ``flushAndNotify(_:)`` (a computed value's input row, see `GraphDerivedNode`). Kept by
  /// the thread, not the graph: another thread's flush must not refresh, in the middle of
  /// this thread's transaction, what this thread's writes reached.
  func markSource(
    _ row: DerivedGraphCore.Node, holding node: GraphNode, reached: inout [Reached]
  ) {
    locked { graph in
      guard let held = graph.rows[Int(row)],
        held.toOpaque() == Unmanaged.passUnretained(node).toOpaque()
      else { return }
      let first = graph.reached.count
      graph.core.write(row, reached: &graph.reached)
      for index in first..<graph.reached.count {
        let watched = graph.reached[index]
        reached.append((watched, graph.core.version[Int(watched)]))
      }
      graph.reached.removeSubrange(first...)
    }
  }

  /// A watched row a write reached, with its version then.
  typealias Reached = (row: DerivedGraphCore.Node, version: UInt32)

  /// Refreshes the watched values in `reached` (and any the graph's own marks reached), and
  /// runs their notifications after the lock (see ``flush()``); empties `reached`.
  func flushAndNotify(_ reached: inout [Reached]) {
    let notify: [Notification] = locked { graph in
      for (row, version) in reached {
        graph.reached.append(row)
        graph.reachedVersions.append(version)
      }
      return graph.batchDepth > 0 || !graph.computing.isEmpty ? [] : graph.flush()
    }
    reached.removeAll(keepingCapacity: reached.capacity <= 4_096)
    Self.deliver(notify, in: self)
  }

  /// A watched value to notify after a flush: `since` is nil when the flush refreshed it and
  /// its version moved, or the version a write reached it at when it must be refreshed in its
  /// own isolation first (``GraphNode/refreshesHere``).
  typealias Notification = (node: GraphNode, row: DerivedGraphCore.Node, since: UInt32?)

  /// Runs the notifications of a flush, after the lock, in order.
  private static func deliver(_ notify: [Notification], in graph: DerivedGraph) {
    for (node, row, since) in notify { node.notify(in: graph, row: row, since: since) }
  }

  /// The version of `row` now, brought up to date first; for a notification that refreshes
  /// in its value's isolation (``GraphNode/refreshesHere``).
  func refreshedVersion(_ row: DerivedGraphCore.Node, holding node: GraphNode) -> UInt32? {
    locked { graph -> UInt32? in
      guard let held = graph.rows[Int(row)],
        held.toOpaque() == Unmanaged.passUnretained(node).toOpaque()
      else { return nil }
      if graph.core.isStale(row) { graph.refresh(row) }
      return graph.core.version[Int(row)]
    }
  }

  /// Runs `body`, whose writes mark what they reach and run no observer until it returns:
  /// then each watched value they reached is refreshed once, and its observer runs once if
  /// its value changed (a batch, as alien-signals' `startBatch`/`endBatch`). The lock is held
  /// for the whole body: write sources in it, nothing that waits for other threads.
  func batch(_ body: () -> Void) {
    let notify: [Notification] = locked { graph in
      graph.batchDepth += 1
      body()
      graph.batchDepth -= 1
      return graph.batchDepth > 0 ? [] : graph.flush()
    }
    Self.deliver(notify, in: self)
  }

  /// Under the lock: marks what depends on a source that changed, noting the watched values
  /// it reached with their versions.
  private func mark(_ row: DerivedGraphCore.Node) {
    let first = reached.count
    core.write(row, reached: &reached)
    for index in first..<reached.count {
      reachedVersions.append(core.version[Int(reached[index])])
    }
  }

  /// Under the lock: refreshes each watched value reached since the last flush, once, and
  /// returns those whose value moved, for their observers to run after the lock. A value
  /// nobody observes any more (``GraphNode/isObserved``) is unwatched instead; one that must
  /// be computed in another isolation (``GraphNode/refreshesHere``) is returned with the
  /// version the write reached it at, to refresh there.
  private func flush() -> [Notification] {
    defer {
      reached.removeAll(keepingCapacity: true)
      reachedVersions.removeAll(keepingCapacity: true)
    }
    guard !reached.isEmpty else { return [] }
    flushCount &+= 1
    var notify: [Notification] = []
    // By index: a refresh below may mark again (inputs that changed while it ran), which
    // appends to `reached`.
    var index = 0
    while index < reached.count {
      let watched = reached[index]
      let since = reachedVersions[index]
      index += 1
      guard let unmanaged = rows[Int(watched)] else { continue }
      let node = unmanaged.takeUnretainedValue()
      guard node.flushMark != flushCount else { continue }
      node.flushMark = flushCount
      guard node.isObserved else {
        core.setWatched(watched, false)
        continue
      }
      guard node.refreshesHere else {
        notify.append((node, watched, since))
        continue
      }
      // Refreshed now, so that an observer sees a value that changed (and only then runs).
      if core.isStale(watched) { refresh(watched) }
      if core.version[Int(watched)] != since { notify.append((node, watched, nil)) }
      if !marksAfterRefresh.isEmpty { applyMarksAfterRefresh() }
    }
    return notify
  }

  /// Stops the program: `row` is read by its own computation, directly or through others.
  /// The message names the values from `row`'s computation to the read (through
  /// ``GraphNode/displayName``).
  private func reportCycle(_ row: DerivedGraphCore.Node) -> Never {
    let name = { (row: DerivedGraphCore.Node) -> String in
      self.rows[Int(row)]?.takeUnretainedValue().displayName ?? "row \(row)"
    }
    let start = computing.firstIndex(of: row) ?? computing.startIndex
    let names = computing[start...].map(name) + [name(row)]
    GraphCycle.report(names)
  }
}

/// Reports a cycle, naming the values in it as the current engine does.
enum GraphCycle {
  /// Stops the program with the cycle's values, first to last (the first read again).
  static func report(_ names: [String]) -> Never {
    fatalError(
      "ArborealTracking: a derived value depends on itself: \(names.joined(separator: " → "))")
  }
}

/// What a row of a ``DerivedGraph`` holds: a source's or a computed value's storage. The
/// graph owns it (one retain, taken when the row is added and given back when it is removed),
/// so the graph never reaches an object that is going away; the handle a user holds
/// (``GraphSource``, ``GraphComputed``) removes the row when it goes.
@usableFromInline
class GraphNode {
  /// Whether its handle went and its row was removed (under the graph's lock): an observer
  /// whose write began before then does not run.
  @exclusivity(unchecked) final var isRemoved = false
  /// The graph's flush that last considered it (under the graph's lock).
  @exclusivity(unchecked) final var flushMark = 0

  /// Computes the value again, under the graph's lock; returns whether it changed.
  func recompute() -> Bool { false }

  /// Runs the observer, after a write that changed the value (outside the lock). With
  /// `since`, the value was not refreshed by the flush (it computes in another isolation):
  /// it is brought up to date first, and its observer runs if its version is not `since`.
  func notify(in graph: DerivedGraph, row: DerivedGraphCore.Node, since: UInt32?) {}

  /// Takes the value out of the graph when its handle goes (a handle that disposes through
  /// its storage, as `GraphDerivedHandle` does; the stop-2 handles remove their row
  /// themselves).
  func dispose() {}

  /// The value's name, for a cycle's message.
  var displayName: String { "derived value" }

  /// Whether something still observes the watched value (under the graph's lock): a flush
  /// unwatches one that nothing does, rather than computing it.
  var isObserved: Bool { true }

  /// Whether a flush may compute the value on the calling thread (under the graph's lock);
  /// otherwise its notification refreshes it in its own isolation.
  var refreshesHere: Bool { true }
}

/// A source's storage.
private final class SourceNode<Value: Equatable>: GraphNode {
  // Read and written under the graph's lock only.
  @exclusivity(unchecked) var stored: Value
  init(_ value: Value) { stored = value }
}

/// A computed value's storage, its computation and its observer.
///
/// The value lives in a slot of its own, initialised by the first computation: an optional
/// would make the unspecialised code look up `Optional<Value>`'s metadata on every access.
private final class ComputedNode<Value: Equatable>: GraphNode {
  // Read and written under the graph's lock only.
  private let slot = UnsafeMutablePointer<Value>.allocate(capacity: 1)
  @exclusivity(unchecked) private var hasValue = false
  let compute: @Sendable () -> Value
  let observer: (@Sendable (Value) -> Void)?

  init(_ compute: @escaping @Sendable () -> Value, observer: (@Sendable (Value) -> Void)?) {
    self.compute = compute
    self.observer = observer
  }

  deinit {
    if hasValue { slot.deinitialize(count: 1) }
    slot.deallocate()
  }

  /// The value of the last computation; only after one (the graph refreshes before reading).
  var stored: Value {
    precondition(hasValue, "DerivedGraph: a value read before its first computation")
    return slot.pointee
  }

  override func recompute() -> Bool {
    let new = compute()
    guard hasValue else {
      slot.initialize(to: new)
      hasValue = true
      return true
    }
    if slot.pointee == new { return false }
    slot.pointee = new
    return true
  }

  override func notify(in graph: DerivedGraph, row: DerivedGraphCore.Node, since: UInt32?) {
    // Read under the lock (one trip per observer, for now): the value as it is, which a
    // write on another thread may have moved on since.
    // The row may hold another node by now if the handle went meanwhile: reading it then is
    // harmless (it brings that node up to date), and `isRemoved` says not to run.
    guard let observer else { return }
    var isLive = false
    let value = graph.read(row) {
      isLive = !isRemoved
      return stored
    }
    if isLive { observer(value) }
  }
}

/// A value written from outside: the new engine's stand-in for a tracked property.
final class GraphSource<Value: Equatable>: @unchecked Sendable {
  // Invariant (why `@unchecked Sendable` holds): `node` is the graph's row storage, alive
  // while this handle is (the row goes in `deinit`), and its value is read and written only
  // under the graph's lock.
  private let graph: DerivedGraph
  private let row: DerivedGraphCore.Node
  private unowned(unsafe) let node: SourceNode<Value>

  init(_ value: Value, in graph: DerivedGraph) {
    let node = SourceNode(value)
    self.graph = graph
    self.node = node
    row = graph.add(node, computed: false)
  }

  deinit { graph.remove(row) }

  /// The value; reading it inside a computation links the computation to it.
  var value: Value {
    get { graph.read(row) { node.stored } }
    set {
      let node = node
      graph.write(row) {
        guard node.stored != newValue else { return false }
        node.stored = newValue
        return true
      }
    }
  }
}

/// A value computed from others, recomputed only when one it read changed.
final class GraphComputed<Value: Equatable>: @unchecked Sendable {
  // Invariant (why `@unchecked Sendable` holds): as for `GraphSource`.
  private let graph: DerivedGraph
  private let row: DerivedGraphCore.Node
  private unowned(unsafe) let node: ComputedNode<Value>

  /// A computed value; with `observer`, it is watched: each write that changes it runs
  /// `observer` with the new value, once, after the write.
  init(
    in graph: DerivedGraph, observer: (@Sendable (Value) -> Void)? = nil,
    _ compute: @escaping @Sendable () -> Value
  ) {
    let node = ComputedNode(compute, observer: observer)
    self.graph = graph
    self.node = node
    row = graph.add(node, computed: true)
    if observer != nil {
      graph.setWatched(row, true)
      _ = value  // a watched value is kept up to date from the start
    }
  }

  deinit { graph.remove(row) }

  /// The value, brought up to date first; reading it inside a computation links the
  /// computation to it.
  var value: Value { graph.read(row) { node.stored } }
}

/// Work run on a thread of its own with a stack of a given size, the caller waiting for it:
/// what lets a first read of a long chain nest deeper than one stack holds.
///
/// Invariant (why `@unchecked Sendable` holds): `body` runs once, on the new thread, while
/// the thread that made it waits in `runOnFreshStack`; nothing else touches it.
private final class StackHop: @unchecked Sendable {
  let body: () -> Void

  init(_ body: @escaping () -> Void) {
    self.body = body
  }

  /// Runs `body` on a new thread whose stack is `bytes` long, and returns when it is done.
  func runOnFreshStack(bytes: Int) {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, bytes)
    let context = Unmanaged.passRetained(self).toOpaque()
    #if canImport(Darwin)
      var thread: pthread_t?
    #else
      var thread = pthread_t()
    #endif
    let created = pthread_create(
      &thread, &attributes,
      { context in
        let hop = Unmanaged<StackHop>.fromOpaque(context!).takeRetainedValue()
        hop.body()
        return nil
      }, context)
    guard created == 0 else {
      // No thread (resources exhausted): run here, as deep as this stack allows.
      Unmanaged<StackHop>.fromOpaque(context).release()
      body()
      return
    }
    #if canImport(Darwin)
      pthread_join(thread!, nil)
    #else
      pthread_join(thread, nil)
    #endif
  }
}
