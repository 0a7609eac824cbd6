import Foundation

/// How many example programs may run at once: a started program holds a slot until it exits.
///
/// Started all at once, two dozen programs (each an AddressSanitizer binary under
/// `--sanitize=address`) compete for the CPU with the other suites' effects, and push
/// `TestStore` waits towards their timeout. Two at a time keeps the machine's cores for the
/// work the tests measure. Waiting for a slot suspends; it holds no thread.
final class ProcessSlots: Sendable {
  static let examples = ProcessSlots(count: 2)

  private struct State {
    var free: Int
    var waiting: [CheckedContinuation<Void, Never>] = []
  }

  private let state: Guarded<State>

  init(count: Int) {
    state = Guarded(State(free: count))
  }

  /// Waits for a free slot and takes it.
  func take() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let isFree = state.withLock { state in
        guard state.free > 0 else {
          state.waiting.append(continuation)
          return false
        }
        state.free -= 1
        return true
      }
      if isFree { continuation.resume() }
    }
  }

  /// Gives a slot back, to the longest waiter if there is one.
  func give() {
    let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
      if state.waiting.isEmpty {
        state.free += 1
        return nil
      }
      return state.waiting.removeFirst()
    }
    next?.resume()
  }
}
