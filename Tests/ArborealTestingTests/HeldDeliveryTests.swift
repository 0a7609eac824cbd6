import Arboreal
import Dispatch
import Testing

@testable import ArborealTesting

/// An effect that delivers one action, then ends.
final class OneDelivery: ArborealModel {
  enum Action: Sendable, Equatable {
    case start
    case delivered
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var count = 0

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .start: return .run { send in await send(.delivered) }
    case .delivered:
      count += 1
      return .none
    }
  }
}

/// A hold that holds an effect's first delivery, and lets it go when told to.
@MainActor
final class HoldOnce: @MainActor EffectDeliveryHold {
  let trace: EffectTrace
  private var held: CheckedContinuation<Void, Never>?
  private var hasHeld = false

  init(trace: EffectTrace) { self.trace = trace }

  var isHolding: Bool { held != nil }

  func mustHold(_ effect: UInt64) -> Bool { !hasHeld }

  func hold(_ effect: UInt64, until continuation: CheckedContinuation<Void, Never>) {
    hasHeld = true
    held = continuation
  }

  private var roundsHeld = 0

  /// Lets the held delivery go on after it has been held for ten rounds.
  func releaseAfterRounds() {
    roundsHeld += 1
    if roundsHeld > 10 { release() }
  }

  func release() {
    guard let held else { return }
    self.held = nil
    trace.deliveryBegan()
    held.resume()
  }
}

/// Runs `sample` once per round of the main queue until it answers nil, counting the rounds
/// where it answered true.
@MainActor
final class Sampler {
  private let sample: @MainActor () -> Bool?
  private var count = 0
  private var rounds = 0
  private var done: CheckedContinuation<Int, Never>?

  init(_ sample: @escaping @MainActor () -> Bool?) { self.sample = sample }

  func run() async -> Int {
    await withCheckedContinuation { continuation in
      done = continuation
      next()
    }
  }

  private func next() {
    DispatchQueue.main.async {
      MainActor.assumeIsolated {
        self.rounds += 1
        guard self.rounds < 10_000, let seen = self.sample() else {
          self.done?.resume(returning: self.count)
          return
        }
        if seen { self.count += 1 }
        self.next()
      }
    }
  }
}

/// A test store stepping the effects decides that none can go on when nothing is counted over
/// its turns: a delivery must therefore be counted (or held) at every turn of the main queue
/// from the moment the effect sends it until the store handles it. The hold's own await once
/// broke that: in a task that prefers an executor (every effect on a test executor),
/// `withCheckedContinuation` on the main actor goes once round the main queue before its body
/// runs, and the delivery was counted as ended before it. A test store then saw nothing for a
/// turn, stopped, and failed a `receive` (or, with a timeout, held the action until it ran
/// out): `aTimerThatWaitsElsewhere…` failed about once in ten runs under load.
@MainActor
@Suite struct HeldDeliveryTests {
  @Test func aDeliveryIsCountedOrHeldAtEveryTurnUntilItIsHandled() async throws {
    let executor = TestExecutor()
    let store = Store(state: OneDelivery(), environment: (), effectExecutor: executor)
    let trace = try #require(store.effectTrace)
    let hold = HoldOnce(trace: trace)
    store.effectDeliveryHold = hold
    store.send(.start)

    // One sample per round of the main queue, the queue that runs both the test executor's
    // jobs and the main actor's: FIFO, and one sample always waits in it, so a sample runs
    // between any two jobs queued one after the other.
    let sampler = Sampler {
      guard store.state.count == 0 else { return nil }
      if hold.isHolding { hold.releaseAfterRounds() }
      return executor.pendingJobs == 0 && trace.pendingDeliveries == 0 && !hold.isHolding
    }
    let unseen = await sampler.run()
    #expect(store.state.count == 1)
    #expect(unseen == 0, "rounds where the delivery was neither counted nor held: \(unseen)")
    #expect(await store.runEffects().isEmpty)
  }
}

/// A hold that answers "hold" once, then "go on"; it lets any delivery it is given go at once.
@MainActor
final class ChangesItsMind: @MainActor EffectDeliveryHold {
  let trace: EffectTrace
  private var answers = [true]
  private(set) var held = 0

  init(trace: EffectTrace) { self.trace = trace }

  func mustHold(_ effect: UInt64) -> Bool { answers.isEmpty ? false : answers.removeFirst() }

  func hold(_ effect: UInt64, until continuation: CheckedContinuation<Void, Never>) {
    held += 1
    trace.deliveryBegan()
    continuation.resume()
  }
}

extension HeldDeliveryTests {
  /// The hold is asked again when its await runs: by then the test may have received the
  /// action the first answer waited for, and the delivery goes on without being held.
  @Test func aHoldThatNoLongerAppliesWhenItsAwaitRunsLetsTheDeliveryGo() async throws {
    let executor = TestExecutor()
    let store = Store(state: OneDelivery(), environment: (), effectExecutor: executor)
    let hold = ChangesItsMind(trace: try #require(store.effectTrace))
    store.effectDeliveryHold = hold
    store.send(.start)
    #expect(await store.runEffects().isEmpty)
    #expect(store.state.count == 1)
    #expect(hold.held == 0)
  }
}

/// The rule that ends a step: three quiet turns in a row, counted afresh after any busy one.
@Suite struct SettlingTests {
  @Test func threeQuietTurnsInARowSettle() {
    var settling = Settling()
    let settled = (0..<3).map { _ in settling.hasSettled(quiet: true) }
    #expect(settled == [false, false, true])
  }

  @Test func aCountedTurnStartsTheCountAgain() {
    var settling = Settling()
    let turns = [true, true, false, true, true, false, true, true, true]
    let settled = turns.map { settling.hasSettled(quiet: $0) }
    #expect(settled == [false, false, false, false, false, false, false, false, true])
  }
}
