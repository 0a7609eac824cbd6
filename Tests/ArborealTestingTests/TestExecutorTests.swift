import Arboreal
import ArborealTesting
import Testing

/// Two effects that take turns, a model whose effect waits on a test clock, and ones whose
/// effects call an actor or a detached task: the shapes whose outcome used to depend on the
/// scheduler.
final class Turns: ArborealModel {
  enum Action: Sendable, Equatable {
    case start
    case step(String, Int)
    case waitForClock
    case askActor
    case answered(Int)
    case subscribeToTicks
    case visitMainActor
    case askDetachedTask
  }

  struct Environment: Sendable {
    var clock = TestClock()
    var oracle = Oracle()
  }

  /// An actor of the effect's own: no executor of its own and nothing else calls it, so its
  /// work runs on the test executor.
  actor Oracle {
    func answer() -> Int { 42 }
  }

  let registrar = TrackingRegistrar()
  @Tracked var log: [String] = []

  func update(action: Action, environment: Environment) -> Fx<Action> {
    switch action {
    case .start:
      // Two effects, each yielding between its actions: on the global executor their actions
      // interleave as the scheduler pleases.
      return .merge(
        .run { send in
          for index in 0..<3 {
            await Task.yield()
            await send(.step("speech", index))
          }
        },
        .run { send in
          for index in 0..<3 {
            await Task.yield()
            await send(.step("timer", index))
          }
        })
    case .step(let name, let index):
      log.append("\(name) \(index)")
      return .none
    case .waitForClock:
      return .run { send in
        try? await environment.clock.sleep(for: .seconds(2))
        await send(.answered(2))
      }
    case .askActor:
      return Fx { .answered(await environment.oracle.answer()) }
    case .answered(let value):
      log.append("answered \(value)")
      return .none
    case .subscribeToTicks:
      return .none
    case .askDetachedTask:
      // A detached task does not inherit the executor preference: outside work.
      return Fx { .answered(await Task.detached { 9 }.value) }
    case .visitMainActor:
      // A hop to the main actor that is not a delivery: nothing counts it.
      return Fx {
        let value = await MainActor.run { 7 }
        return .answered(value)
      }
    }
  }
}

