#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A value protected by a `pthread_mutex_t`.
///
/// Why not the Synchronization module's `Mutex`: on Linux it parks contended threads on a
/// futex, and ThreadSanitizer does not see that hand-off, so it reports races on every
/// contended lock (reproduced with four threads appending to a `Mutex<[Int]>`). A pthread
/// mutex is intercepted by ThreadSanitizer on every platform, which lets the stress suite run
/// clean and mean something. Uncontended, both cost about the same.
///
/// Invariant (why `@unchecked Sendable` holds): `state` is only read or written inside
/// `withLock`, between `pthread_mutex_lock` and `pthread_mutex_unlock` of `mutex`, which is
/// allocated once and never moves.
final class Locked<State>: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var state: State

  private init(_ state: State) {
    self.state = state
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    let status = pthread_mutex_init(mutex, nil)
    precondition(status == 0, "ArborealTracking: pthread_mutex_init failed (\(status))")
  }

  /// Creates a lock around `state`.
  static func make(_ state: State) -> Locked<State> { Locked(state) }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the state.
  func withLock<R, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&state)
  }
}
