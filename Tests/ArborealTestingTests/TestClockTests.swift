import Arboreal
import ArborealTesting
import Testing

/// The test clock: time moves only when advanced, and what falls due runs in the order of its
/// deadlines, one wake-up at a time.
@Suite actor TestClockTests {
  @Test func advancingRunsDueEffectsInTheOrderOfTheirDeadlines() async {
    let clock = TestClock()
    let store = TestStore(state: Reminders(), environment: .init(clock: clock))
    await store.send(.remind("late", after: .seconds(2)))
    await store.send(.remind("early", after: .seconds(1)))
    await store.send(.remind("early too", after: .seconds(1)))  // a tie: booked second
    await clock.advance(by: .seconds(5))
    await store.receive(.reminded("early")) { #expect($0.log == ["early"]) }
    await store.receive(.reminded("early too")) { #expect($0.log == ["early", "early too"]) }
    await store.receive(.reminded("late")) { #expect($0.log == ["early", "early too", "late"]) }
    #expect(clock.now == TestClock.Instant(offset: .seconds(5)))
    await store.finish()
  }

  @Test func aDelayBookedWhileAdvancingRunsInTheSameAdvanceWhenDue() async {
    let clock = TestClock()
    let store = TestStore(state: Reminders(), environment: .init(clock: clock))
    // `.delay` of an `Fx` holding a delayed effect: the inner wait is booked when the outer
    // one fires, at 1 s, for 1.5 s.
    await store.send(.remindTwice("stretch", after: .seconds(1), then: .milliseconds(500)))
    await store.send(.remind("tea", after: .milliseconds(1200)))
    await clock.advance(by: .seconds(2))
    await store.receive(.reminded("stretch")) { #expect($0.log == ["stretch"]) }
    await store.receive(.reminded("tea")) { #expect($0.log == ["stretch", "tea"]) }
    await store.receive(.reminded("stretch again")) {
      #expect($0.log == ["stretch", "tea", "stretch again"])
    }
    await store.finish()
  }

  @Test func aCancelledDelayNeverRunsAndIsNoLongerPending() async {
    let clock = TestClock()
    let store = TestStore(state: Reminders(), environment: .init(clock: clock))
    await store.send(.remind("call", after: .seconds(1)))
    await store.send(.cancel("call"))
    await clock.advance(by: .seconds(2))
    await store.finish()  // fails on an unreceived `.reminded("call")`
  }

  @Test func timeDoesNotMoveUntilAdvanced() async {
    let clock = TestClock()
    let store = TestStore(state: Reminders(), environment: .init(clock: clock))
    await store.send(.remind("later", after: .seconds(1)))
    #expect(clock.now == TestClock.Instant())
    #expect(clock.pendingCount == 1)
    await clock.advance(by: .milliseconds(999))
    #expect(clock.pendingCount == 1)
    await clock.run()
    #expect(clock.now == TestClock.Instant(offset: .seconds(1)))
    await store.receive(.reminded("later")) { #expect($0.log == ["later"]) }
    await store.finish()
  }

  @Test func aPlainSleepReturnsOnceTheClockReachesItsDeadline() async throws {
    let clock = TestClock()
    let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
    // The sleep is booked when the task reaches it; wait for that, not for time.
    while clock.pendingCount == 0 { await Task.yield() }
    await clock.advance(by: .seconds(1))
    try await sleeper.value
    #expect(clock.now == TestClock.Instant(offset: .seconds(1)))
    #expect(clock.pendingCount == 0)
  }

  @Test func aSleepUntilThePastReturnsAtOnce() async throws {
    let clock = TestClock(now: TestClock.Instant(offset: .seconds(10)))
    try await clock.sleep(until: TestClock.Instant(offset: .seconds(3)))
    #expect(clock.pendingCount == 0)
  }

  @Test func cancellingASleepingTaskThrowsAndDropsTheSleep() async {
    let clock = TestClock()
    let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
    while clock.pendingCount == 0 { await Task.yield() }
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(clock.pendingCount == 0)
  }

  @Test nonisolated func aSleepCancelledWhileItIsBeingBookedStillThrows() async {
    // The cancellation lands anywhere between the booking (what `pendingCount` sees) and the
    // suspension: before the cancellation handler is installed, while it is, or after. Every
    // interleaving must throw; one used to return as if the sleep had fired. Repeated so that
    // the early ones happen too.
    //
    // Nonisolated: the busy wait below holds its thread until the detached task has run, which
    // under load takes a while, 300 times. On the main actor, which every main-actor test of
    // the suite shares, it held them all up: without it and one other main-actor busy wait,
    // the whole suite under ThreadSanitizer took 95 seconds instead of 154, and a test that
    // had gone past its one-minute limit took 41 seconds instead of 96.
    for _ in 0..<300 {
      let clock = TestClock()
      let sleeper = Task.detached { try await clock.sleep(for: .seconds(1)) }
      while clock.pendingCount == 0 {}
      sleeper.cancel()
      await #expect(throws: CancellationError.self) { try await sleeper.value }
      #expect(clock.pendingCount == 0)
    }
  }

  @Test func anImmediateClockMovesItsTimeToEachDeadline() async throws {
    let clock = ImmediateClock()
    try await clock.sleep(for: .seconds(2))
    try await clock.sleep(for: .seconds(1))
    #expect(clock.now == ImmediateClock.Instant(offset: .seconds(3)))
  }
}
