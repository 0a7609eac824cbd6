#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

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
/// Invariant: a context is only touched by the thread that owns it; it lives in a
/// `pthread_key_t` slot of its own, released when the thread exits.
final class DerivedContext {
  @exclusivity(unchecked) var frames: [DerivedFrame] = []

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { pointer in
      #if canImport(Darwin)
        Unmanaged<DerivedContext>.fromOpaque(pointer).release()
      #else
        if let pointer { Unmanaged<DerivedContext>.fromOpaque(pointer).release() }
      #endif
    }
    precondition(status == 0, "ArborealTracking: pthread_key_create failed (\(status))")
    return key
  }()

  /// The calling thread's context, if one was created.
  static var currentIfPresent: DerivedContext? {
    guard let pointer = pthread_getspecific(key) else { return nil }
    return Unmanaged<DerivedContext>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// The calling thread's context, created on first use.
  static var current: DerivedContext {
    if let context = currentIfPresent { return context }
    let context = DerivedContext()
    pthread_setspecific(key, Unmanaged.passRetained(context).toOpaque())
    return context
  }

  /// The frame of the computation that is reading right now, if the innermost tracking scope
  /// on this thread is a derived value's own.
  static var readingFrame: DerivedFrame? {
    guard let context = currentIfPresent, let frame = context.frames.last else { return nil }
    let scope = ThreadContext.currentIfPresent?.scope?.toOpaque()
    return scope != nil && scope == frame.scope ? frame : nil
  }
}
