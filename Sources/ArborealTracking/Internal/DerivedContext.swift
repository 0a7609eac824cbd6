import Synchronization

/// One derived value being computed on the calling thread.
///
/// - `node`: the value being computed; the computing call keeps it alive while the frame is
///   on the stack.
/// - `scope`: the tracking scope installed for the computation (an `AccessScope`, by
///   address). A derived value read while this scope is the innermost one is read by the
///   computation itself, and becomes an edge of the graph instead of a registrar read; a read
///   made inside a nested scope (an observer that the computation's own write woke) is an
///   ordinary tracked read.
/// - `reads`: the derived values the computation read, with the version it saw of each, in
///   first-read order; a value read again is not recorded again (see
///   ``DerivedNodeBase/lastReader``).
/// - `runs`, `records`, `sources`, `stamps`: the record of sources the computation builds
///   (see ``DerivedNodeBase``), swapped with the node's when it stores its result; afterwards
///   they hold the node's old record, which ``DerivedContext/giveBack(_:)`` empties.
///
/// Frames are reused: a recomputation takes one from its thread's context
/// (``DerivedContext/takeFrame(for:)``) and gives it back when it is done, which keeps the
/// arrays' capacity, so a steady-state recomputation allocates none of them.
///
/// Invariant: a frame is used only by the thread whose context holds it (the dynamic
/// exclusivity checks are off for that reason).
final class DerivedFrame {
  unowned(unsafe) var node: DerivedNodeBase
  @exclusivity(unchecked) var scope: UnsafeMutableRawPointer?
  @exclusivity(unchecked) var reads: [DerivedRead] = []
  @exclusivity(unchecked) var runs: [DerivedSourceRun] = []
  @exclusivity(unchecked) var records: [AccessRecord] = []
  @exclusivity(unchecked) var sources: [DerivedSourceEdge] = []
  @exclusivity(unchecked) var stamps: [DerivedStamp] = []
  /// Whether `stamps` is a derived source's own array, shared rather than merged (see
  /// ``recordSources(of:)``): emptied in place, it would be copied first.
  @exclusivity(unchecked) var sharesStamps = false
  /// The frame's own storage for stamps, kept aside while `stamps` shares a source's array,
  /// so that the frame does not come back from a sharing computation without storage.
  @exclusivity(unchecked) private var ownStamps: [DerivedStamp] = []
  /// The position in `stamps` of each registrar's stamp, by registrar, for the stamps
  /// `stampIndex.count` first (built when there are many; emptied with the frame).
  @exclusivity(unchecked) private var stampIndex: [ObjectIdentifier: Int] = [:]
  /// Names this use of the frame, a computation, in its sources' ``DerivedNodeBase/lastReader``;
  /// new for every use, never reused.
  @exclusivity(unchecked) private(set) var useID: UInt64

  init(node: DerivedNodeBase) {
    self.node = node
    useID = derivedSerials.wrappingAdd(1, ordering: .relaxed).newValue
  }

  /// Builds the record of sources from the tracked reads of `scope` and from `reads`.
  ///
  /// A tracked property's stamp is the epoch its read saw. A derived source's stamps are the
  /// ones it holds now, which are those of the version read only while that is still its
  /// version: once it has moved (recomputed from a later write), they are the later write's,
  /// and would vouch for a result computed before it.
  ///
  /// - Returns: Whether every derived source still has the version the computation read;
  ///   when not, the result must not be stored as clean.
  func recordSources(of scope: AccessScope) -> Bool {
    for run in scope.runs {
      let start = records.count
      let read = scope.records(of: run)
      records.append(contentsOf: read)
      runs.append(DerivedSourceRun(core: run.core, range: start..<records.count))
      for record in read { stamp(run.core, record.epoch) }
    }
    var current = true
    for read in reads {
      sources.append(
        DerivedSourceEdge(node: read.node, serial: read.node.serial, version: read.version))
      read.node.withState { state in
        guard state.version == read.version else {
          current = false
          return
        }
        // The only source of a computation that read no tracked property, with many stamps
        // (a value that splits one gathered from many models): its array is shared, copy on
        // write, instead of merged stamp by stamp through the index; a check that finds the
        // source unchanged shares the source's array again
        // (`DerivedNodeBase.finishCheck`).
        if reads.count == 1 && stamps.isEmpty && state.stamps.count > Self.stampScanLimit {
          if !sharesStamps { swap(&stamps, &ownStamps) }
          stamps = state.stamps
          sharesStamps = true
          return
        }
        sharesStamps = false
        for inner in state.stamps { stamp(inner.core, inner.epoch) }
      }
    }
    return current
  }

