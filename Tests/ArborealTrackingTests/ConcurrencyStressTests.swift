import ArborealTracking
import Dispatch
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Several threads reading, writing, observing and cancelling at once. `.ci/run` also runs this
/// suite under ThreadSanitizer (`--filter ConcurrencyStressTests`).
@Suite struct ConcurrencyStressTests {
  /// Iterations per test; raise it locally with `ARBOREAL_STRESS_SCALE`.
  static let scale: Int = {
    guard let text = getenvString("ARBOREAL_STRESS_SCALE"), let value = Int(text), value > 0
    else { return 1 }
    return value
  }()

  @Test func aOneShotRacingAWriteFiresExactlyOnceOrNeverForAnEarlierWrite() {
    var firedAfterStaleRead = 0
    var staleReads = 0
    for _ in 0..<(2_000 * Self.scale) {
      let model = SharedCounter()
      let fired = Atomic<Int>(0)
      let seen = Atomic<Int>(-1)
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 {
          let value = withTracking {
            model.value
          } onChange: { _ in
            fired.wrappingAdd(1, ordering: .relaxed)
          }
          seen.store(value, ordering: .relaxed)
        } else {
          model.increment()
        }
      }
      let count = fired.load(ordering: .relaxed)
      #expect(count <= 1, "a one-shot observer fired twice")
      if seen.load(ordering: .relaxed) == 0 {
        // The write followed the read: it must not be lost.
        staleReads += 1
        if count == 1 { firedAfterStaleRead += 1 }
      }
    }
    #expect(firedAfterStaleRead == staleReads)
  }

  @Test func manyOneShotsAndManyWritersGiveExactlyOneNotificationEach() {
    let model = SharedCounter()
    let observers = 400 * Self.scale
    let fired = (0..<observers).map { _ in AtomicCell(0) }
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for index in stride(from: thread, to: observers, by: 4) {
        withTracking {
          _ = model.value
        } onChange: { _ in
          fired[index].value.wrappingAdd(1, ordering: .relaxed)
        }
      }
    }
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<50 { model.increment() }
    }
    let counts = fired.map { $0.value.load(ordering: .relaxed) }
    #expect(counts.allSatisfy { $0 == 1 })
    #expect(model.registrar.registrationCount == 0)
  }

  @Test func continuousObserversEndOnTheLastValueWhateverTheInterleaving() {
    let models = (0..<4).map { _ in SharedCounter() }
    let lastSeen = (0..<8).map { _ in AtomicCell(-1) }
    let tokens = (0..<8).map { index in
      let model = models[index % models.count]
      let slot = index
      return observe(isolation: nil) { @Sendable _ in
        lastSeen[slot].value.store(model.value, ordering: .relaxed)
      }
    }
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for step in 0..<(500 * Self.scale) {
        let model = models[(thread + step) % models.count]
        if step % 7 == 0 {
          withTransaction {
            model.increment()
            model.other = step
          }
        } else {
          model.increment()
        }
      }
    }
    for (index, token) in tokens.enumerated() {
      #expect(lastSeen[index].value.load(ordering: .relaxed) == models[index % models.count].value)
      token.cancel()
    }
    #expect(models.allSatisfy { $0.registrar.registrationCount == 0 })
  }

  @Test func registeringCancellingAndReleasingWhileOthersWrite() {
    let shared = SharedCounter()
    let stop = Atomic<Bool>(false)
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      if thread == 0 {
        for _ in 0..<(2_000 * Self.scale) { shared.increment() }
        stop.store(true, ordering: .releasing)
      } else {
        var rounds = 0
        while !stop.load(ordering: .acquiring) || rounds < 10 {
          rounds += 1
          let local = SharedCounter()
          let token = observe(isolation: nil) { @Sendable _ in
            _ = shared.value
            _ = local.value
          }
          withTracking {
            _ = shared.other
          } onChange: { _ in
          }
          local.increment()
          if rounds % 2 == 0 { token.cancel() }
        }
      }
    }
    #expect(shared.value == 2_000 * Self.scale)
    // The one-shots on `other` are still registered; every continuous observer is gone.
    shared.other = 1
    #expect(shared.registrar.registrationCount == 0)
  }

  @Test func cancelFromAnotherThreadStopsFutureRuns() {
    for _ in 0..<(200 * Self.scale) {
      let model = SharedCounter()
      let runs = Atomic<Int>(0)
      let token = observe(isolation: nil) { @Sendable _ in
        _ = model.value
        runs.wrappingAdd(1, ordering: .relaxed)
      }
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 {
          for _ in 0..<20 { model.increment() }
        } else {
          token.cancel()
        }
      }
      // Every run in progress has finished (the writer returned); nothing runs any more.
      let settled = runs.load(ordering: .relaxed)
      model.increment()
      #expect(runs.load(ordering: .relaxed) == settled)
      #expect(model.registrar.registrationCount == 0)
    }
  }
}

private func getenvString(_ name: String) -> String? {
  guard let value = getenv(name) else { return nil }
  return String(cString: value)
}

/// An atomic integer that can live in an array.
private final class AtomicCell: Sendable {
  let value: Atomic<Int>
  init(_ initial: Int) { value = Atomic(initial) }
}
