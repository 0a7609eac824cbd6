import Foundation
import Synchronization

/// Reads a pipe to its end on a thread of its own, keeping what has arrived so far, and lets
/// tests await either some text or the end.
final class PipeReader: Sendable {
  private struct State {
    var data = Data()
    var ended = false
    /// Suspended waits: for `text` to arrive (nil: for the end).
    var waiters: [(text: Data?, continuation: CheckedContinuation<Void, Never>)] = []

    /// Removes and returns the waits that are over.
    mutating func satisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
      var satisfied: [CheckedContinuation<Void, Never>] = []
      waiters.removeAll { waiter in
        let isOver = ended || waiter.text.map { data.range(of: $0) != nil } ?? false
        if isOver { satisfied.append(waiter.continuation) }
        return isOver
      }
      return satisfied
    }
  }

  private let state = Mutex(State())

  init(_ handle: FileHandle) {
    Thread { [self] in
      while true {
        let chunk = handle.availableData
        let satisfied = state.withLock { state in
          if chunk.isEmpty { state.ended = true } else { state.data.append(chunk) }
          return state.satisfiedWaiters()
        }
        for continuation in satisfied { continuation.resume() }
        if chunk.isEmpty { return }
      }
    }.start()
  }

  /// Everything the pipe carried, once it has ended. Bytes that are not UTF-8 become U+FFFD.
  func text() async -> String {
    await wait(for: nil)
    return state.withLock { String(decoding: $0.data, as: UTF8.self) }
  }

  /// Waits until `text` has arrived (true) or the pipe has ended without it (false).
  func wait(for text: String) async -> Bool {
    let bytes = Data(text.utf8)
    await wait(for: bytes)
    return state.withLock { $0.data.range(of: bytes) != nil }
  }

  private func wait(for text: Data?) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let satisfied = state.withLock { state in
        state.waiters.append((text, continuation))
        return state.satisfiedWaiters()
      }
      for continuation in satisfied { continuation.resume() }
    }
  }
}
