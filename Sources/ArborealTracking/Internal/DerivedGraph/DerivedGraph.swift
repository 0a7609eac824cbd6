import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The new derived engine's graph with its values and its one lock (issue "A new derived
/// engine", stops 2 to 5): sources and computed values over ``DerivedGraphCore``, safe from
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
/// - Per thread (``GraphThread``, one per thread and graph): the computations running on the
///   thread, innermost last, with what each read so far (row, generation, version); the
///   frames of its refreshes (``DerivedGraphCore/Walk``); the watched rows its writes and
///   computations marked, to refresh and report once its batch ends.
///
/// ## Locking (stop 5): computations run outside the lock
/// One lock per graph, held only around bookkeeping: a clean read of a published value takes
/// none (see the next section), another clean read takes it once, a read that must recompute
/// once per step (what to compute next, and the end of each computation), a
/// write once. No user code runs under it: a computation runs with the lock free, so that it
/// may wait for another thread that reads, writes or disposes derived values (with one graph
/// for the process, that is any derived value), and no thread ever waits for another's
/// computation. Two threads that both need a stale value both compute it, as with the
/// current engine. What keeps reads linearizable is the end of a computation
/// (``commit(_:_:)``), under the lock: a computation notes the write epoch when it begins and
/// the version of each row it reads; its result is stored only if its row still holds the
/// same node and no computation that began at that epoch or later stored one (a later write
/// began after it, so its result may be older); otherwise it is dropped, and the reader
/// reads the newer one. A stored result's links carry the versions it read: if one moved
/// meanwhile, or a source it read is marked again, the value is marked again (`dirty` or
/// `pending`), with what depends on it, so the next read computes it once more. A refresh
/// counts a value stored by a computation that began after the refresh did as up to date
/// for itself, so each refresh computes each value at most once, however busy the writers:
/// its read returns a value at least as new as the read's beginning. Each wait in the
/// engine is for the lock, which no holder keeps while waiting for anything.
///
/// The one exception to "no user code under the lock": a result's comparison with the stored
/// one (`Equatable`'s `==`, or a source's), and the relink of a value's input link, which
/// takes registrars' locks (always in that order: graph, observer, registrar). An `==` must
/// not read derived values or wait for other threads. The replaced result is released after
/// the lock (its `deinit` may do anything).
///
/// ## Clean reads without the lock (stop 7)
/// A row whose node publishes (``GraphNode/publishes``: a `GraphDerivedNode` whose value is
/// plain data of at most two words, such as an `Int`, a `Double` or a small struct of them) is
/// read without the lock and without looking up the thread while it is clean and no tracking
/// scope runs anywhere (the registrars' activity word, which counts every scope; each
/// computation runs in one, so none runs on this thread either, and the read has nothing to
/// link or watch). While a scope runs somewhere, a reader looks up its own thread first
/// (``GraphNode/readPublishedHere(_:)``): it reads without the lock if that thread has no
/// scope and runs no computation of the graph, and, since stop 8, also inside a computation
/// of the graph on that thread, noting the read for the computation's commit as a locked read
/// does (the row, and the generation and version published with the value) unless a
/// computation of the row itself runs somewhere (its own would be a cycle, which the locked
/// path reports). The data:
/// - per node, `publishedStamp` (an `Atomic<UInt64>`): 0 while nothing is published, else a
///   stamp that never repeats (the node's count of publications);
/// - per node, the value's bits in two `Atomic<UInt>` words and the row's generation and
///   version in one `Atomic<UInt64>` (`publishedVersion`), stored only under the lock;
/// - per node, `activeComputations`, the row's computing count, stored under the lock;
/// - in the core, the row's `published` flag, which says that the node's stamp is not 0.
///
/// Publishing (``GraphNode/publish()``, under the lock, when the row is clean and not yet
/// published: in ``finishRead(_:watch:thread:_:)``, and since stop 8 in ``commit(_:_:)`` as the
/// result is stored, so that the computation that reads it next in a refresh takes no lock)
/// stores the version word and the value's words, releasing, then the new stamp, releasing. Every core operation that makes a published row stale (a mark: a write,
/// a commit that found its reads moved, a removed source) or replaces its value (a commit)
/// takes its `published` flag off and lists it (``DerivedGraphCore/unpublished``); before the
/// graph lets go of its lock, it stores 0 in the stamp of each row listed (``locked(_:)``),
/// and a removed row's node is unpublished as it is taken out. A read without the lock loads
/// the stamp (acquiring), the words (acquiring), and the stamp again: it returns the words
/// only if the stamp is the same, and not 0; otherwise it takes the lock (the path above).
///
/// Why it is safe under concurrent writers:
/// - The words a read returns are those of the stamp it loaded twice. A publication's words
///   are stored after the 0 that withdrew the one before (under the lock, in that order, on
///   one thread or across a release and acquire of the lock); loading a word stored by a
///   later publication (acquiring, from a releasing store) makes that 0 visible to the second
///   load of the stamp, which then sees 0 or a newer stamp, never the first one. A torn pair
///   of words is thrown away: the value is plain data, whose copy runs no code.
/// - It is linearizable. A published value is the row's stored value while the row is clean
///   (the core's flags, the same test the locked read makes), from its publication to the
///   store of 0, which happens before the lock is let go by the write (or commit) that made
///   the row stale. A read that returns it overlaps that write or ends before it begins; a
///   read that begins after the write returned, ordered after it by anything, loads the 0 (or
///   a newer stamp, whose words are newer) and takes the lock, which the write has let go.
/// - A read that must watch the row, or record its key in a tracking scope, never takes this
///   path: any tracking scope is counted in the activity word before it reads anything, and is
///   the calling thread's scope while it runs. A read inside a computation (which runs in a
///   counted scope too) takes it only through its thread's state, and notes the read there.
/// - A computation's read without the lock is linked as a locked read is: the generation and
///   version it notes are those the value was published with (loaded between the two loads of
///   the stamp, so they belong to the words returned). If the row moved on before the
///   computation's commit, the commit finds the version it noted old and marks the value again
///   (invariant 5), as for a locked read that a write followed.
///
/// A value that is not plain data (it holds references: a copy retains them, and a replaced
/// value may be freed meanwhile) or larger than two words is read under the lock as before.
///
/// ## Stack hops
/// A first read nests one computation per value; every `stackHop` levels the next ones run
/// on a thread with a fresh stack while the reader waits for it. The new thread works on the
/// reader's ``GraphThread`` (its computations, reads and frames), which it installs in its own
/// context; the reader waits meanwhile, so they never touch it at once. What a computation
/// keeps elsewhere in thread-local storage does not travel with it: `GraphDerivedNode` needs
/// none to (each computation opens and consumes its own tracking scope on the thread it runs
/// on), and its isolation check trusts a hop (``GraphThread/hopDepth``).
///
/// ## Cost
/// Measured in stop 4, before computations moved out of the lock, with a throwaway driver on
/// the deep, broad and diamond shapes (release, CPU time, quiet machine): 57–65 ns per
/// recomputed value on the chain, 104–107 on the broad shape and 79–82 on the diamond (the
/// current engine: 587–2,374; alien-signals: 40.5, 65.1 and 39.0; the core alone: 31–36).
/// Computing outside the lock cost two lock trips and a thread-local lookup per computation
/// more. Since stop 8 a value recomputed by a refresh takes one trip (its commit, which also
/// takes the refresh's next step), its reads of published sources none, and a stale read
/// begins its refresh in the trip that found it stale (measured by `Benchmarks/compare.sh`
/// beside alien-signals).
///
/// ## Invariants
/// 1. The lock is never held while a computation, an observer or a replaced value's `deinit`
///    runs, and never taken by a thread that holds it (no locked body calls back in).
/// 2. `core` and `rows` change only under the lock; `rows[r]` is non-nil exactly while row `r`
///    is live in `core`.
/// 3. `core.computingCount[r]` is the number of computations of row `r` that began and have
///    not ended, on any thread; a computation ends exactly once, in ``commit(_:_:)``.
/// 4. A row's stored result is that of the computation that began last among those that
///    ended on the same node (`core.committedAt`), and the core's version of the row went up
///    exactly when a stored result differed from the one before.
/// 5. After a commit, a clean computed row's sources are clean at the versions its links
///    carry, and its dependents are either marked or saw its current version.
/// 6. Whenever the lock is free, a node's `publishedStamp` is not 0 exactly when its row is
///    live and `published` in the core, which is then clean, and the published words are its
///    stored value and the published version word its row's generation and version.
/// 7. A live row's node's `activeComputations` is `core.computingCount` of the row.
///
/// Invariants 6 and 7 are checked for each row a commit ends under `ARBOREAL_INTERNAL_CHECKS`
/// (``checkRow(_:)``).
final class DerivedGraph: @unchecked Sendable {
  // Invariant (why `@unchecked Sendable` holds): `core`, `rows`, `flushCount` and
  // `settleCount` are read and written only under `lock`; a `GraphThread` is used by its
  // thread only (or by a stack hop while its thread waits).
  private let lock = Lock()
  private let core = DerivedGraphCore()
  @exclusivity(unchecked) private var rows: [Unmanaged<GraphNode>?] = []
  /// Counts flushes, so that a value reached twice in one flush is notified once.
  @exclusivity(unchecked) private var flushCount = 0
  /// Counts ``settle(_:since:)`` calls, which tally each value's marks on its input node.
  @exclusivity(unchecked) private var settleCount = 0
  /// Scratch for the watched rows a write or a commit reaches (under the lock).
  @exclusivity(unchecked) private var scratch: [DerivedGraphCore.Node] = []

