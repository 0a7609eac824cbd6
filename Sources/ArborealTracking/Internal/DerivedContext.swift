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
final class DerivedFrame {
  unowned(unsafe) let node: DerivedNodeBase
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
final class DerivedContext {
  @exclusivity(unchecked) var frames: [DerivedFrame] = []

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
