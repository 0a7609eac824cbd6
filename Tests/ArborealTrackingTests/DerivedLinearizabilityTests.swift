import ArborealTracking
import Dispatch
import Synchronization
import Testing

/// A point where one thread pauses once, after the test arms it: what lets a test complete a
/// write and a read in between.
private final class Pause: Sendable {
  private let armed: Atomic<Bool>
  /// Signalled when a thread has paused here.
  let reached = DispatchSemaphore(value: 0)
  /// Signalled by the test to let the paused thread go on.
  let resume = DispatchSemaphore(value: 0)

  init(armed: Bool) {
    self.armed = Atomic(armed)
  }

  func arm() { armed.store(true, ordering: .releasing) }

  /// Pauses the first caller since the pause was armed until `resume` is signalled (or two
  /// minutes pass: a test that failed before resuming it leaves no thread waiting for ever);
  /// returns at once for the others.
  func take() {
    guard armed.exchange(false, ordering: .acquiringAndReleasing) else { return }
    reached.signal()
    _ = resume.wait(timeout: .now() + 120)
  }
}

/// Waits for `semaphore` for at most two minutes; records an issue naming `what` did not
/// happen when the time runs out, so that a regression fails instead of hanging.
private func waitBounded(
  for semaphore: DispatchSemaphore, _ what: String,
  sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
  guard semaphore.wait(timeout: .now() + 120) == .success else {
    Issue.record("waited two minutes, and \(what)", sourceLocation: sourceLocation)
    return false
  }
  return true
}

/// A computed result that takes `pause` when it is released: a store that replaces it
/// releases it after storing its own result, before it has checked that result's sources.
private final class Result: Sendable {
  let number: Int
  let pause: Pause

  init(_ number: Int, pause: Pause) {
    self.number = number
    self.pause = pause
  }

  deinit { pause.take() }
}