  /// An empty graph.
  init() {}

  /// How many cells are live; for tests.
  var cellCount: Int { locked { core.nodeCount } }

  /// How many rows the arena has for nodes and links; for tests (a warm graph's stay put).
  var capacity: (nodes: Int, links: Int) { locked { core.capacity } }

  // MARK: Locking

  /// Runs `body` holding the lock; `body` never calls back into the graph.
  /// Before it lets go, takes back the published values of the rows that `body` marked (see
  /// "Clean reads without the lock").
  @inline(__always)
  private func locked<R>(_ body: () -> R) -> R {
    lock.withLock(owner: UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())) {
      let result = body()
      if core.unpublished.count != 0 { takeBackUnpublished() }
      return result
    }
  }

  /// Under the lock: withdraws the published value of each row the core unpublished (a mark
  /// reached it, or its value is replaced), so that no read without the lock returns it once
  /// the lock is let go.
  private func takeBackUnpublished() {
    for index in 0..<core.unpublished.count {
      rows[Int(core.unpublished[index])]?._withUnsafeGuaranteedRef { $0.unpublish() }
    }
    core.clearUnpublished()
  }

  /// Runs `body` holding the lock: for state a row's storage keeps under the graph's lock.
  /// Never from inside another locked body (the lock is not re-entrant).
  func withLock<R>(_ body: () -> R) -> R {
    locked(body)
  }

  /// The calling thread's state for this graph.
  private var thread: GraphThread { GraphThread.current(in: self) }

  // MARK: Cells

  /// Adds a row holding `node` (retained until the row is removed).
  func add(_ node: GraphNode, computed: Bool) -> DerivedGraphCore.Node {
    locked {
      let row = computed ? core.addComputed() : core.addSource()
      node.graphRow = row
      node.graphID = ObjectIdentifier(self)
      let index = Int(row)
      if index == rows.count {
        rows.append(Unmanaged.passRetained(node))
      } else {
        rows[index] = Unmanaged.passRetained(node)
      }
      return row
    }
  }

  /// Removes a row, and releases its node after the lock (its value's deinit may run user
  /// code).
  func remove(_ row: DerivedGraphCore.Node) {
    let node = locked { take(row) }
    node?.release()
  }

  /// Runs `body` and removes two rows, in one trip under the lock (a computation that ends
  /// afterwards finds both gone, and `body`'s changes made); releases their nodes after it.
  func remove<R>(
    _ first: DerivedGraphCore.Node, _ second: DerivedGraphCore.Node, after body: () -> R
  ) -> R {
    let (result, nodes) = locked { (body(), (take(first), take(second))) }
    nodes.0?.release()
    nodes.1?.release()
    return result
  }

  /// Under the lock: frees `row` and hands back its node's retain.
  private func take(_ row: DerivedGraphCore.Node) -> Unmanaged<GraphNode>? {
    guard let node = rows[Int(row)] else { return nil }
    core.remove(row)
    node.takeUnretainedValue().isRemoved = true
    node.takeUnretainedValue().unpublish()
    rows[Int(row)] = nil
    return node
  }

  func setWatched(_ row: DerivedGraphCore.Node, _ watched: Bool) {
    locked { core.setWatched(row, watched) }
  }

  // MARK: Reading

  /// Brings `row` up to date if it is stale, links it to the computation that reads it, and
  /// returns `read(node)` under the lock.
  func read<R>(_ row: DerivedGraphCore.Node, _ value: () -> R) -> R {
    read(row, holding: nil, watch: false, before: {}, value)
  }

  /// ``read(_:_:)`` that first runs `before` under the lock (a model's value notes its model
  /// there) and, with `watch`, marks the row watched: an observer outside the graph depends on
  /// it, so that a write that reaches it reports it (see ``flush(_:)``). With `node`, a row
  /// that no longer holds it (removed meanwhile) is neither refreshed nor linked: `value` is
  /// read as it is. The watched values that the refresh's computations marked again are
  /// refreshed and reported after the lock.
  func read<R>(
    _ row: DerivedGraphCore.Node, holding node: GraphNode?, watch: Bool, before: () -> Void,
    _ value: () -> R
  ) -> R {
    read(row, holding: node, watch: watch, thread: thread, before: before, value)
  }

  /// ``read(_:holding:watch:before:_:)`` with the calling thread's state at hand
  /// (``GraphThread/unmanagedCurrent(in:)``).
  func read<R>(
    _ row: DerivedGraphCore.Node, holding node: GraphNode?, watch: Bool, thread: GraphThread,
    before: () -> Void, _ value: () -> R
  ) -> R {
    var result: R?
    // With the stale check, in the same trip: the refresh begins and takes its first step.
    var depth = 0
    var first: Unmanaged<GraphNode>?
    let stale = locked { () -> Bool in
      before()
      guard holds(row, node) else {
        result = value()
        return false
      }
      if core.computingCount[Int(row)] > 0, thread.isComputing(row) { reportCycle(row, thread) }
      if core.isStale(row) {
        depth = thread.computations.count
        core.beginRefresh(row, in: thread.walk)
        first = step(thread)
        return true
      }
      result = finishRead(row, watch: watch, thread: thread, value)
      return false
    }
    if stale {
      // Every `stackHop` nested computations, the next ones run on a fresh stack: a first
      // read of a long chain nests one computation per value (its sources are not known
      // until it runs), which no fixed stack holds.
      if depth > 0, depth % Self.stackHop == 0 {
        refreshOnFreshStack(from: first, thread)
      } else {
        refresh(from: first, thread)
      }
      result = locked {
        holds(row, node) ? finishRead(row, watch: watch, thread: thread, value) : value()
      }
    }
    if thread.computations.isEmpty, !thread.reached.isEmpty, thread.batchDepth == 0 {
      deliver(flush(thread), thread)
    }
    return result.unsafelyUnwrapped
  }

  /// Under the lock: links `row` (up to date, or computed for this read) to the computation
  /// that reads it, or watches it for a reader outside the graph, and reads it.
  /// A clean row whose node can publish its value and has not yet is published here (see
  /// "Clean reads without the lock").
  @inline(__always)
  private func finishRead<R>(
    _ row: DerivedGraphCore.Node, watch: Bool, thread: GraphThread, _ value: () -> R
  ) -> R {
    if thread.computations.isEmpty {
      if watch { core.setWatched(row, true) }
    } else {
      thread.reads.append(
        GraphThread.Read(
          row: row, generation: core.generation[Int(row)], version: core.version[Int(row)]))
    }
    publishIfClean(row)
    return value()
  }

  /// Under the lock: publishes the value of `row` for reads that take no lock, if its node
  /// publishes (``GraphNode/publishes``), it is clean and not published yet.
  @inline(__always)
  private func publishIfClean(_ row: DerivedGraphCore.Node) {
    guard let node = rows[Int(row)], node._withUnsafeGuaranteedRef({ $0.publishes }),
      !core.isPublished(row), !core.isStale(row)
    else { return }
    let versions = UInt64(core.generation[Int(row)]) << 32 | UInt64(core.version[Int(row)])
    node._withUnsafeGuaranteedRef { node in
      // Before the stamp that `publish` stores (releasing): see `GraphNode.readPublishedHere`.
      node.publishedVersion.store(versions, ordering: .releasing)
      node.publish()
    }
    core.setPublished(row)
  }

  /// Under the lock: whether `row` holds `node` (or any node, without one).
  @inline(__always)
  private func holds(_ row: DerivedGraphCore.Node, _ node: GraphNode?) -> Bool {
    guard let node else { return true }
    guard let held = rows[Int(row)] else { return false }
    return held.toOpaque() == Unmanaged.passUnretained(node).toOpaque()
  }

  /// Computes what the core asks, innermost first, until `row` is up to date for this read;
  /// each step under the lock, each computation outside it.
  private func refresh(_ row: DerivedGraphCore.Node, _ thread: GraphThread) {
    let first = locked { () -> Unmanaged<GraphNode>? in
      core.beginRefresh(row, in: thread.walk)
      return step(thread)
    }
    refresh(from: first, thread)
  }

  /// Runs the computations of the refresh on top of `thread`'s walk, from `first` (begun by
  /// ``step(_:)``; nil when the refresh is done). Each computation's commit takes the next
  /// step in the same trip under the lock (``GraphThread/nextStep``).
  private func refresh(from first: Unmanaged<GraphNode>?, _ thread: GraphThread) {
    var next = first
    while let node = next {
      // Retained by `begin`: a handle released meanwhile on another thread removes the row,
      // and the node lives until its computation has ended.
      node._withUnsafeGuaranteedRef { $0.recompute(in: self, thread: thread) }
      node.release()
      next = thread.nextStep
      thread.nextStep = nil
    }
  }

  /// Under the lock: the next step of the refresh on top of `thread`'s walk: the node to
  /// compute next, its computation begun (retained, see ``begin(_:_:)``), or nil when the
  /// refresh is done. Stops the program on a cycle.
  private func step(_ thread: GraphThread) -> Unmanaged<GraphNode>? {
    switch core.nextStep(in: thread.walk) {
    case .compute(let node):
      if core.computingCount[Int(node)] > 0, thread.isComputing(node) {
        reportCycle(node, thread)
      }
      return begin(node, thread)
    case .done:
      return nil
    case .cycle(let node):
      reportCycle(node, thread)
    }
  }

  /// Under the lock: starts a computation of `row` on `thread` (see ``commit(_:_:)``) and
  /// returns its node, retained.
  private func begin(
    _ row: DerivedGraphCore.Node, _ thread: GraphThread
  ) -> Unmanaged<GraphNode> {
    let index = Int(row)
    let node = rows[index]!
    core.computingCount[index] += 1
    let count = core.computingCount[index]
    let inputRow = node._withUnsafeGuaranteedRef { node in
      node.activeComputations.store(count, ordering: .relaxed)
      return node.inputRow
    }
    thread.computations.append(
      GraphThread.Computation(
        row: row, generation: core.generation[index], epoch: core.epoch,
        firstRead: thread.reads.count, inputRow: inputRow))
    if inputRow != DerivedGraphCore.none {
      // Read first: every computation of a value links to its input row.
      thread.reads.append(
        GraphThread.Read(
          row: inputRow, generation: core.generation[Int(inputRow)],
          version: core.version[Int(inputRow)]))
    }
    return node.retain()
  }

  /// How a computation ends (``commit(_:_:)``), for the node to store its result or not.
  enum CommitOutcome {
    /// The result is the row's value now.
    case stored
    /// A computation that began later stored its result first: this one is dropped.
    case superseded
    /// The row was removed while it ran: its reader still reads the result from the node.
    case removed
  }

  /// Ends the innermost computation of `thread`, under the lock: `store` is told whether to
  /// store the result (see "Locking") and returns whether the value changed and whether the
  /// tracked properties it read changed before its input link was relinked to them. A stored
  /// result's links are made from what the computation read, at the versions it read; the
  /// value is marked again if one of them moved or is marked, and its clean dependents if it
  /// changed. The watched rows that reaches are noted on `thread`, to refresh and report once
  /// its outermost read ends.
  ///
  /// In the same trip, takes the next step of the refresh that runs the computation
  /// (``GraphThread/nextStep``).
  func commit(
    _ thread: GraphThread, _ store: (CommitOutcome) -> (changed: Bool, inputsMoved: Bool)
  ) {
    locked {
      let row = end(thread, store)
      checkRow(row)
      // The refresh that runs this computation goes on from here, in this trip.
      thread.nextStep = step(thread)
    }
  }

  #if ARBOREAL_INTERNAL_CHECKS
    /// Under the lock, once the rows a body unpublished were taken back: asserts invariants 6
    /// and 7 for `row` (built with `-DARBOREAL_INTERNAL_CHECKS`).
    @inline(never)
    private func checkRow(_ row: DerivedGraphCore.Node) {
      guard row != DerivedGraphCore.none, let node = rows[Int(row)]?.takeUnretainedValue()
      else { return }
      let index = Int(row)
      precondition(
        node.activeComputations.load(ordering: .relaxed) == core.computingCount[index],
        "DerivedGraph: a node's computing count differs from its row's")
      let stamp = node.publishedStamp.load(ordering: .relaxed)
      precondition(
        (stamp != 0) == core.isPublished(row),
        "DerivedGraph: a published stamp without the row's published flag, or the reverse")
      guard stamp != 0 else { return }
      precondition(!core.isStale(row), "DerivedGraph: a stale row is published")
      precondition(
        node.publishedVersion.load(ordering: .relaxed)
          == UInt64(core.generation[index]) << 32 | UInt64(core.version[index]),
        "DerivedGraph: a published version that is not the row's")
    }
  #else
    /// Does nothing: the invariants are asserted when built with `-DARBOREAL_INTERNAL_CHECKS`.
    @inline(__always)
    private func checkRow(_ row: DerivedGraphCore.Node) {}
  #endif

  /// Under the lock: ``commit(_:_:)`` without its next step. Returns the computation's row.
  private func end(
    _ thread: GraphThread, _ store: (CommitOutcome) -> (changed: Bool, inputsMoved: Bool)
  ) -> DerivedGraphCore.Node {
    do {
      let computation = thread.computations.removeLast()
      defer { thread.reads.truncate(to: computation.firstRead) }
      let row = computation.row
      let index = Int(row)
      guard core.isLive(row, generation: computation.generation) else {
        _ = store(.removed)
        return row
      }
      core.computingCount[index] -= 1
      let count = core.computingCount[index]
      rows[index].unsafelyUnwrapped._withUnsafeGuaranteedRef {
        $0.activeComputations.store(count, ordering: .relaxed)
      }
      guard computation.epoch > core.committedAt[index] else {
        _ = store(.superseded)
        return row
      }
      // A row computed on two threads may have been published meanwhile by a reader of the
      // first result: its published value is taken back before this lock is let go.
      core.unpublish(row)
      let (changed, inputsMoved) = store(.stored)
      // Only lock holders write it: a load and a store, no read-modify-write.
      let stored = Self.storedResults.load(ordering: .relaxed) &+ 1
      Self.storedResults.store(stored, ordering: .releasing)
      rows[index].unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.storedAt = stored }
      var stale = false
      core.beginCompute(row)
      for position in computation.firstRead..<thread.reads.count {
        let read = thread.reads[position]
        guard core.isLive(read.row, generation: read.generation) else {
          stale = true  // what it read is gone
          continue
        }
        core.track(read.row, by: row, seen: read.version)
      }
      core.endCompute(row, changed: changed)
      core.committedAt[index] = computation.epoch
      if !scratch.isEmpty { scratch.removeAll(keepingCapacity: true) }
      if inputsMoved, computation.inputRow != DerivedGraphCore.none {
        // A property it read changed before the input link followed it: a write of the input
        // row, which marks the value through the link just made.
        core.write(computation.inputRow, reached: &scratch)
      }
      let how = stale ? DerivedGraphCore.Flags.dirty : core.staleness(of: row)
      if !how.isEmpty { core.markStale(row, how, reached: &scratch) }
      if changed { core.markDependents(of: row, reached: &scratch) }
      for watched in scratch { thread.reached.append((watched, core.version[Int(watched)])) }
      // Published as it is stored, if it ended clean: the computation that reads it next (the
      // next step of a refresh) reads it without the lock. The values taken back go first, so
      // that their stores of 0 come before this publication (this row may be among them).
      if core.unpublished.count != 0 { takeBackUnpublished() }
      publishIfClean(row)
      return row
    }
  }

  /// Counts the results stored by the graphs' computations (``commit(_:_:)``, under a
  /// graph's lock), each of which notes its count in ``GraphNode/storedAt``. A transaction
  /// loads it as it opens (`DerivedContext.heldSince`): a result stored no later than that
  /// load read its properties before the transaction wrote any (the store releases, the load
  /// acquires). Global, so that loading it costs no lazy initialisation.
  static let storedResults = Atomic<UInt64>(0)

  /// ``storedResults`` now (acquiring: the results it counts were stored before).
  static var storedResultsNow: UInt64 { storedResults.load(ordering: .acquiring) }

  /// How many computations nest on one stack before the next ones move to a fresh one.
  static let stackHop = 256

  /// The stack each hop gets: far more than `stackHop` nested computations need in a debug
  /// build (each nests a few frames of this file and the computation's own).
  private static let hopStackBytes = 64 << 20

  /// ``refresh(_:_:)`` on a thread of its own with a large stack, this thread waiting for it.
  /// The new thread works on this thread's `GraphThread` (installed in its context while it
  /// runs). Creating and joining the thread order its memory with this one's.
  private func refreshOnFreshStack(from first: Unmanaged<GraphNode>?, _ thread: GraphThread) {
    thread.hopDepth += 1
    defer { thread.hopDepth -= 1 }
    let job = StackHop {
      GraphThread.install(thread)
      self.refresh(from: first, thread)
      GraphThread.uninstall(thread)
    }
    job.runOnFreshStack(bytes: Self.hopStackBytes)
  }

  // MARK: Writing

  /// Stores a source's new value (`store`, under the lock, returns whether it changed), marks
  /// what depends on it, and runs the observers of the watched values it reached whose value
  /// changed, once each, after the lock (after the batch, in one).
  fileprivate func write(_ row: DerivedGraphCore.Node, _ store: () -> Bool) {
    let thread = self.thread
    locked {
      guard store() else { return }
      mark(row, into: thread)
    }
    if thread.batchDepth == 0, thread.computations.isEmpty { deliver(flush(thread), thread) }
  }

  /// Under the lock: marks what depends on a source that changed, noting the watched values
  /// it reached with their versions on `thread`.
  private func mark(_ row: DerivedGraphCore.Node, into thread: GraphThread) {
    if !scratch.isEmpty { scratch.removeAll(keepingCapacity: true) }
    core.write(row, reached: &scratch)
    for watched in scratch { thread.reached.append((watched, core.version[Int(watched)])) }
  }

  /// Marks what depends on the source `row` when it still holds `node` (a row removed
  /// meanwhile, perhaps reused, is left alone), without refreshing or notifying anything:
  /// the watched values it reaches are appended to `reached` with their versions, which the
  /// calling thread keeps until its notification loop or transaction ends and then hands to
  /// ``flushAndNotify(_:)`` (a computed value's input row, see `GraphDerivedNode`). Kept by
  /// the thread, not the graph: another thread's flush must not refresh, in the middle of
  /// this thread's transaction, what this thread's writes reached.
  ///
  /// Returns whether it marked (the row still held `node`).
  @discardableResult
  func markSource(
    _ row: DerivedGraphCore.Node, holding node: GraphNode, reached: inout [Reached]
  ) -> Bool {
    locked {
      guard holds(row, node) else { return false }
      if !scratch.isEmpty { scratch.removeAll(keepingCapacity: true) }
      core.write(row, reached: &scratch)
      for watched in scratch { reached.append((watched, core.version[Int(watched)])) }
      return true
    }
  }

  /// A mark of a computed value's input row made by a write inside a transaction
  /// (``markSource(_:holding:reached:)``), kept by the writing thread until the transaction
  /// ends: the rows, and whether the property written ended the transaction as it began.
  struct TransactionMark {
    let input: DerivedGraphCore.Node
    /// The input row's node when marked, compared, never dereferenced (it may be gone).
    let inputNode: UnsafeRawPointer
    let computed: DerivedGraphCore.Node
    /// The property written, as the thread's write log names it.
    let registrar: UnsafeMutableRawPointer
    let id: UInt64
    /// How many writes in a row of that property it stands for (each marked the row once).
    var writes: UInt32 = 1
    var cameBack = false
  }

  /// As a transaction ends: the marks whose properties all came back (`cameBack`) leave their
  /// value clean again, without computing, when its stored result was stored no later than
  /// `since` (``storedResults`` when the transaction opened: it read the properties as they
  /// are again) and those marks are the only writes of its input row since it read it
  /// (``DerivedGraphCore/settle(_:source:writes:)``). One trip under the lock. The rows a mark
  /// names are checked to still hold its input node (the value's computed row goes in the
  /// same trip as its input row).
  func settle(_ marks: [TransactionMark], since: UInt64) {
    locked {
      settleCount &+= 1
      let mark = settleCount
      for entry in marks {
        guard let input = node(at: entry.input, holding: entry.inputNode) else { continue }
        if input.settleMark != mark {
          input.settleMark = mark
          input.settleWrites = 0
          input.settleAll = true
        }
        input.settleWrites &+= entry.writes
        if !entry.cameBack { input.settleAll = false }
      }
      for entry in marks {
        guard let input = node(at: entry.input, holding: entry.inputNode),
          input.settleMark == mark, input.settleAll
        else { continue }
        input.settleAll = false  // once per value
        let index = Int(entry.computed)
        guard let value = rows[index], value.takeUnretainedValue().storedAt <= since,
          core.computingCount[index] == 0
        else { continue }
        core.settle(entry.computed, source: entry.input, writes: input.settleWrites)
      }
    }
  }

  /// Under the lock: the node of `row` if it is the one at `pointer`.
  private func node(at row: DerivedGraphCore.Node, holding pointer: UnsafeRawPointer)
    -> GraphNode?
  {
    guard let held = rows[Int(row)], UnsafeRawPointer(held.toOpaque()) == pointer else {
      return nil
    }
    return held.takeUnretainedValue()
  }

  /// A watched row a write reached, with its version then.
  typealias Reached = (row: DerivedGraphCore.Node, version: UInt32)

  /// Refreshes the watched values in `reached` (and any this thread's computations marked),
  /// and runs their notifications after the lock (see ``flush(_:)``); empties `reached`.
  /// Inside a batch or a computation, they wait for its end.
  func flushAndNotify(_ reached: inout [Reached]) {
    let thread = self.thread
    thread.reached.append(contentsOf: reached)
    reached.removeAll(keepingCapacity: reached.capacity <= 4_096)
    guard thread.batchDepth == 0, thread.computations.isEmpty else { return }
    deliver(flush(thread), thread)
  }

  /// A watched value to notify after a flush: `since` is nil when the flush refreshed it and
  /// its version moved, or the version a write reached it at when it must be refreshed in its
  /// own isolation first (``GraphNode/refreshesHere``).
  typealias Notification = (node: GraphNode, row: DerivedGraphCore.Node, since: UInt32?)

  /// Runs the notifications of a flush, after the lock, in order, and gives their buffer back
  /// to `thread` for its next flush (a warm write allocates none).
  private func deliver(_ notify: consuming [Notification], _ thread: GraphThread) {
    var notify = notify
    for (node, row, since) in notify { node.notify(in: self, row: row, since: since) }
    notify.removeAll(keepingCapacity: true)
    // A flush inside an observer took the spare buffer and gave its own back: keep the larger.
    if notify.capacity > thread.spareNotifications.capacity {
      thread.spareNotifications = notify
    }
  }

  /// The version of `row` now, brought up to date first; for a notification that refreshes
  /// in its value's isolation (``GraphNode/refreshesHere``).
  func refreshedVersion(_ row: DerivedGraphCore.Node, holding node: GraphNode) -> UInt32? {
    let thread = self.thread
    let stale = locked { holds(row, node) && core.isStale(row) }
    if stale { refresh(row, thread) }
    let version = locked { holds(row, node) ? core.version[Int(row)] : nil }
    if thread.computations.isEmpty, !thread.reached.isEmpty, thread.batchDepth == 0 {
      deliver(flush(thread), thread)
    }
    return version
  }

  /// Runs `body`, whose writes mark what they reach and run no observer until it returns:
  /// then each watched value they reached is refreshed once, and its observer runs once if
  /// its value changed (a batch, as alien-signals' `startBatch`/`endBatch`). Per thread: the
  /// lock is not held across `body`.
  func batch(_ body: () -> Void) {
    let thread = self.thread
    thread.batchDepth += 1
    body()
    thread.batchDepth -= 1
    guard thread.batchDepth == 0, thread.computations.isEmpty else { return }
    deliver(flush(thread), thread)
  }

  /// What a flush does with a watched row it reached.
  private enum FlushStep {
    case skip
    case refresh(GraphNode, generation: UInt32)
    case notify(GraphNode)
  }

  /// Refreshes each watched value that `thread`'s writes and computations reached, once, and
  /// returns those whose value moved, for their observers to run after it. A value nobody
  /// observes any more (``GraphNode/isObserved``) is unwatched instead; one that must be
  /// computed in another isolation (``GraphNode/refreshesHere``) is returned with the version
  /// the write reached it at, to refresh there. Outside the lock: each row is looked at under
  /// it, and refreshed outside it.
  private func flush(_ thread: GraphThread) -> [Notification] {
    // The thread's spare buffers, taken (a flush inside an observer finds none, and makes
    // its own), and given back emptied: a warm write allocates no buffer.
    var notify: [Notification] = []
    swap(&notify, &thread.spareNotifications)
    let mark = locked { () -> Int in
      flushCount &+= 1
      return flushCount
    }
    var reached: [Reached] = []
    swap(&reached, &thread.spareReached)
    // A refresh below may mark again (inputs that changed while it ran), which appends to
    // `thread.reached`.
    while !thread.reached.isEmpty {
      swap(&reached, &thread.reached)
      for (row, since) in reached {
        let step = locked { () -> FlushStep in
          guard let unmanaged = rows[Int(row)] else { return .skip }
          let node = unmanaged.takeUnretainedValue()
          guard node.flushMark != mark else { return .skip }
          node.flushMark = mark
          guard node.isObserved else {
            core.setWatched(row, false)
            return .skip
          }
          guard node.refreshesHere else { return .notify(node) }
          return .refresh(node, generation: core.generation[Int(row)])
        }
        switch step {
        case .skip:
          continue
        case .notify(let node):
          notify.append((node, row, since))
        case .refresh(let node, let generation):
          // Refreshed now, so that an observer sees a value that changed (and only then runs).
          let stale = locked { core.isLive(row, generation: generation) && core.isStale(row) }
          if stale { refresh(row, thread) }
          let moved = locked {
            core.isLive(row, generation: generation) && core.version[Int(row)] != since
          }
          if moved { notify.append((node, row, nil)) }
        }
      }
      reached.removeAll(keepingCapacity: true)
    }
    // The two buffers take turns as `thread.reached`: the next writes append to the one this
    // flush did not empty last, which keeps its capacity.
    thread.spareReached = reached
    return notify
  }

  /// Stops the program: `row` is read by its own computation, directly or through others.
  /// The message names the values from `row`'s computation to the read (through
  /// ``GraphNode/displayName``). Under the lock.
  private func reportCycle(_ row: DerivedGraphCore.Node, _ thread: GraphThread) -> Never {
    let name = { (row: DerivedGraphCore.Node) -> String in
      self.rows[Int(row)]?.takeUnretainedValue().displayName ?? "row \(row)"
    }
    let computing = thread.computations.map(\.row)
    let start = computing.firstIndex(of: row) ?? computing.startIndex
    let names = computing[start...].map(name) + [name(row)]
    GraphCycle.report(names)
  }
}

