import Arboreal
import Testing

@testable import ArborealTesting

/// TCA's counter timer as a TCA user writes it first: a loop of sleeps on a clock from the
/// environment, which a test replaces with one that does not wait.
final class ImmediateTimer: ArborealModel {
  enum Action: Sendable, Equatable {
    case toggleTimerButtonTapped
    case timerTick
    case waitThenSpin
    case stopSpinning
  }

  struct Environment: Sendable {
    var sleep: @Sendable (Duration) async throws -> Void
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var isTimerOn = false
  @Tracked private(set) var count = 0

  func update(action: Action, environment: Environment) -> Fx<Action> {
    switch action {
    case .toggleTimerButtonTapped:
      isTimerOn.toggle()
      guard isTimerOn else { return .cancel(id: "timer") }
      return .run { send in
        while !Task.isCancelled {
          try? await environment.sleep(.seconds(1))
          await send(.timerTick)
        }
      }
      .cancellable(id: "timer")
    case .timerTick:
      count += 1
      return .none
    case .waitThenSpin:
      // Waits once, then never waits and never delivers.
      return .run { _ in
        try? await environment.sleep(.seconds(1))
        while !Task.isCancelled { await Task.yield() }
      }
      .cancellable(id: "spin")
    case .stopSpinning:
      return .cancel(id: "spin")
    }
  }
}

extension ImmediateTimer.Environment {
  /// A sleep that only yields: an immediate clock.
  static let immediate = Self(sleep: { _ in await Task.yield() })

  /// A sleep that hops to an actor of its own and back: an immediate clock kept by an actor.
  /// The actor has no executor of its own and nothing else calls it, so its work runs on the
  /// test executor (the effect's task executor preference): no timeout needed.
  static func hopsToAnActor() -> Self {
    let hopper = Hopper()
    return Self(sleep: { _ in await hopper.hop() })
  }

  /// A sleep that waits for a detached task: an immediate clock whose work runs outside the
  /// test executor (a detached task has no executor preference), which a test waits for only
  /// with a timeout.
  static let waitsForADetachedTask = Self(sleep: { _ in await Task.detached {}.value })

