import Dispatch
import Testing

@testable import ArborealDevtools

/// The recorder's queue on one thread: the writer started once per burst and kept while steps
/// arrive, steps in order across wrap-arounds and grown rings, the bound on waiting steps.
@Suite struct RecorderQueueTests {
  typealias Queue = RecorderQueue<Int>

  /// Takes what is pending: the steps, and whether the producer is to be woken.
  func take(_ queue: Queue) -> (steps: [Int], wake: Bool) {
    var batch: [Int] = []
    let wake = queue.take(into: &batch)
    return (batch, wake)
  }

  @Test func theFirstStepStartsAWriterAndLaterOnesJoinIt() {
    let queue = Queue(limit: 100)
    #expect(queue.push(1), "no writer holds the queue: this push starts one")
    #expect(!queue.push(2))
    #expect(take(queue).steps == [1, 2])
    #expect(!queue.push(3), "the writer still holds the queue: it takes this one")
    #expect(take(queue).steps == [3])
    #expect(take(queue).steps.isEmpty)
    #expect(!queue.writerStops(), "nothing arrived: the writer lets the queue go")
    #expect(!queue.debugState.writerActive)
    #expect(queue.push(4), "the writer stopped: a new one starts")
  }

  @Test func aWriterThatStopsAsAStepArrivesKeepsTheQueue() {
    let queue = Queue(limit: 100)
    #expect(queue.push(1))
    #expect(take(queue).steps == [1])
    // The step arrives after the writer's last take and before it lets the queue go: the
    // producer sees a writer and starts none, so the stopping writer must take it.
    #expect(!queue.push(2))
    #expect(queue.writerStops())
    #expect(queue.debugState.writerActive)
    #expect(!queue.push(3))
    #expect(take(queue).steps == [2, 3])
    #expect(!queue.writerStops())
  }

  @Test func stepsWrapAroundTheRingInOrderWithoutGrowingIt() {
    let queue = Queue(limit: 100, firstCapacity: 4)
    var next = 0
    var taken: [Int] = []
    for _ in 0..<50 {
      for _ in 0..<3 {
        _ = queue.push(next)
        next += 1
      }
      taken += take(queue).steps
    }
    #expect(taken == Array(0..<150))
    #expect(queue.debugState.ringCapacity == 4, "three steps at a time fit in four slots")
    #expect(queue.debugState.waiting == 0)
  }

  @Test func aBacklogGrowsTheRingAndTheWriterFollowsEveryRingInOrder() {
    let queue = Queue(limit: 1_000, firstCapacity: 2)
    var next = 0
    var taken: [Int] = []
    // Pushes outrun takes by a growing margin: the writer is left partway through rings that
    // the producer has already left for longer ones.
    for round in 1...12 {
      for _ in 0..<(round * 3) {
        _ = queue.push(next)
        next += 1
      }
      var batch: [Int] = []
      _ = queue.take(into: &batch)
      taken += batch
      #expect(queue.debugState.waiting == 0)
    }
    #expect(taken == Array(0..<next))
    let grown = queue.debugState.ringCapacity
    #expect(grown >= 16 && grown <= 64, "about the longest backlog, 36: no longer")
    // Steady again: the grown ring is reused.
    for _ in 0..<500 {
      _ = queue.push(next)
      next += 1
      taken += take(queue).steps
    }
    #expect(taken == Array(0..<next))
    #expect(queue.debugState.ringCapacity == grown)
  }

  @Test func theProducerWaitsAtTheLimitAndTheTakeThatMakesRoomWakesIt() {
    let queue = Queue(limit: 3, firstCapacity: 1)
    for step in 1...2 {
      _ = queue.push(step)
      #expect(!queue.producerMustWait(), "fewer than three steps wait")
    }
    _ = queue.push(3)
    #expect(queue.producerMustWait(), "three steps wait: the store waits for the writer")
    #expect(queue.debugState.ringCapacity == 2, "one slot was too few: the ring doubled")
    let (steps, wake) = take(queue)
    #expect(steps == [1, 2, 3])
    #expect(wake, "the writer made room for the waiting producer")
    #expect(!queue.producerMustWait())
    _ = queue.push(4)
    #expect(!queue.producerMustWait())
    #expect(!take(queue).wake, "nobody waits")
  }