  /// Adds `dependent` to the dependents of each value in `reads` that `sources`, the record
  /// the computation replaced, does not name. Sources read in the same order as before (the
  /// usual case) are compared in one pass, without a set.
  func addEdges(to dependent: DerivedNodeBase) {
    var previous: Set<UInt64>?
    for (index, read) in reads.enumerated() {
      let serial = read.node.serial
      if previous == nil {
        if index < sources.count && sources[index].serial == serial { continue }
        previous = Set(sources.lazy.map(\.serial))
      }
      if previous.unsafelyUnwrapped.contains(serial) { continue }
      read.node.addDependent(dependent)
    }
  }

  /// Keeps the earliest epoch seen of `core`: O(1) expected, a scan of a few stamps or, once
  /// there are many (a total over thousands of models), a look in `stampIndex`.
  private func stamp(_ core: RegistrarCore, _ epoch: UInt64) {
    if let last = stamps.indices.last, stamps[last].core === core {
      stamps[last].epoch = min(stamps[last].epoch, epoch)
      return
    }
    let position: Int?
    if stamps.count <= Self.stampScanLimit {
      position = stamps.firstIndex { $0.core === core }
    } else {
      if stampIndex.count != stamps.count {
        for index in stampIndex.count..<stamps.count {
          stampIndex[ObjectIdentifier(stamps[index].core)] = index
        }
      }
      position = stampIndex[ObjectIdentifier(core)]
    }
    if let position {
      stamps[position].epoch = min(stamps[position].epoch, epoch)
    } else {
      stamps.append(DerivedStamp(core: core, epoch: epoch))
    }
  }

  /// Past this many stamps, they are found through `stampIndex` instead of a scan.
  private static let stampScanLimit = 16

  /// Gives the node the record built here and takes its old one. Called under the node's
  /// lock.
  ///
  /// Lists that are empty on both sides stay where they are: swapped, the frame's storage
  /// would move into a node that never fills it (a value that reads no tracked property) and
  /// the frame would come back without, to allocate again at the next value that does.
  func swapSources(with state: inout DerivedNodeBase.State) {
    if !(runs.isEmpty && state.runs.isEmpty) {
      swap(&runs, &state.runs)
      swap(&records, &state.records)
    }
    if !(sources.isEmpty && state.derivedSources.isEmpty) {
      swap(&sources, &state.derivedSources)
    }
    if !(stamps.isEmpty && state.stamps.isEmpty) {
      swap(&stamps, &state.stamps)
      swap(&sharesStamps, &state.sharesStamps)
    }
  }

  /// Empties the frame for its next use, keeping its arrays' storage unless it grew large.
  func reset() {
    scope = nil
    reads.removeAllKeepingStorage()
    runs.removeAllKeepingStorage()
    sources.removeAllKeepingStorage()
    if sharesStamps {
      // A shared array, not the frame's: drop it and take the frame's own storage back.
      stamps = []
      swap(&stamps, &ownStamps)
      stamps.removeAllKeepingStorage()
      sharesStamps = false
    } else {
      stamps.removeAllKeepingStorage()
    }
    if !stampIndex.isEmpty { stampIndex.removeAll(keepingCapacity: stampIndex.count <= 4_096) }
    if records.count > 4_096 { records = [] } else { records.removeAllKeepingStorage() }
    useID = derivedSerials.wrappingAdd(1, ordering: .relaxed).newValue
  }

}

/// A derived value read by a computation, and the version of it the computation saw.
struct DerivedRead {
  let node: DerivedNodeBase
  let version: UInt64
}

/// The derived values being computed on one thread, innermost last: how a derived value
/// learns which computation reads it, and how a cycle is found (a value that is already on
/// its thread's stack is being read by its own computation).
///
/// Invariant: a context is only touched by the thread that owns it; it is the thread's
/// ``ThreadContext``'s, and lives and dies with it.
///
/// ## Deferred refreshes
/// One write may notify many input links, one by one (a registrar's notification loop, or a
/// transaction's delivery). Were each observed value brought up to date as its first input
/// link fired, it would recompute values whose own links have not fired yet, and recompute
/// them again when they do. So a notification loop counts itself in `batchDepth`, and while it
/// is positive, marking a value (``DerivedNodeBase/inputsMayHaveChanged()``) only marks the
/// graph and queues the observed values in `pendingRefreshes`; the outermost loop brings them
/// up to date once it has notified everyone, when the whole graph is marked.
final class DerivedContext {
  @exclusivity(unchecked) var frames: [DerivedFrame] = []
  /// Frames given back, to be taken again: at most `spareFrameLimit`, as many as the deepest
  /// nesting of recomputations on this thread needs (a chain of values recomputes each inside
  /// the next one's computation).
  @exclusivity(unchecked) private var spareFrames: [DerivedFrame] = []
  private static let spareFrameLimit = 1_024