/// Linearizable reads: a read that begins after a write has returned sees a result computed
/// from that write or a later one, even while a computation that read the old input is still
/// on its way to storing its result on another thread. Nonisolated values, read from the
/// test's thread and from a queue's.
@Suite struct DerivedLinearizabilityTests {
  /// The interleaving, forced: a computation on another thread reads the old input (through
  /// `read`, which makes the graph between the source and the value) and pauses; the test
  /// writes `shared.value = 1`, and reads the value (computed here from the new input); the
  /// other computation then stores its old result, which releases the new one, and pauses
  /// again there, before it has looked at its sources again; the test reads the value once
  /// more. Returns the three reads: between, while storing, after.
  private func readsAroundAnOlderStore(
    reading read: @escaping @Sendable (SharedCounter) -> @Sendable () -> Int
  ) -> (between: Int, whileStoring: Int, after: Int)? {
    let shared = SharedCounter()
    let afterReading = Pause(armed: true)
    let whenReplaced = Pause(armed: false)
    let input = read(shared)
    let summary = Derived("summary") { () -> Result in
      let seen = input()
      afterReading.take()
      return Result(seen, pause: whenReplaced)
    }
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      _ = summary.value
      done.signal()
    }
    guard waitBounded(for: afterReading.reached, "the other thread's computation never read")
    else { return nil }
    shared.value = 1
    let between = summary.value.number
    whenReplaced.arm()
    afterReading.resume.signal()
    guard
      waitBounded(
        for: whenReplaced.reached, "the other thread's computation never stored its result")
    else { return nil }
    let whileStoring = summary.value.number
    whenReplaced.resume.signal()
    guard waitBounded(for: done, "the other thread's read never returned") else { return nil }
    return (between, whileStoring, summary.value.number)
  }

  @Test func aValueOfATrackedPropertyReadAfterAWriteSeesIt() {
    guard let seen = readsAroundAnOlderStore(reading: { shared in { shared.value } }) else {
      return
    }
    #expect(seen.between == 1)
    #expect(seen.whileStoring == 1)
    #expect(seen.after == 1)
  }

  @Test func aValueOfADerivedValueReadAfterAWriteSeesIt() {
    guard
      let seen = readsAroundAnOlderStore(reading: { shared in
        let row = Derived("row") { shared.value }
        return { row.value }
      })
    else { return }
    #expect(seen.between == 1)
    #expect(seen.whileStoring == 1)
    #expect(seen.after == 1)
  }

  @Test func aValueAtTheEndOfAChainReadAfterAWriteSeesIt() {
    guard
      let seen = readsAroundAnOlderStore(reading: { shared in
        let row = Derived("row") { shared.value }
        let middle = Derived("middle") { row.value * 10 }
        return { middle.value + 1 }
      })
    else { return }
    #expect(seen.between == 11)
    #expect(seen.whileStoring == 11)
    #expect(seen.after == 11)
  }

  /// The other window, forced: a computation on another thread reads a value that must be
  /// recomputed first (`row`, marked by a write and not yet a source of `summary`, whose
  /// dependencies changed); that recomputation stores its result and, releasing the one it
  /// replaced, pauses before the reader has recorded what it read. The test writes again and
  /// reads `row` (recomputed here from the newer input) in between. The reader's result, made
  /// from the older `row`, must not be taken as up to date by a read that begins afterwards.
  @Test func aReadOfASourceReplacedBeforeTheReaderRecordsItIsNotTakenAsUpToDate() {
    // Two models: the summary's own tracked read says nothing about the row's input.
    let shared = SharedCounter()
    let switches = SharedCounter()
    let whenReplaced = Pause(armed: false)
    let row = Derived("row") { Result(shared.value, pause: whenReplaced) }
    let summary = Derived("summary") { switches.value == 0 ? -1 : row.value.number }
    #expect(summary.value == -1)
    #expect(row.value.number == 0)
    shared.value = 1
    switches.value = 1
    whenReplaced.arm()
    let done = DispatchSemaphore(value: 0)
    let seenThere = Locked.make(0)
    DispatchQueue.global().async {
      let seen = summary.value
      seenThere.withLock { $0 = seen }
      done.signal()
    }
    guard
      waitBounded(
        for: whenReplaced.reached,
        "the other thread never recomputed `row` inside the summary's computation")
    else { return }
    shared.value = 2
    #expect(row.value.number == 2)
    whenReplaced.resume.signal()
    guard waitBounded(for: done, "the other thread's read never returned") else { return }
    // The other thread's read began before the second write returned: either value is right.
    #expect([1, 2].contains(seenThere.withLock { $0 }))
    #expect(summary.value == 2)
  }

  /// Plain data (an `Int`), which the new engine publishes for clean reads that take no lock:
  /// a computation of the value on another thread reads the old input and pauses (a tracking
  /// scope runs meanwhile, so the test's reads look their thread up and still take no lock);
  /// the test writes, reads the value (computed here from the new input and published), and
  /// reads it again (the published value); the paused computation then ends, superseded. Every
  /// read that began after the write returned sees it.
  @Test func aPublishedValueReadAfterAWriteSeesItWhileAnOlderComputationIsPaused() {
    let shared = SharedCounter()
    let afterReading = Pause(armed: false)
    let value = Derived("value") { () -> Int in
      let seen = shared.value
      afterReading.take()
      return seen * 10
    }
    #expect(value.value == 0)
    shared.value = 1  // marks the value: the next computation reads the input again
    afterReading.arm()
    let done = DispatchSemaphore(value: 0)
    let seenThere = Locked.make(-1)
    DispatchQueue.global().async {
      let seen = value.value
      seenThere.withLock { $0 = seen }
      done.signal()
    }
    guard waitBounded(for: afterReading.reached, "the other thread's computation never read")
    else { return }
    shared.value = 2
    #expect(value.value == 20)  // computed here, and published
    #expect(value.value == 20)  // the published value
    afterReading.resume.signal()
    guard waitBounded(for: done, "the other thread's read never returned") else { return }
    // Its read began before the second write returned: either value is right.
    #expect([10, 20].contains(seenThere.withLock { $0 }))
    #expect(value.value == 20)
    shared.value = 3
    #expect(value.value == 30)
  }

  /// A computation that reads a published value without the lock notes the version that
  /// value was published with: a computation on another thread reads `row` (plain data,
  /// published and clean) and pauses; the test writes `row`'s input and reads `row` (its new
  /// value published at a new version); the paused computation then stores its result, made
  /// from the old `row`, and its link to `row` carries the old version, so the value is marked
  /// again. A read that begins afterwards sees the write.
  @Test func aComputationThatReadAPublishedValueBeforeAWriteIsNotTakenAsUpToDate() {
    let shared = SharedCounter()
    let afterReading = Pause(armed: false)
    let row = Derived("row") { shared.value }
    let summary = Derived("summary") { () -> Int in
      let seen = row.value
      afterReading.take()
      return seen * 10
    }
    #expect(row.value == 0)  // computed and published
    afterReading.arm()
    let done = DispatchSemaphore(value: 0)
    let seenThere = Locked.make(-1)
    DispatchQueue.global().async {
      let seen = summary.value
      seenThere.withLock { $0 = seen }
      done.signal()
    }
    guard
      waitBounded(for: afterReading.reached, "the other thread's computation never read `row`")
    else { return }
    shared.value = 1
    #expect(row.value == 1)
    afterReading.resume.signal()
    guard waitBounded(for: done, "the other thread's read never returned") else { return }
    // Its read began before the write returned: either value is right.
    #expect([0, 10].contains(seenThere.withLock { $0 }))
    #expect(summary.value == 10)
    shared.value = 2
    #expect(summary.value == 20)
  }

  /// Threads that each write their own model and read a total over all of them: a read after
  /// a thread's own write sees at least that write.
  @Test func eachThreadSeesItsOwnWriteInATotalOthersRecompute() async {
    let models = (0..<4).map { _ in SharedCounter() }
    let doubled = models.map { model in Derived("doubled") { model.value * 2 } }
    let total = Derived("total") { doubled.reduce(0) { $0 + $1.value } }
    await withTaskGroup(of: Bool.self) { group in
      for writer in models.indices {
        group.addTask {
          var sawOwnWrites = true
          for step in 1...250 {
            models[writer].value = step
            // Every other model's value only grows, so the total is at least this.
            sawOwnWrites = sawOwnWrites && total.value >= step * 2
          }
          return sawOwnWrites
        }
      }
      for await sawOwnWrites in group { #expect(sawOwnWrites) }
    }
    #expect(total.value == 4 * 250 * 2)
  }
}