/// A thread's computations and refreshes on one ``DerivedGraph``, kept in the thread's
/// ``DerivedContext``.
///
/// ## Data
/// - `computations`: the computations running on the thread, innermost last, each with the
///   row, its generation and the write epoch when it began; `reads` holds what each read so
///   far, from its `firstRead` on (a nested computation's reads are above its reader's, and
///   taken off when it ends).
/// - `walk`: the frames of the thread's refreshes; `nextStep`, the step a commit took for the
///   refresh whose computation it ended, which that refresh takes at once.
/// - `reached`: watched rows its writes and computations marked, with their versions, to
///   refresh and report when its outermost read, write or batch ends; `spareReached` and
///   `spareNotifications`, emptied buffers a flush reuses.
///
/// Invariant: used only by its thread, or by a stack hop while its thread waits for it
/// (`install`). `reads` is empty when `computations` is.
final class GraphThread {
  struct Computation {
    let row: DerivedGraphCore.Node
    let generation: UInt32
    let epoch: UInt64
    let firstRead: Int
    /// The value's input row (``GraphNode/inputRow``), read first; `none` for other cells.
    let inputRow: DerivedGraphCore.Node
  }

  struct Read {
    let row: DerivedGraphCore.Node
    let generation: UInt32
    let version: UInt32
  }

