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
    guard case .write(let batch, _) = state.next() else {
      Issue.record("expected a batch")
      return
    }
    #expect(batch == [1, 2])
    #expect(state.enqueue(3) == .none, "the writer is still running: it takes this one")
    guard case .write(let second, _) = state.next() else {
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

  @Test func aBatchGivenBackIsTheStorageOfTheNextButOne() {
    var state = State(limit: 100)
    _ = state.enqueue(1)
    for item in 2...50 { _ = state.enqueue(item) }
    guard case .write(var batch, _) = state.next() else {
      Issue.record("expected a batch")
      return
    }
    let capacity = batch.capacity
    batch.removeAll(keepingCapacity: true)
    state.giveBack(batch)
    _ = state.enqueue(51)  // appended to a new array: the spare waits for the next batch
    guard case .write(let second, _) = state.next() else {
      Issue.record("expected a batch")
      return
    }
    #expect(second == [51])
    _ = state.enqueue(52)
    #expect(state.pending.capacity == capacity, "the spare's storage, reused")
    // Not kept: a batch larger than the limit allows (a burst's storage is let go).
    var other = State(limit: 2)
    var big: [Int] = []
    big.reserveCapacity(1_000)
    other.giveBack(big)
    _ = other.enqueue(1)
    _ = other.next()
    _ = other.enqueue(2)
    #expect(other.pending.capacity < 1_000)
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
    guard case .write(let batch, _) = state.next() else {
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

/// The bound on waiting steps: the producer waits once `limit` items wait, and the writer that
/// takes them says to wake it.
@Suite struct RecorderLimitTests {
  typealias State = RecorderState<Int, String>

  @Test func theProducerWaitsOnceTheLimitIsReachedAndIsWokenByTheNextBatch() {
    var state = State(limit: 2)
    #expect(state.enqueue(1) == .startWriter)
    let waitsAfterOne = state.producerMustWait()
    #expect(!waitsAfterOne, "one item waits, the limit is two")
    #expect(state.enqueue(2) == .none)
    let waitsAfterTwo = state.producerMustWait()
    #expect(waitsAfterTwo)
    #expect(state.producerWaits)
    guard case .write(let batch, let wake) = state.next() else {
      Issue.record("expected a batch")
      return
    }
    #expect(batch == [1, 2])
    #expect(wake, "the writer took the items: the producer goes on")
    #expect(!state.producerWaits)
    #expect(state.enqueue(3) == .none)
    guard case .write(_, let wakeAgain) = state.next() else {
      Issue.record("expected a batch")
      return
    }
    #expect(!wakeAgain, "nobody waits")
  }

  @Test func aLimitBelowOneIsOne() {
    var state = State(limit: 0)
    #expect(state.limit == 1)
    _ = state.enqueue(1)
    let waits = state.producerMustWait()
    #expect(waits)
  }

  @Test func aClosedRecordingNeverMakesTheProducerWait() {
    var state = State(limit: 1)
    _ = state.close()
    _ = state.next()
    #expect(state.enqueue(1) == .none)
    let waits = state.producerMustWait()
    #expect(!waits)
  }
}