@MainActor
@Suite struct TestExecutorTests {
  @Test(arguments: 0..<20)
  func effectsTakeTurnsInTheSameOrderOnEveryRun(run: Int) async {
    let store = TestStore(state: Turns(), environment: .init())
    await store.send(.start)
    // Each effect runs to its next suspension in turn: the order is fixed.
    for index in 0..<3 {
      await store.receive(.step("speech", index)) { #expect($0.log.last == "speech \(index)") }
      await store.receive(.step("timer", index)) { #expect($0.log.last == "timer \(index)") }
    }
    await store.finish()
  }

  @Test func receiveFailsAtOnceNamingTheTestClockDeadline() async {
    // article begins: clock-failure
    let clock = TestClock()
    let store = TestStore(state: Turns(), environment: .init(clock: clock))
    await store.send(.waitForClock)
    // article ends: clock-failure
    // No timeout anywhere: the failure comes because nothing can go on, not after a wait.
    #expect(store.timeout == nil)
    await withKnownIssue {
      // article begins: clock-failure-receive
      await store.receive(.answered(2))  // fails at once: the clock was not advanced
      // article ends: clock-failure-receive
    } matching: { issue in
      issue.description.contains("receive(answered(2)): no action arrived. No effect can go on:")
        && issue.description.contains(
          "waiting for a TestClock deadline at 2.0 seconds (`sleep`; the clock is at 0.0 seconds)")
    }
    await clock.advance(by: .seconds(2))
    await store.receive(.answered(2)) { #expect($0.log == ["answered 2"]) }
    await store.finish()
  }

  @Test func finishNamesWhatEachEffectWaitsFor() async {
    let store = TestStore(state: Turns(), environment: .init())
    await store.send(.waitForClock)
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      issue.description.contains("finish(): 1 effect cannot finish:")
        && issue.description.contains("effect #")
        && issue.description.contains("a TestClock deadline at 2.0 seconds")
        && issue.description.contains("advance the test clock they wait for")
    }
  }

  @Test func anEffectThatCallsAnActorOfItsOwnNeedsNoTimeout() async {
    // The actor runs the call on the test executor: the step counts it like the effect's own
    // jobs, on every run.
    // article begins: own-actor
    let store = TestStore(state: Turns(), environment: .init())
    await store.send(.askActor)  // the effect asks an actor of its own
    await store.receive(.answered(42)) { #expect($0.log == ["answered 42"]) }
    await store.finish()
    // article ends: own-actor
  }

  @Test func anEffectThatVisitsTheMainActorNeedsNoTimeout() async {
    let store = TestStore(state: Turns(), environment: .init())
    await store.send(.visitMainActor)
    await store.receive(.answered(7)) { #expect($0.log == ["answered 7"]) }
    await store.finish()
  }

  @Test func anEffectThatAwaitsADetachedTaskNeedsATimeout() async {
    // The detached task runs outside the executor: the store waits for it, up to the timeout.
    // article begins: outside-work
    let store = TestStore(state: Turns(), environment: .init())
    await store.send(.askDetachedTask)  // the effect awaits a detached task
    store.timeout = .seconds(30)
    await store.receive(.answered(9)) { #expect($0.log == ["answered 9"]) }
    await store.finish()
    // article ends: outside-work
  }

  @Test func aTimeOperatorSaysWhatItWaitsFor() async {
    let clock = TestClock()
    let store = TestStore(state: Reminders(), environment: .init(clock: clock))
    await store.send(.remind("tea", after: .seconds(3)))
    await withKnownIssue {
      await store.receive(.reminded("tea"))
    } matching: { issue in
      issue.description.contains("cancellable by \"tea\"")
        && issue.description.contains(
          "a TestClock deadline at 3.0 seconds (a time operator of `Fx`; the clock is at "
            + "0.0 seconds)")
    }
    await clock.advance(by: .seconds(3))
    await store.receive(.reminded("tea")) { #expect($0.log == ["tea"]) }
    await store.finish()
  }

  @Test func aPlainStoreRunsItsEffectsStepByStep() async {
    // article begins: plain-store
    let clock = TestClock()
    let store = Store(state: Turns(), environment: .init(clock: clock))
    store.effectExecutor = TestExecutor()
    store.send(.start)
    store.send(.waitForClock)
    let pending = await store.runEffects()
    #expect(
      store.state.log == [
        "speech 0", "timer 0", "speech 1", "timer 1", "speech 2", "timer 2",
      ])
    #expect(pending.count == 1)
    #expect(pending.first?.contains("a TestClock deadline at 2.0 seconds") == true)
    await clock.advance(by: .seconds(2))
    #expect(await store.runEffects().isEmpty)
    #expect(store.state.log.last == "answered 2")
    // article ends: plain-store
  }

  @Test func runEffectsNeedsATestExecutor() async {
    let store = Store(state: Turns(), environment: .init())
    await withKnownIssue {
      await store.runEffects()
    } matching: { issue in
      issue.description.contains("set `store.effectExecutor = TestExecutor()`")
    }
  }

  // article begins: release
  @Test func releasingTheStoreWhileAnEffectRunsFails() async {
    let clock = TestClock()
    await withKnownIssue {
      let store = TestStore(state: Turns(), environment: .init(clock: clock))
      await store.send(.waitForClock)
    } matching: { issue in
      issue.description.contains("The test store was released while 1 effect was running:")
        && issue.description.contains("a TestClock deadline at 2.0 seconds")
        && issue.description.contains("`await store.finish()`")
    }
  }
  // article ends: release

  @Test func releasingTheStoreAfterFinishPasses() async {
    let store = TestStore(state: Turns(), environment: .init())
    await store.send(.start)
    await store.withExhaustivity(.off) {
      await store.finish()
    }
  }
}

/// An effect that loops without waiting fails the test instead of hanging it.
@MainActor
@Suite struct BusyEffectTests {
  final class Spinner: ArborealModel {
    enum Action: Sendable, Equatable {
      case spin
      case stop
    }

    let registrar = TrackingRegistrar()

    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .spin:
        return .run { _ in
          while !Task.isCancelled { await Task.yield() }
        }
        .cancellable(id: "spin")
      case .stop:
        return .cancel(id: "spin")
      }
    }
  }

  @Test func aBusyLoopFailsTheSendInsteadOfHanging() async {
    let store = TestStore(state: Spinner())
    await withKnownIssue {
      await store.send(.spin)
    } matching: { issue in
      issue.description.contains("send(spin): the effects ran 10000 turns")
        && issue.description.contains("an effect loops without waiting for anything")
    }
    await store.send(.stop)
    await store.finish()
  }
}
