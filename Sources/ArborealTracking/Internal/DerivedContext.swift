import Synchronization

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
    guard let frame = spareFrames.popLast() else {
      return DerivedFrame(node: node, useID: nextUseID())
    }
    frame.node = node
    return frame
  }

  /// Takes back a frame that is off the stack and that its computation is done with.
  @inline(__always)
  func giveBack(_ frame: DerivedFrame) {
    guard spareFrames.count < Self.spareFrameLimit else { return }
    frame.reset(useID: nextUseID())
    spareFrames.append(frame)
  }

  /// The high bits of this thread's ``DerivedFrame/useID``s: a number no other context has
  /// (taken from ``derivedUseBases``), so that a use is named without an atomic operation per
  /// computation; `uses` counts the uses named with it.
  @exclusivity(unchecked) private var useBase = DerivedContext.newUseBase()
  @exclusivity(unchecked) private var uses: UInt64 = 0

  /// A use identifier no computation on any thread had: this context's base and a count. After
  /// 2³² uses the context takes a new base, so identifiers never repeat.
  @inline(__always)
  func nextUseID() -> UInt64 {
    uses &+= 1
    if _slowPath(uses > 0xFFFF_FFFF) {
      useBase = Self.newUseBase()
      uses = 1
    }
    return useBase | uses
  }

  private static func newUseBase() -> UInt64 {
    derivedUseBases.wrappingAdd(1, ordering: .relaxed).newValue &<< 32
  }
  /// Empty stacks for ``DerivedNodeBase/refreshedVersion(of:adopt:)``, with their storage:
  /// each call takes one for its values being checked and gives it back (a call nested in a
  /// recomputation takes another), so that the stack is a local variable while in use (an
  /// element read through the context would retain the array each time) and a warm thread
  /// allocates none.
  @exclusivity(unchecked) private var spareCheckStacks: [[DerivedCheckEntry]] = []

  /// An empty stack of checks, with the storage of an earlier one when there is one.
  @inline(__always)
  func takeCheckStack() -> [DerivedCheckEntry] { spareCheckStacks.popLast() ?? [] }

  /// Takes back a stack from ``takeCheckStack()``, emptied, leaving `checkStack` without
  /// storage.
  @inline(__always)
  func giveBack(checkStack: inout [DerivedCheckEntry]) {
    guard checkStack.capacity <= 4_096, spareCheckStacks.count < 16 else { return }
    checkStack.removeAll(keepingCapacity: true)
    var given: [DerivedCheckEntry] = []
    swap(&given, &checkStack)
    spareCheckStacks.append(given)
  }
  /// The nodes whose last handle went, waiting for ``DerivedNodeBase/disposeIteratively(_:)``.
  @exclusivity(unchecked) var disposals: [Unmanaged<DerivedNodeBase>] = []
  /// Whether ``DerivedNodeBase/disposeIteratively(_:)`` runs on this thread.
  @exclusivity(unchecked) var isDisposing = false
  /// The thread's computations and refreshes on each ``DerivedGraph`` it used (the new
  /// derived engine's, see `GraphThread`).
  @exclusivity(unchecked) var graphThreads: [GraphThread] = []
  /// The state in `graphThreads` that ``GraphThread/current(in:)`` returned last (or a stack
  /// hop installed), reached without a search or a reference count by the graph's hot paths;
  /// nil when it left `graphThreads` (which keeps it alive while it is set).
  @exclusivity(unchecked) var lastGraphThread: Unmanaged<GraphThread>?

  /// Whether a computation of the graph `id` runs on this thread.
  func isComputing(in id: ObjectIdentifier) -> Bool {
    graphThreads.contains { $0.graph == id && !$0.computations.isEmpty }
  }
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
    #if ARBOREAL_NEW_DERIVED
      if batchDepth == 0 { flushGraphIfPending() }
    #endif
  }

  #if ARBOREAL_NEW_DERIVED
    /// The watched rows of the new engine's graph (``DerivedGraph/shared``) that input links
    /// reached during a notification loop or a transaction on this thread, with their
    /// versions then: their values are refreshed, and their observers told, when the loop or
    /// the transaction ends.
    @exclusivity(unchecked) var graphReached: [DerivedGraph.Reached] = []
    /// The new engine's values whose last handle went, queued for disposal (see
    /// `GraphDerivedHandle`).
    @exclusivity(unchecked) var graphDisposals: [Unmanaged<GraphNode>] = []
    /// Whether a loop on this thread disposes `graphDisposals`.
    @exclusivity(unchecked) var isDisposingGraph = false

    /// The property whose write inside a transaction notifies input links now (its registrar
    /// as the write log names it, and its identity), for ``noteMark(input:node:computed:)``;
    /// nil otherwise. Set by the registrar around the notifications.
    @exclusivity(unchecked) var transactionWrite: (registrar: UnsafeMutableRawPointer, id: UInt64)?
    /// The marks of input rows that writes in this thread's transaction made, in order (see
    /// ``DerivedGraph/settle(_:since:)``). Empty outside a transaction.
    @exclusivity(unchecked) private var transactionMarks: [DerivedGraph.TransactionMark] = []
    /// ``DerivedGraph/storedResults`` when the thread's transaction opened: a result stored
    /// no later than that read the properties before the transaction wrote any.
    @exclusivity(unchecked) var transactionSince: UInt64 = 0

    /// Notes that a write of ``transactionWrite`` marked a value's input row.
    func noteMark(
      input: DerivedGraphCore.Node, node: GraphNode, computed: DerivedGraphCore.Node
    ) {
      guard let write = transactionWrite else { return }
      let pointer = UnsafeRawPointer(Unmanaged.passUnretained(node).toOpaque())
      // A property written again in a row (an edit in a loop) adds to the last mark.
      if let last = transactionMarks.last, last.input == input, last.inputNode == pointer,
        last.registrar == write.registrar, last.id == write.id
      {
        transactionMarks[transactionMarks.count - 1].writes &+= 1
        return
      }
      transactionMarks.append(
        DerivedGraph.TransactionMark(
          input: input, inputNode: pointer, computed: computed, registrar: write.registrar,
          id: write.id))
    }

    /// As the transaction of `context` ends, before its write log's span closes: the values
    /// that only properties set back marked are clean again without computing, when their
    /// result is older than the transaction (``DerivedGraph/settle(_:since:)``), so that a
    /// write set back recomputes nothing.
    func settleTransactionMarks(endingIn context: ThreadContext) {
      guard !transactionMarks.isEmpty else { return }
      var marks: [DerivedGraph.TransactionMark] = []
      swap(&marks, &transactionMarks)
      var anyCameBack = false
      for position in marks.indices {
        let cameBack = context.writes.isUnchanged(marks[position].registrar, id: marks[position].id)
        marks[position].cameBack = cameBack
        anyCameBack = anyCameBack || cameBack
      }
      if anyCameBack { DerivedGraph.shared.settle(marks, since: transactionSince) }
      marks.removeAll(keepingCapacity: marks.capacity <= 1_024)
      if transactionMarks.isEmpty { swap(&marks, &transactionMarks) }
    }

    /// Refreshes the graph's observed values that this thread's marks reached, inside one
    /// delivery (each observer runs once, after every refresh).
    func flushGraphIfPending() {
      guard !graphReached.isEmpty, batchDepth == 0 else { return }
      var reached: [DerivedGraph.Reached] = []
      swap(&reached, &graphReached)
      ThreadContext.current.delivering { DerivedGraph.shared.flushAndNotify(&reached) }
      if graphReached.isEmpty { swap(&reached, &graphReached) }
    }
  #endif

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

  /// The frame of the computation that is reading right now on the thread of `thread`, if
  /// the innermost tracking scope there is a derived value's own.
  static func readingFrame(_ thread: ThreadContext) -> DerivedFrame? {
    guard let frame = thread.derived.frames.last else { return nil }
    let scope = thread.scope?.toOpaque()
    return scope != nil && scope == frame.scope ? frame : nil
  }
}
