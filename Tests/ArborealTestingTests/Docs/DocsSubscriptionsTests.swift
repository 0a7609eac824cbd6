import Arboreal
import ArborealTesting
import Testing

// The code of the "Subscriptions" article (Arboreal.docc/StateDrivenSubscriptions.md),
// verbatim between the `article begins` and `article ends` markers, so that it keeps compiling
// and doing what the article says.

enum DocsSubscriptions {
  // article begins: stopwatch
  final class Stopwatch: SubscribingModel {
    enum Action: Sendable, Equatable {
      case start
      case stop
      case tick
    }

    struct Environment: Sendable {
      var clock: any Clock<Duration> = ContinuousClock()
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var isRunning = false
    @Tracked private(set) var seconds = 0

    func update(action: Action, environment: Environment) -> Fx<Action> {
      switch action {
      case .start:
        isRunning = true
      case .stop:
        isRunning = false
      case .tick:
        seconds += 1
      }
      return .none
    }

    // The timer runs exactly while `isRunning` is true.
    func subscriptions(environment: Environment) -> [Subscription<Action>] {
      isRunning ? [.every(.seconds(1), clock: environment.clock, id: "tick") { .tick }] : []
    }
  }
  // article ends: stopwatch
}

@Suite actor DocsSubscriptionsTests {
  typealias Stopwatch = DocsSubscriptions.Stopwatch

  // article begins: stopwatch-test
  @Test func ticksWhileRunning() async {
    let clock = TestClock()
    let store = TestStore(state: Stopwatch(), environment: .init(clock: clock))
    await store.send(.start) { #expect($0.isRunning) }
    await clock.advance(by: .seconds(3))
    await store.receive(.tick) { #expect($0.seconds == 1) }
    await store.receive(.tick) { #expect($0.seconds == 2) }
    await store.receive(.tick) { #expect($0.seconds == 3) }
    await store.send(.stop) { #expect(!$0.isRunning) }
    await clock.advance(by: .seconds(5))  // stopped: no more ticks
    await store.finish()
  }
  // article ends: stopwatch-test

  @Test func restartingTheTimerStartsAFreshInterval() async {
    let clock = TestClock()
    let store = TestStore(state: Stopwatch(), environment: .init(clock: clock))
    await store.send(.start) { #expect($0.isRunning) }
    await clock.advance(by: .milliseconds(1500))
    await store.receive(.tick) { #expect($0.seconds == 1) }
    await store.send(.stop) { #expect(!$0.isRunning) }
    await store.send(.start) { #expect($0.isRunning) }
    await clock.advance(by: .milliseconds(999))
    #expect(clock.pendingCount == 1)
    await clock.advance(by: .milliseconds(1))
    await store.receive(.tick) { #expect($0.seconds == 2) }
    await store.send(.stop) { #expect(!$0.isRunning) }
    await store.finish()
  }
}
