import Foundation

/// Reads a pipe to its end on a thread of its own, keeping what has arrived so far, and lets
/// tests await either some text or the end.
final class PipeReader: Sendable {
  private struct State {
    var data = Data()
    var ended = false
    /// Suspended waits: for `text` to arrive `count` times (nil: for the end).
    var waiters: [(text: Data?, count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Removes and returns the waits that are over.
    mutating func satisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
      var satisfied: [CheckedContinuation<Void, Never>] = []
      let (data, ended) = (data, ended)
      waiters.removeAll { waiter in
        let isOver =
          ended
          || waiter.text.map { Self.occurrences(of: $0, in: data, upTo: waiter.count) }
            == waiter.count
        if isOver { satisfied.append(waiter.continuation) }
        return isOver
      }
      return satisfied
    }

    /// How many times `text` occurs in `data`, without overlaps, counting no further than
    /// `limit`.
    static func occurrences(of text: Data, in data: Data, upTo limit: Int) -> Int {
      var count = 0
      var start = data.startIndex
      while count < limit, let found = data.range(of: text, in: start..<data.endIndex) {
        count += 1
        start = found.upperBound
      }
      return count
    }
  }

  private let state = Guarded(State())

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

  /// Waits until `text` has arrived `count` times (true) or the pipe has ended before (false).
  func wait(for text: String, count: Int = 1) async -> Bool {
    let bytes = Data(text.utf8)
    await wait(for: bytes, count: count)
    return state.withLock { State.occurrences(of: bytes, in: $0.data, upTo: count) == count }
  }

  private func wait(for text: Data?, count: Int = 1) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let satisfied = state.withLock { state in
        state.waiters.append((text, count, continuation))
        return state.satisfiedWaiters()
      }
      for continuation in satisfied { continuation.resume() }
    }
  }
}
