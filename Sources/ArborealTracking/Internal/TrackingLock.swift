import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The lock inside every registrar and observer: no allocation, held only around short
/// bookkeeping (never around user code, never while taking another lock).
///
/// - On Apple platforms it is the Synchronization module's `Mutex` (an `os_unfair_lock`),
///   which ThreadSanitizer understands and which donates priority to its holder.
/// - On Linux it is a test-and-test-and-set lock on an `Atomic`: `Mutex` there parks contended
///   threads on a priority-inheritance futex whose hand-off ThreadSanitizer cannot see (it then
///   reports a race on every contended lock), whereas atomic acquire/release is visible to it.
///   A waiter spins briefly, then yields its time slice, so a preempted holder gets to run.
struct TrackingLock: ~Copyable {
  #if canImport(Darwin)
    private let mutex = Mutex(())
  #else
    private let word = Atomic<UInt32>(0)
  #endif

  init() {}

  /// Runs `body` while holding the lock.
  @inline(__always)
  func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    #if canImport(Darwin)
      return try mutex.withLock { (_: inout ()) throws(E) -> R in try body() }
    #else
      if !word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
        lockSlowly()
      }
      defer { word.store(0, ordering: .releasing) }
      return try body()
    #endif
  }

  #if !canImport(Darwin)
    @inline(never)
    private func lockSlowly() {
      var attempts = 0
      while true {
        if word.load(ordering: .relaxed) == 0,
          word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
        {
          return
        }
        attempts += 1
        if attempts > 100 { sched_yield() }
      }
    }
  #endif
}