  /// The graph it is for.
  let graph: ObjectIdentifier
  @exclusivity(unchecked) var computations: [Computation] = []
  @exclusivity(unchecked) var reads = ReadStack()
  let walk = DerivedGraphCore.Walk()
  @exclusivity(unchecked) var reached: [DerivedGraph.Reached] = []
  /// Empty buffers with capacity that a flush reuses (for `reached`, and for the
  /// notifications it returns), so that a warm write allocates no array.
  @exclusivity(unchecked) var spareReached: [DerivedGraph.Reached] = []
  @exclusivity(unchecked) var spareNotifications: [DerivedGraph.Notification] = []
  /// How many `batch` calls are open on the thread.
  @exclusivity(unchecked) var batchDepth = 0
  /// How many stack hops are under way for the thread's computations. While it is above 0
  /// and a computation runs, the calling thread runs computations on a stack hop
  /// (`DerivedGraph.refreshOnFreshStack(from:_:)`): it stands in for the thread that waits for
  /// it, whose isolation its computations keep (that thread is blocked meanwhile, so they run
  /// exclusively), though an isolation check that looks at the thread cannot tell.
  @exclusivity(unchecked) var hopDepth = 0
  /// The step a commit took for the refresh whose computation it ended (see
  /// `DerivedGraph.refresh(from:_:)`), which that refresh takes at once.
  @exclusivity(unchecked) var nextStep: Unmanaged<GraphNode>?