  @Test func aProducerThatFindsRoomAfterMarkingItselfWaitingGoesOn() {
    let queue = Queue(limit: 1)
    _ = queue.push(1)
    #expect(queue.producerMustWait())
    // The writer made room and took the wake-up: the producer waits once more, for it, and
    // then finds room.
    #expect(take(queue).wake)
    #expect(!queue.producerMustWait())
  }

  @Test func aLimitBelowOneIsOne() {
    let queue = Queue(limit: 0)
    #expect(queue.limit == 1)
    _ = queue.push(1)
    #expect(queue.producerMustWait())
  }

  @Test func aClosedQueueDropsLaterStepsAndNeverMakesTheProducerWait() {
    let queue = Queue(limit: 1)
    #expect(queue.push(1))
    queue.close()
    #expect(!queue.push(2), "dropped: no writer to start")
    #expect(take(queue).steps == [1])
    #expect(!queue.push(3))
    #expect(!queue.producerMustWait())
    #expect(take(queue).steps.isEmpty)
  }

  /// A step that nobody took is released with the queue, in every ring.
  final class Step {
    let released: @Sendable () -> Void
    init(_ released: @escaping @Sendable () -> Void) { self.released = released }
    deinit { released() }
  }

  @Test func stepsLeftInTheQueueAreReleasedWithIt() {
    let count = Counter()
    do {
      let queue = RecorderQueue<Step>(limit: 100, firstCapacity: 2)
      for _ in 0..<3 { _ = queue.push(Step { count.add() }) }
      var batch: [Step] = []
      _ = queue.take(into: &batch)
      batch.removeAll()
      #expect(count.value == 3)
      // Seven more, over a ring the writer is in and two it has not reached.
      for _ in 0..<7 { _ = queue.push(Step { count.add() }) }
      #expect(count.value == 3)
    }
    #expect(count.value == 10)
  }
}

/// A count shared with a deinitialiser.
///
/// Invariant (why `@unchecked Sendable` holds): `value` is read and written only on the
/// thread that runs the test (the steps are released there).
final class Counter: @unchecked Sendable {
  private(set) var value = 0
  func add() { value += 1 }
}

/// The queue between two threads, as the recorder uses it: the producer starts a writer job
/// on a serial queue when `push` says so and blocks on a semaphore when told; writer jobs take
/// until they find nothing and let go. Run under ThreadSanitizer in CI.
@Suite struct RecorderQueueThreadTests {
  /// What the writer jobs take, in order.
  ///
  /// Invariant (why `@unchecked Sendable` holds): `taken` is used only by jobs on `queue`,
  /// which is serial, and read by the test after `queue.sync`.
  final class Writer: @unchecked Sendable {
    let steps: RecorderQueue<Int>
    let queue = DispatchQueue(label: "org.arboreal.test-writer")
    let room = DispatchSemaphore(value: 0)
    var taken: [Int] = []
    private var batch: [Int] = []

    init(limit: Int) { steps = RecorderQueue(limit: limit, firstCapacity: 2) }

    func push(_ step: Int) {
      if steps.push(step) {
        queue.async { [self] in
          repeat { takeAll() } while steps.writerStops()
        }
      }
      while steps.producerMustWait() { room.wait() }
    }

    func takeAll() {
      while true {
        if steps.take(into: &batch) { room.signal() }
        if batch.isEmpty { return }
        taken += batch
        batch.removeAll(keepingCapacity: true)
      }
    }
  }

  @Test(arguments: [1, 7, 1_000])
  func everyStepArrivesOnceInOrder(limit: Int) {
    let writer = Writer(limit: limit)
    let count = 20_000
    let producer = DispatchQueue(label: "org.arboreal.test-producer")
    producer.sync {
      for step in 0..<count { writer.push(step) }
    }
    // A flush: after every push, on the writer's queue.
    writer.queue.sync { writer.takeAll() }
    #expect(writer.taken == Array(0..<count))
    #expect(writer.steps.debugState.waiting == 0)
  }
}