  /// A sleep that hops to the main actor and back.
  static let hopsToTheMainActor = Self(sleep: { _ in await MainActor.run {} })
}

/// An actor an effect hops to on every tick. Each test makes its own: an actor that work from
/// outside the test also calls (another test's effects, a task of the app) may run the
/// effect's call on another thread, which is work outside the test executor.
actor Hopper {
  private var hops = 0

  func hop() { hops += 1 }
}

/// A test never hangs: a step of the test store, or an advance of a test clock, either meets
/// what the test asked for or fails within a bounded number of executor turns, naming the
/// effect. Each test here used to run forever.
// The budgets here are 500 turns and deliveries (users get 10,000; `BusyEffectTests` proves
// that one): a turn of the main actor can take tens of milliseconds under ThreadSanitizer
// beside two CPU hogs. The limit only ends a hung run.
@MainActor
@Suite(.timeLimit(.minutes(30)))
struct NothingHangsTests {
  @Test func aTimerOnAnImmediateClockIsReceivedTickByTickAndStopped() async {
    let store = TestStore(state: ImmediateTimer(), environment: .immediate)
    await store.send(.toggleTimerButtonTapped) { #expect($0.isTimerOn) }
    for tick in 1...3 {
      await store.receive(.timerTick) { #expect($0.count == tick) }
    }
    await store.send(.toggleTimerButtonTapped) { #expect(!$0.isTimerOn) }
    await store.finish()
  }

  /// The same test with the sleep in each isolation an effect's work can take: another
  /// actor, a detached task, the main actor. The detached task's work is outside the test
  /// executor, so that test opts into waiting for it (an upper bound: it passes without
  /// waiting for it); the other two need no timeout.
  @Test(arguments: ["another actor", "a detached task", "the main actor"])
  func aTimerThatWaitsElsewhereIsReceivedTickByTickAndStopped(_ place: String) async {
    let environment: ImmediateTimer.Environment =
      switch place {
      case "another actor": .hopsToAnActor()
      case "a detached task": .waitsForADetachedTask
      default: .hopsToTheMainActor
      }
    let store = TestStore(state: ImmediateTimer(), environment: environment)
    if place == "a detached task" { store.timeout = .seconds(60) }
    await store.send(.toggleTimerButtonTapped) { #expect($0.isTimerOn) }
    for tick in 1...3 {
      await store.receive(.timerTick) { #expect($0.count == tick) }
    }
    await store.send(.toggleTimerButtonTapped) { #expect(!$0.isTimerOn) }
    await store.finish()
  }

  /// A flood through another actor fails as one on the test executor does.
  ///
  /// Each round trip of the effect to the store's actor is counted until the effect is back
  /// on the test executor: the runtime re-enqueues a task that prefers a task executor at each
  /// switch inside the actor's methods, and such a second job once passed for quiet, so that
  /// this step ended before the flood, alone and under ThreadSanitizer.
  @Test
  func aFloodThroughAnotherActorFailsNamingTheEffect() async {
    let store = TestStore(
      state: ImmediateTimer(), environment: .hopsToAnActor(), exhaustivity: .off)
    await withKnownIssue {
      await StepOutcome.$limits.withValue(.small) {
        _ = await store.send(.toggleTimerButtonTapped)
      }
    } matching: { issue in
      issue.description.contains("delivered 500 actions in one step")
        && issue.description.contains("started by send(toggleTimerButtonTapped) at")
    }
    await store.send(.toggleTimerButtonTapped) { _ in }
    await store.finish()
  }

  @Test func aFloodThatNoReceiveAskedForFailsNamingTheEffect() async {
    let store = TestStore(
      state: ImmediateTimer(), environment: .immediate, exhaustivity: .off)
    await withKnownIssue {
      await StepOutcome.$limits.withValue(.small) {
        _ = await store.send(.toggleTimerButtonTapped)
      }
    } matching: { issue in
      issue.description.contains("delivered 500 actions in one step")
        && issue.description.contains("started by send(toggleTimerButtonTapped) at")
        && issue.description.contains("NothingHangsTests.swift")
        && issue.description.contains("(the last: timerTick, timerTick, timerTick)")
    }
    await store.send(.toggleTimerButtonTapped) { _ in }
    await store.finish()
  }

  @Test func finishingWithATimerStillOnFailsAndEndsIt() async {
    let store = TestStore(state: ImmediateTimer(), environment: .immediate)
    await store.send(.toggleTimerButtonTapped) { #expect($0.isTimerOn) }
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      issue.description.contains("1 effect action arrived and was not received: timerTick")
    }
  }

  @Test func awaitingAHandleOfATimerFailsAtTheFirstTick() async {
    let store = TestStore(state: ImmediateTimer(), environment: .immediate)
    let handle = await store.send(.toggleTimerButtonTapped) { #expect($0.isTimerOn) }
    await withKnownIssue {
      await handle.value
    } matching: { issue in
      issue.description.contains("delivered by effects")
        && issue.description.contains("to be received: timerTick")
    }
    await store.receive(.timerTick) { #expect($0.count == 1) }
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      issue.description.contains("arrived and")
        && issue.description.contains("not received: timerTick")
    }
  }

  @Test func advancingATestClockPastALoopThatNeverWaitsFails() async {
    let clock = TestClock()
    let store = TestStore(
      state: ImmediateTimer(), environment: .init(sleep: { try await clock.sleep(for: $0) }))
    await store.send(.waitThenSpin)
    await withKnownIssue {
      await StepOutcome.$limits.withValue(.small) {
        await clock.advance(by: .seconds(1))
      }
    } matching: { issue in
      issue.description.contains("TestClock.advance: the effects ran 500 turns")
    }
    await store.send(.stopSpinning)
    await store.finish()
  }
}

extension StepOutcome.Limits {
  /// Budgets small enough that proving them holds takes a fraction of a second under load.
  static let small = Self(busyTurns: 500, floodLimit: 500)
}
