import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The new derived engine's graph with its values and its one lock (issue "A new derived
/// engine", stop 2): sources and computed values over ``DerivedGraphCore``, safe from any
/// thread. Not yet wired to `Derived` or to registrars: its cells are its own sources
/// (``GraphSource``); the stop that wires it makes a tracked property a source.
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
/// thread-local storage does not travel with it: the stop that wires the graph to `Derived`
/// and the registrars must carry their thread slots (the tracking scope) over a hop.
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

  // MARK: Cells

  /// Adds a row holding `node` (retained until the row is removed).
  fileprivate func add(_ node: GraphNode, computed: Bool) -> DerivedGraphCore.Node {
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
  fileprivate func remove(_ row: DerivedGraphCore.Node) {
    let node = locked { graph in
      graph.core.remove(row)
      defer { graph.rows[Int(row)] = nil }
      graph.rows[Int(row)]?.takeUnretainedValue().isRemoved = true
      return graph.rows[Int(row)]
    }
    node?.release()
  }

  fileprivate func setWatched(_ row: DerivedGraphCore.Node, _ watched: Bool) {
    locked { $0.core.setWatched(row, watched) }
  }

  // MARK: Reading

  /// Brings `row` up to date if it is stale, links it to the computation that reads it, and
  /// returns `read(node)` under the lock.
  func read<R>(_ row: DerivedGraphCore.Node, _ value: () -> R) -> R {
    locked { graph in
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
      if let reader = graph.computing.last, !graph.core.track(row, by: reader) {
        GraphCycle.report(row)
      }
      return value()
    }
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
        GraphCycle.report(node)
        return
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
    let notify: [(node: GraphNode, row: DerivedGraphCore.Node)] = locked { graph in
      guard store() else { return [] }
      graph.mark(row)
      return graph.batchDepth > 0 ? [] : graph.flush()
    }
    for (node, row) in notify { node.notify(in: self, row: row) }
  }

  /// Runs `body`, whose writes mark what they reach and run no observer until it returns:
  /// then each watched value they reached is refreshed once, and its observer runs once if
  /// its value changed (a batch, as alien-signals' `startBatch`/`endBatch`). The lock is held
  /// for the whole body: write sources in it, nothing that waits for other threads.
  func batch(_ body: () -> Void) {
    let notify: [(node: GraphNode, row: DerivedGraphCore.Node)] = locked { graph in
      graph.batchDepth += 1
      body()
      graph.batchDepth -= 1
      return graph.batchDepth > 0 ? [] : graph.flush()
    }
    for (node, row) in notify { node.notify(in: self, row: row) }
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
  /// returns those whose value moved, for their observers to run after the lock.
  private func flush() -> [(node: GraphNode, row: DerivedGraphCore.Node)] {
    defer {
      reached.removeAll(keepingCapacity: true)
      reachedVersions.removeAll(keepingCapacity: true)
    }
    guard !reached.isEmpty else { return [] }
    flushCount &+= 1
    var notify: [(node: GraphNode, row: DerivedGraphCore.Node)] = []
    for (index, watched) in reached.enumerated() {
      guard let unmanaged = rows[Int(watched)] else { continue }
      let node = unmanaged.takeUnretainedValue()
      guard node.flushMark != flushCount else { continue }
      node.flushMark = flushCount
      // Refreshed now, so that an observer sees a value that changed (and only then runs).
      if core.isStale(watched) { refresh(watched) }
      if core.version[Int(watched)] != reachedVersions[index] { notify.append((node, watched)) }
    }
    return notify
  }
}

/// Reports a cycle; the engine's stop that wires `Derived` names the values, as today.
enum GraphCycle {
  static func report(_ row: DerivedGraphCore.Node) {
    preconditionFailure("DerivedGraph: a value reads itself (row \(row))")
  }
}

/// What a row of a ``DerivedGraph`` holds: a source's or a computed value's storage. The
/// graph owns it (one retain, taken when the row is added and given back when it is removed),
/// so the graph never reaches an object that is going away; the handle a user holds
/// (``GraphSource``, ``GraphComputed``) removes the row when it goes.
class GraphNode {
  /// Whether its handle went and its row was removed (under the graph's lock): an observer
  /// whose write began before then does not run.
  @exclusivity(unchecked) final var isRemoved = false
  /// The graph's flush that last considered it (under the graph's lock).
  @exclusivity(unchecked) final var flushMark = 0

  /// Computes the value again, under the graph's lock; returns whether it changed.
  func recompute() -> Bool { false }

  /// Runs the observer, after a write that changed the value (outside the lock).
  func notify(in graph: DerivedGraph, row: DerivedGraphCore.Node) {}
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

  override func notify(in graph: DerivedGraph, row: DerivedGraphCore.Node) {
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