  init(graph: ObjectIdentifier) {
    self.graph = graph
  }

  deinit { reads.deallocate() }

  /// The reads of a thread's computations, in storage of its own: a computation's reads are
  /// appended and, as it ends, cut off at once, without an array's uniqueness checks or a
  /// generic range removal. `Read` is plain data, so nothing is deinitialised.
  struct ReadStack {
    private var base = UnsafeMutablePointer<Read>.allocate(capacity: 16)
    private var capacity = 16
    /// How many reads it holds.
    private(set) var count = 0

    /// The read at `position` (below `count`).
    subscript(position: Int) -> Read {
      precondition(position >= 0 && position < count, "GraphThread: a read out of range")
      return base[position]
    }

    /// Adds `read` on top.
    mutating func append(_ read: Read) {
      if count == capacity { grow() }
      (base + count).initialize(to: read)
      count &+= 1
    }

    /// Keeps the first `newCount` reads.
    mutating func truncate(to newCount: Int) {
      precondition(newCount >= 0 && newCount <= count, "GraphThread: a cut out of range")
      count = newCount
    }

    private mutating func grow() {
      let larger = UnsafeMutablePointer<Read>.allocate(capacity: capacity * 2)
      larger.moveInitialize(from: base, count: count)
      base.deallocate()
      base = larger
      capacity *= 2
    }

