import Testing

@testable import ArborealDevtools

/// The recorder's writer bookkeeping, without threads: one writer at a time, waiters resumed
/// only when everything before them is written, the file closed once.
@Suite struct RecorderStateTests {
  typealias State = RecorderState<Int, String>

  @Test func theFirstItemStartsAWriterAndLaterOnesJoinIt() {
    var state = State()
    #expect(state.enqueue(1) == .startWriter)
    #expect(state.enqueue(2) == .none)
    guard case .write(let batch) = state.next() else {
      Issue.record("expected a batch")
      return
    }
    #expect(batch == [1, 2])
    #expect(state.enqueue(3) == .none, "the writer is still running: it takes this one")
    guard case .write(let second) = state.next() else {
      Issue.record("expected a batch")
      return
    }
    #expect(second == [3])
    guard case .stop(let resume, let closeFile) = state.next() else {
      Issue.record("expected the writer to stop")
      return
    }
    #expect(resume.isEmpty && !closeFile)
    #expect(state.enqueue(4) == .startWriter, "the writer stopped: a new one starts")
  }

  @Test func aWaiterIsResumedWhenTheWriterStops() {
    var state = State()
    let idle = state.wait("idle")
    #expect(!idle, "nothing to write: resume at once")
    _ = state.enqueue(1)
    let a = state.wait("a")
    #expect(a)
    _ = state.next()
    let b = state.wait("b")
    #expect(b, "the writer is still writing the batch")
    guard case .stop(let resume, _) = state.next() else {
      Issue.record("expected the writer to stop")
      return
    }
    #expect(resume == ["a", "b"])
    let c = state.wait("c")
    #expect(!c)
  }

  @Test func closingDropsLaterItemsAndClosesTheFileOnce() {
    var state = State()
    _ = state.enqueue(1)
    #expect(state.close() == .none, "the running writer closes the file")
    #expect(state.enqueue(2) == .none)
    guard case .write(let batch) = state.next() else {
      Issue.record("expected a batch")
      return
    }
    #expect(batch == [1])
    guard case .stop(_, let closeFile) = state.next() else {
      Issue.record("expected the writer to stop")
      return
    }
    #expect(closeFile)
    #expect(state.close() == .none)
    #expect(state.enqueue(3) == .none)
    #expect(state.pending.isEmpty)
  }

  @Test func closingAnIdleRecorderStartsAWriterToCloseTheFile() {
    var state = State()
    #expect(state.close() == .startWriter)
    guard case .stop(_, let closeFile) = state.next() else {
      Issue.record("expected the writer to stop")
      return
    }
    #expect(closeFile)
    guard case .stop(_, let again) = state.next() else {
      Issue.record("expected the writer to stop")
      return
    }
    #expect(!again, "closed once")
  }
}