  /// A frame for a recomputation of `node`, with no scope and no reads.
  @inline(__always)
  func takeFrame(for node: DerivedNodeBase) -> DerivedFrame {
    guard let frame = spareFrames.popLast() else { return DerivedFrame(node: node) }
    frame.node = node
    return frame
  }

  /// Takes back a frame that is off the stack and that its computation is done with.
  @inline(__always)
  func giveBack(_ frame: DerivedFrame) {
    guard spareFrames.count < Self.spareFrameLimit else { return }
    frame.reset()
    spareFrames.append(frame)
  }
  /// The values being checked by ``DerivedNodeBase/refreshedVersion(of:adopt:)`` on this
  /// thread, innermost last; each call works above the entries it found.
  @exclusivity(unchecked) var checks: [DerivedCheckEntry] = []
  /// The nodes whose last handle went, waiting for ``DerivedNodeBase/disposeIteratively(_:)``.
  @exclusivity(unchecked) var disposals: [Unmanaged<DerivedNodeBase>] = []
  /// Whether ``DerivedNodeBase/disposeIteratively(_:)`` runs on this thread.
  @exclusivity(unchecked) var isDisposing = false
  /// How many notification loops run on this thread (see "Deferred refreshes").
  @exclusivity(unchecked) var batchDepth = 0
  /// The observed derived values to bring up to date when the outermost loop ends.
  @exclusivity(unchecked) var pendingRefreshes: [DerivedNodeBase] = []
  /// The storage `refreshPending()` swaps with `pendingRefreshes`, kept empty between uses so
  /// that a write through a graph allocates neither.
  @exclusivity(unchecked) private var refreshing: [DerivedNodeBase] = []
  /// Storage for ``DerivedNodeBase/markDependents()``'s list of values to visit and of
  /// observed values marked, kept empty between uses; a nested marking (from a refresh the
  /// marking runs) finds them taken and uses its own.
  @exclusivity(unchecked) var spareVisitList: [DerivedNodeBase] = []
  /// See `spareVisitList`.
  @exclusivity(unchecked) var spareObservedList: [DerivedNodeBase] = []

  /// Runs a notification loop, then brings up to date the observed derived values it marked.
  @inline(__always)
  func notifying(_ body: () -> Void) {
    batchDepth += 1
    body()
    batchDepth -= 1
    if batchDepth == 0 && !pendingRefreshes.isEmpty { refreshPending() }
  }

  /// Brings the queued values up to date, first marked first, including those that their
  /// refreshes queue.
  @inline(never)
  private func refreshPending() {
    ThreadContext.current.delivering { refreshQueued() }
  }

  /// The loop of `refreshPending()`.
  private func refreshQueued() {
    while !pendingRefreshes.isEmpty {
      // Taken out before any refresh runs: a refresh may queue more (a nested loop).
      var nodes: [DerivedNodeBase] = []
      swap(&nodes, &refreshing)
      swap(&nodes, &pendingRefreshes)
      // A value is queued when a notification marks it, which it does once until the value
      // is refreshed: one queued twice was read in between, and its second refresh finds it
      // clean at the cost of a cached read. No set is needed to skip it.
      for node in nodes { node.refreshInItsIsolation() }
      nodes.removeAll(keepingCapacity: nodes.capacity <= 1_024)
      swap(&nodes, &refreshing)
    }
  }

  /// The calling thread's context, if the thread has a ``ThreadContext``.
  static var currentIfPresent: DerivedContext? { ThreadContext.currentIfPresent?.derived }

  /// The calling thread's context, created on first use.
  static var current: DerivedContext { ThreadContext.current.derived }

  /// The frame of the computation that is reading right now, if the innermost tracking scope
  /// on this thread is a derived value's own.
  static var readingFrame: DerivedFrame? {
    guard let context = ThreadContext.currentIfPresent,
      let frame = context.derived.frames.last
    else { return nil }
    let scope = context.scope?.toOpaque()
    return scope != nil && scope == frame.scope ? frame : nil
  }
}