    /// Frees the storage (its thread's state goes).
    func deallocate() { base.deallocate() }
  }

  /// Whether it holds no work in progress.
  var isIdle: Bool {
    computations.isEmpty && reached.isEmpty && batchDepth == 0 && hopDepth == 0
  }

  /// Whether `row` is computed on this thread now (reading it again is a cycle).
  func isComputing(_ row: DerivedGraphCore.Node) -> Bool {
    computations.contains { $0.row == row }
  }

  /// The calling thread's state for `graph`, made on first use. A context keeps the states
  /// of the graphs it used; idle ones of other graphs are dropped past a few (a test makes
  /// graphs of its own).
  ///
  /// The state it returned last is cached on the context (`lastGraphThread`): a lookup of the
  /// same graph again costs the thread-local load and a comparison.
  static func current(in graph: DerivedGraph) -> GraphThread {
    unmanagedCurrent(in: graph).takeUnretainedValue()
  }

  /// ``current(in:)``, unmanaged: the thread's context keeps it alive while the thread uses it
  /// (a caller that calls it through `_withUnsafeGuaranteedRef` counts no reference).
  static func unmanagedCurrent(in graph: DerivedGraph) -> Unmanaged<GraphThread> {
    let id = ObjectIdentifier(graph)
    return ThreadContext.unmanagedCurrentOrNew._withUnsafeGuaranteedRef { context in
      let derived = context.derived
      if let last = derived.lastGraphThread,
        last._withUnsafeGuaranteedRef({ $0.graph == id })
      {
        return last
      }
      return Unmanaged.passUnretained(find(id, in: derived))
    }
  }

