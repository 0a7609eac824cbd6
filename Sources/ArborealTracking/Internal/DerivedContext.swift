/// One derived value being computed on the calling thread.
///
/// - `node`: the value being computed; the computing call keeps it alive while the frame is
///   on the stack.
/// - `scope`: the tracking scope installed for the computation (an `AccessScope`, by
///   address). A derived value read while this scope is the innermost one is read by the
///   computation itself, and becomes an edge of the graph instead of a registrar read; a read
///   made inside a nested scope (an observer that the computation's own write woke) is an
///   ordinary tracked read.
/// - `reads`: the derived values the computation read, with the version it saw of each.
///
/// Frames are reused: a recomputation takes one from its thread's context
/// (``DerivedContext/takeFrame(for:)``) and gives it back when it has read `reads`
/// (``DerivedContext/giveBack(_:)``), which keeps the `reads` buffer's capacity, so a
/// steady-state recomputation allocates neither.
final class DerivedFrame {
  unowned(unsafe) var node: DerivedNodeBase
  var scope: UnsafeMutableRawPointer?
  var reads: [DerivedRead] = []

  init(node: DerivedNodeBase) {
    self.node = node
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
/// One write may notify many input observers, one by one (a registrar's notification loop, or
/// a transaction's delivery). Were each observed value brought up to date as its first input
/// observer fired, it would recompute values whose own input observers have not fired yet;
/// each such recomputation then cancels an observer still waiting in the write's list, and
/// the registrar looks for it among the observers registered since: O(*n*²) for a diamond of
/// *n* values. So a notification loop counts itself in `batchDepth`, and while it is
/// positive, ``DerivedNodeBase/inputsChanged(generation:)`` only marks the graph and queues
/// the observed values in `pendingRefreshes`; the outermost loop brings them up to date once
/// it has notified everyone, when the whole graph is marked.
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

  /// Takes back a frame that is off the stack and whose reads were consumed.
  @inline(__always)
  func giveBack(_ frame: DerivedFrame) {
    guard spareFrames.count < Self.spareFrameLimit else { return }
    frame.scope = nil
    frame.reads.removeAll(keepingCapacity: true)
    spareFrames.append(frame)
  }
  /// How many notification loops run on this thread (see "Deferred refreshes").
  @exclusivity(unchecked) var batchDepth = 0
  /// The observed derived values to bring up to date when the outermost loop ends.
  @exclusivity(unchecked) var pendingRefreshes: [DerivedNodeBase] = []

  /// Runs a notification loop, then brings up to date the observed derived values it marked.
  @inline(__always)
  func notifying(_ body: () -> Void) {
    batchDepth += 1
    body()
    batchDepth -= 1
    if batchDepth == 0 && !pendingRefreshes.isEmpty { refreshPending() }
  }

  /// Brings the queued values up to date, each once, first marked first, including those that
  /// their refreshes queue.
  @inline(never)
  private func refreshPending() {
    while !pendingRefreshes.isEmpty {
      var nodes: [DerivedNodeBase] = []
      swap(&nodes, &pendingRefreshes)
      var seen = Set<ObjectIdentifier>()
      for node in nodes where nodes.count == 1 || seen.insert(ObjectIdentifier(node)).inserted {
        node.delivery.perform { _ = node.refreshVersion() }
      }
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
