import Arboreal
import ArborealTesting
import Testing

/// A test store lives where it is made, as a store does (Docs/Semantics.md, "Where a store
/// lives"): the same test, with the same exhaustivity, in a `@MainActor` test, on an actor of
/// the test's own, and in a nonisolated test (which Swift Testing runs in parallel with others).
/// (Not in a detached task: Swift Testing records no issue there, the test's context being a
/// task-local value that a detached task does not inherit.) Each runs effects that deliver one action and two, a timer on a test
/// clock received tick by tick (an effect never more than one action ahead of the test), a
/// change the test did not assert (a failure) and an action it did not receive (a failure).
@Suite struct TestStoreIsolationTests {
  @Test func onTheMainActor() async {
    await MainActorTestHost().run()
  }

  @Test func onAnActorOfTheTestsOwn() async {
    await ActorTestHost().run()
  }

  @Test func inANonisolatedTest() async {
    await TestStoreScenario.run()
  }
}

enum TestStoreScenario {
  /// The whole test, in the caller's isolation.
  ///
  /// The closures given to `withKnownIssue` name `isolation`: a closure takes the isolation of
  /// an `isolated` parameter only when it captures it (in an actor's method or a `@MainActor`
  /// test they take the actor's without it). Without it, the body would run off the store's
  /// actor, which a debug build stops at once (`assertInIsolation`).
  static func run(isolation: isolated (any Actor)? = #isolation) async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    let load = await store.send(.load) { #expect($0.isLoading) }
    await store.receive(.loaded(42)) {
      #expect($0.count == 42)
      #expect(!$0.isLoading)
    }
    await load.value
    #expect(load.isFinished)
    await store.send(.loadTwice)
    await store.receive(.loaded(1)) { #expect($0.count == 1) }
    await store.receive(.loaded(2)) { #expect($0.count == 2) }
    await withKnownIssue {
      _ = isolation
      await store.send(.bump) { #expect($0.count == 3) }
    } matching: {
      $0.description.contains("step")
    }
    await store.finish()

    let clock = TestClock()
    let timer = TestStore(state: PortedTimer(), environment: .init(clock: clock))
    await timer.send(.toggleTimerButtonTapped) { #expect($0.isTimerActive) }
    await clock.advance(by: .seconds(3))
    for second in 1...3 {
      await timer.receive(.timerTicked) { #expect($0.secondsElapsed == second) }
    }
    await timer.send(.toggleTimerButtonTapped) { #expect(!$0.isTimerActive) }
    await timer.finish()

    let unreceived = TestStore(state: Loader(), environment: LoaderEnvironment())
    await unreceived.send(.load) { #expect($0.isLoading) }
    await withKnownIssue {
      _ = isolation
      await unreceived.finish()
    } matching: {
      $0.description.contains("loaded(42)")
    }
  }
}

@MainActor final class MainActorTestHost {
  func run() async { await TestStoreScenario.run() }
}

actor ActorTestHost {
  func run() async { await TestStoreScenario.run() }
}
