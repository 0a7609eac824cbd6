import Synchronization

@testable import ArborealTracking

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A latch: `wait()` suspends until `open()` is called (at any time, before or after).
///
/// Effects in the tests wait on gates instead of sleeping, so every ordering is forced by the
/// test, never left to timing.
final class Gate: Sendable {
  private struct State {
    var isOpen = false
    var nextID = 0
    var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
  }

  private let state = Locked.make(State())

  init() {}

  var isOpen: Bool { state.withLock { $0.isOpen } }

  /// Opens the gate, releasing every waiter.
  func open() {
    let waiters = state.withLock { state in
      state.isOpen = true
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Waits until the gate opens, ignoring cancellation.
  func wait() async {
    while true {
      do {
        try await waitOrCancel(cancellable: false)
        return
      } catch {
        continue
      }
    }
  }

  /// Waits until the gate opens; throws `CancellationError` as soon as the task is cancelled.
  func waitCancellably() async throws {
    try await waitOrCancel(cancellable: true)
  }

  private func waitOrCancel(cancellable: Bool) async throws {
    let id = state.withLock { state -> Int in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let resumeNow = state.withLock { state -> Bool in
          if state.isOpen { return true }
          if cancellable && Task.isCancelled { return true }
          state.waiters[id] = continuation
          return false
        }
        if resumeNow {
          if state.withLock({ $0.isOpen }) {
            continuation.resume()
          } else {
            continuation.resume(throwing: CancellationError())
          }
        }
      }
    } onCancel: {
      guard cancellable else { return }
      let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
      waiter?.resume(throwing: CancellationError())
    }
  }
}

/// The identity of the calling thread.
func currentThread() -> UInt {
  #if canImport(Darwin)
    return UInt(bitPattern: pthread_self())
  #else
    return UInt(pthread_self())
  #endif
}

/// Whether the calling code runs on the main actor, asked of the concurrency runtime.
///
/// Not a thread's identity: on Linux the main actor is not tied to one thread (under
/// `swift test` its jobs run on whichever thread drains the main queue, which changes when
/// other tests keep the dispatch threads busy), so two main-actor jobs may run on two threads.
func isOnMainActor() -> Bool { Platform.isOnMainActor }