  /// ``current(in:)`` when the cached state is another graph's: searches, or makes one.
  @inline(never)
  private static func find(_ id: ObjectIdentifier, in context: DerivedContext) -> GraphThread {
    for thread in context.graphThreads where thread.graph == id {
      context.lastGraphThread = Unmanaged.passUnretained(thread)
      return thread
    }
    if context.graphThreads.count >= 8 {
      context.lastGraphThread = nil
      context.graphThreads.removeAll { $0.isIdle }
    }
    let thread = GraphThread(graph: id)
    context.graphThreads.append(thread)
    context.lastGraphThread = Unmanaged.passUnretained(thread)
    return thread
  }

  /// Makes `thread` the calling thread's state for its graph (a stack hop's, while the
  /// thread that owns it waits).
  static func install(_ thread: GraphThread) {
    let context = DerivedContext.current
    context.lastGraphThread = nil
    context.graphThreads.removeAll { $0.graph == thread.graph }
    context.graphThreads.append(thread)
    context.lastGraphThread = Unmanaged.passUnretained(thread)
  }

  /// Undoes ``install(_:)``.
  static func uninstall(_ thread: GraphThread) {
    let context = DerivedContext.current
    context.lastGraphThread = nil
    context.graphThreads.removeAll { $0 === thread }
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
  /// Whether its subclass publishes its value for reads that take no lock
  /// (``publish()``); fixed at `init`.
  final let publishes: Bool
  /// The stamp of its published value (see ``DerivedGraph``, "Clean reads without the
  /// lock"): 0 while nothing is published, else the count of the ``publish()`` that
  /// published it, which never repeats. Stored under the graph's lock; loaded without it.
  @usableFromInline final let publishedStamp = Atomic<UInt64>(0)
  /// How many times ``publish()`` ran (under the graph's lock).
  @exclusivity(unchecked) final var publishCount: UInt64 = 0
  /// The published value's bits (see ``DerivedGraph``, "Clean reads without the lock"): the
  /// first word, and the second for a value longer than one. Stored under the graph's lock,
  /// releasing, by ``publish()``.
  @usableFromInline final let publishedLow = Atomic<UInt>(0)
  @usableFromInline final let publishedHigh = Atomic<UInt>(0)
  /// The row's generation (high half) and version (low half) when its value was published,
  /// stored under the lock before the stamp: what a computation that reads the published value
  /// links to (``readPublishedHere(_:)``).
  final let publishedVersion = Atomic<UInt64>(0)
  /// A mirror of the core's `computingCount` of its row (stored under the lock, relaxed): a
  /// computation of it on this thread stored a count above 0 before it ran, so a read of the
  /// row from inside that computation (a cycle) never takes ``readPublishedHere(_:)``'s path.
  final let activeComputations = Atomic<Int32>(0)
  /// Its row and its graph, set once by ``DerivedGraph/add(_:computed:)`` before the node is
  /// shared (then only read).
  @exclusivity(unchecked) final var graphRow = DerivedGraphCore.none
  @exclusivity(unchecked) final var graphID: ObjectIdentifier?

  /// A node; with `publishes`, its subclass overrides ``publish()``.
  init(publishes: Bool = false) {
    self.publishes = publishes
  }

  /// Under the graph's lock, for a clean row not yet published: stores the value where reads
  /// without the lock find it, then a new stamp (``publishedStamp``). Only called when
  /// ``publishes``.
  func publish() {}

  /// Under the graph's lock: withdraws the published value, if any (its row was marked, its
  /// value is replaced, or it was removed). A read without the lock that loaded the old stamp
  /// finds it changed when it checks again, and takes the lock.
  final func unpublish() {
    // Relaxed: the next `publish` stores its value releasing, after this store under the lock,
    // so a read that loads the new value also loads this 0 or a later stamp when it checks.
    publishedStamp.store(0, ordering: .relaxed)
  }

  /// A clean read of its published value without the graph's lock, from any thread (see
  /// ``DerivedGraph``, "Clean reads without the lock"), while a tracking scope runs somewhere:
  /// looks the calling thread up. Inside a computation of the graph on this thread, the read
  /// is noted for that computation (the row, and the generation and version published with the
  /// value), as a read under the lock notes it, and its commit links to it; on a thread with
  /// no tracking scope and no computation, the value is returned as it is. Returns false when
  /// the read must take the lock: the thread tracks outside a computation (the value's key is
  /// recorded and its row watched), nothing is published, a computation of the row runs
  /// somewhere, or the value changed while it was read. Stores the bits in `words`.
  @usableFromInline
  final func readPublishedHere(_ words: inout (UInt, UInt)) -> Bool {
    guard let context = ThreadContext.unmanagedCurrent else { return loadPublished(&words) }
    return context._withUnsafeGuaranteedRef { context -> Bool in
      if let thread = context.derived.lastGraphThread {
        let computing = thread._withUnsafeGuaranteedRef { thread -> Bool? in
          guard thread.graph == graphID, !thread.computations.isEmpty else { return nil }
          return readPublished(into: &words, for: thread)
        }
        if let computing { return computing }
      }
      guard context.scope == nil else { return false }
      if context.derived.lastGraphThread == nil {
        // No state for any graph here: certainly no computation.
        return loadPublished(&words)
      }
      // A computation of another graph, or of this one under a state not cached: the lock.
      guard let id = graphID, !context.derived.isComputing(in: id) else { return false }
      return loadPublished(&words)
    }
  }

  /// Loads the published value's bits: stamp, words, stamp. Returns false if nothing is
  /// published or the stamp moved.
  @inline(__always)
  private func loadPublished(_ words: inout (UInt, UInt)) -> Bool {
    let stamp = publishedStamp.load(ordering: .acquiring)
    guard stamp != 0 else { return false }
    words = (publishedLow.load(ordering: .acquiring), publishedHigh.load(ordering: .acquiring))
    return publishedStamp.load(ordering: .relaxed) == stamp
  }

  /// ``loadPublished(_:)`` for a computation on `thread`: also loads the generation and
  /// version published with the value, checks that no computation of the row runs (its own
  /// would be a cycle, which the lock reports), and notes the read on `thread`.
  @inline(__always)
  private func readPublished(into words: inout (UInt, UInt), for thread: GraphThread) -> Bool {
    let stamp = publishedStamp.load(ordering: .acquiring)
    guard stamp != 0 else { return false }
    words = (publishedLow.load(ordering: .acquiring), publishedHigh.load(ordering: .acquiring))
    let versions = publishedVersion.load(ordering: .acquiring)
    guard activeComputations.load(ordering: .relaxed) == 0,
      publishedStamp.load(ordering: .relaxed) == stamp
    else { return false }
    thread.reads.append(
      GraphThread.Read(
        row: graphRow, generation: UInt32(truncatingIfNeeded: versions &>> 32),
        version: UInt32(truncatingIfNeeded: versions)))
    return true
  }

  /// Whether its handle went and its row was removed (under the graph's lock): an observer
  /// whose write began before then does not run.
  @exclusivity(unchecked) final var isRemoved = false
  /// The graph's flush that last considered it (under the graph's lock).
  @exclusivity(unchecked) final var flushMark = 0
  /// ``DerivedGraph/storedResults`` when its stored result was stored (under the graph's
  /// lock); 0 before the first.
  @exclusivity(unchecked) final var storedAt: UInt64 = 0
  /// An input row's tally in ``DerivedGraph/settle(_:since:)`` (under the graph's lock): the
  /// call that made it, how many of its marks the transaction made, and whether all of them
  /// came back.
  @exclusivity(unchecked) final var settleMark = 0
  @exclusivity(unchecked) final var settleWrites: UInt32 = 0
  @exclusivity(unchecked) final var settleAll = false

  /// Computes the value again, outside the graph's lock, and ends the computation with
  /// ``DerivedGraph/commit(_:_:)``, which says whether to store the result.
  func recompute(in graph: DerivedGraph, thread: GraphThread) {}

  /// The row of the value's input (a source every computation of it reads first), or `none`.
  var inputRow: DerivedGraphCore.Node { DerivedGraphCore.none }

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
  // Read and written under the graph's lock only; `compute` runs outside it.
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

  override func recompute(in graph: DerivedGraph, thread: GraphThread) {
    let new = compute()
    withUnsafeTemporaryAllocation(of: Value.self, capacity: 1) { replaced in
      var didReplace = false
      graph.commit(thread) { outcome in
        if case .superseded = outcome { return (false, false) }
        guard hasValue else {
          slot.initialize(to: new)
          hasValue = true
          return (true, false)
        }
        if slot.pointee == new { return (false, false) }
        // The replaced value goes after the lock.
        replaced.baseAddress.unsafelyUnwrapped.moveInitialize(from: slot, count: 1)
        slot.initialize(to: new)
        didReplace = true
        return (true, false)
      }
      if didReplace { replaced.baseAddress.unsafelyUnwrapped.deinitialize(count: 1) }
    }
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
