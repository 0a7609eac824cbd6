import Arboreal
import ArborealTesting
import Testing

/// TCA's "Timers" case study, ported as a user would: a toggle starts and stops a timer that
/// counts seconds. The subscription is the idiomatic port; the loop of plain sleeps is how a
/// TCA user writes it first (`for await _ in clock.timer(interval:)`).
final class PortedTimer: SubscribingModel {
  enum Action: Sendable, Equatable {
    case toggleTimerButtonTapped
    case timerTicked
    case toggleLoopTapped
  }

  struct Environment: Sendable {
    var clock: any Clock<Duration>
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var isTimerActive = false
  @Tracked private(set) var secondsElapsed = 0
  /// Whether the loop of plain sleeps runs (not the subscription).
  @Tracked private(set) var isLooping = false

  func update(action: Action, environment: Environment) -> Fx<Action> {
    switch action {
    case .toggleTimerButtonTapped:
      isTimerActive.toggle()
      return .none
    case .timerTicked:
      secondsElapsed += 1
      return .none
    case .toggleLoopTapped:
      isLooping.toggle()
      guard isLooping else { return .cancel(id: "loop") }
      return .run { send in
        while true {
          do { try await environment.clock.sleep(for: .seconds(1)) } catch { return }
          await send(.timerTicked)
        }
      }
      .cancellable(id: "loop")
    }
  }

  func subscriptions(environment: Environment) -> [Subscription<Action>] {
    isTimerActive
      ? [.every(.seconds(1), clock: environment.clock, id: "timer") { .timerTicked }] : []
  }
}

@Suite actor PortedTimersTests {
  @Test func startsAndStopsTheSubscription() async {
    let clock = TestClock()
    let store = TestStore(state: PortedTimer(), environment: .init(clock: clock))
    await store.send(.toggleTimerButtonTapped) { #expect($0.isTimerActive) }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTicked) { #expect($0.secondsElapsed == 1) }
    await clock.advance(by: .seconds(5))
    for second in 2...6 {
      await store.receive(.timerTicked) { #expect($0.secondsElapsed == second) }
    }
    await store.send(.toggleTimerButtonTapped) { #expect(!$0.isTimerActive) }
    await store.finish()
  }

  @Test func aLoopOfPlainSleepsTicksOncePerAdvance() async {
    let clock = TestClock()
    let store = TestStore(state: PortedTimer(), environment: .init(clock: clock))
    await store.send(.toggleLoopTapped) { #expect($0.isLooping) }
    // The loop's first sleep is booked when `send` has run the effect to its first wait.
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTicked) { #expect($0.secondsElapsed == 1) }
    await clock.advance(by: .seconds(1))
    await store.receive(.timerTicked) { #expect($0.secondsElapsed == 2) }
    // Advancing by several seconds wakes the loop once per second: each tick books the next
    // sleep before the clock moves on.
    await clock.advance(by: .seconds(3))
    for second in 3...5 {
      await store.receive(.timerTicked) { #expect($0.secondsElapsed == second) }
    }
    await store.send(.toggleLoopTapped) { #expect(!$0.isLooping) }
    await store.finish()
  }
}
