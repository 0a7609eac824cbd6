import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The package's one lock: the Synchronization module's `Mutex`, the same code on every
/// platform, made visible to ThreadSanitizer.
///
/// - `Mutex` donates priority to its holder where the platform can (`os_unfair_lock` on
///   Apple platforms, a priority-inheritance futex on Linux), allocates nothing and lives
///   inline in its owner.
/// - ThreadSanitizer intercepts `pthread_mutex_*` but not a futex, so on Linux it does not see
///   `Mutex`'s hand-off and reports a race on every contended lock. The lock therefore tells
///   it: after acquiring, `__tsan_acquire(owner)`; before releasing, `__tsan_release(owner)`,
///   on the address of the object that owns the lock. Those functions exist only in a
///   ThreadSanitizer build; they are looked up once, and without them the lock costs one
///   predictable branch more than `Mutex`.
///
/// Held only around short bookkeeping: never around user code, and never while taking
/// another lock, except an observer's lock while taking a registrar's (see `ObserverCore`).
struct Lock: ~Copyable {
  private let mutex = Mutex(())

  init() {}

  /// Runs `body` while holding the lock.
  ///
  /// - Parameter owner: The object that owns the lock (any stable address unique to it),
  ///   which ThreadSanitizer uses as the synchronisation point.
  @inline(__always)
  func withLock<R, E: Error>(
    owner: UnsafeRawPointer, _ body: () throws(E) -> R
  ) throws(E) -> R {
    try mutex.withLock { (_: inout ()) throws(E) -> R in
      let annotations = ThreadSanitizerAnnotations.shared
      annotations?.acquire(owner)
      defer { annotations?.release(owner) }
      return try body()
    }
  }
}

/// ThreadSanitizer's interface for synchronisation it cannot see, when the process runs
/// with it.
struct ThreadSanitizerAnnotations: Sendable {
  let acquire: @convention(c) (UnsafeRawPointer?) -> Void
  let release: @convention(c) (UnsafeRawPointer?) -> Void

  /// The annotations, or nil outside a ThreadSanitizer build.
  static let shared: ThreadSanitizerAnnotations? = {
    guard let acquire = dlsym(nil, "__tsan_acquire"), let release = dlsym(nil, "__tsan_release")
    else { return nil }
    typealias Annotation = @convention(c) (UnsafeRawPointer?) -> Void
    return ThreadSanitizerAnnotations(
      acquire: unsafeBitCast(acquire, to: Annotation.self),
      release: unsafeBitCast(release, to: Annotation.self))
  }()
}

/// A value protected by a ``Lock``; the lock the package's other modules use too (`package`),
/// so that every lock in the package is the same, ThreadSanitizer-visible one.
///
/// Invariant (why `@unchecked Sendable` holds): `state` is only read or written inside
/// `withLock`, while `lock` is held.
package final class Locked<State>: @unchecked Sendable {
  private let lock = Lock()
  private var state: State

  private init(_ state: State) {
    self.state = state
  }

  /// Creates a lock around `state`.
  package static func make(_ state: State) -> Locked<State> { Locked(state) }

  /// Runs `body` with exclusive access to the state.
  package func withLock<R, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R {
    try lock.withLock(owner: UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())) {
      () throws(E) -> R in try body(&state)
    }
  }
}
