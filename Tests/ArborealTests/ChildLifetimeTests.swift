import ArborealTestSupport
import Testing

@testable import Arboreal

/// Effects belong to the model instance whose update started them: when it leaves the state
/// (removed, set to nil, popped, replaced), they end within that action, with nothing in the
/// parent's update asking for it; siblings never share cancellation identifiers.
@MainActor @Suite struct ChildLifetimeTests {
  private func makeStore(jobs ids: [Int]) -> (Store<Board>, Jobs) {
    let jobs = Jobs(ids: ids + [-1, -2])
    let store = Store(state: Board(), environment: jobs)
    store.send(.add(ids: ids))
    return (store, jobs)
  }

  @Test func removingAChildEndsItsEffectsWithinTheAction() async {
    await removeChildrenRunningEffects(count: 1)
  }

  /// The same with 10,000 children: one action ends every effect. Keeps the main actor busy for
  /// a noticeable time, so it runs with the reliability suites (see `reliabilitySuiteEnabled`).
  @Test(.enabled(if: reliabilitySuiteEnabled))
  func removingTenThousandChildrenEndsTheirEffectsWithinTheAction() async {
    await removeChildrenRunningEffects(count: 10_000)
  }

  private func removeChildrenRunningEffects(count: Int) async {
    let ids = Array(0..<count)
    let (store, jobs) = makeStore(jobs: ids)
    let handle = store.send(.startAll)
    #expect(store.runningEffectCount == count)
    #expect(store.childRecordCount == count)
    store.send(.removeAll)
    // Ended as part of the action: nothing runs once `send` returns.
    #expect(store.runningEffectCount == 0)
    #expect(store.childRecordCount == 0)
    #expect(store.childWatchCount == 0)
    // Opened only now, so that a regression fails the expectations above instead of hanging.
    for gate in jobs.gates.values { gate.open() }
    await handle.value
    await store.finish()
    #expect(store.state.jobs.isEmpty)
  }

  /// 10,000 siblings use the same identifier; one cancels its own effect. With the
  /// reliability suites, as the 10,000-children removal.
  @Test(.enabled(if: reliabilitySuiteEnabled))
  func tenThousandSiblingsNeverShareCancelIDs() async {
    let ids = Array(0..<10_000)
    let (store, jobs) = makeStore(jobs: ids)
    store.send(.startAll)
    store.send(.job(id: 5_000, .stop))
    #expect(store.runningEffectCount == 9_999)
    store.send(.job(id: 5_000, .start))  // cancel in flight: its own, none of the others'
    #expect(store.runningEffectCount == 10_000)
    store.send(.removeAll)
    #expect(store.runningEffectCount == 0)
    for gate in jobs.gates.values { gate.open() }
    await store.finish()
  }

  /// One job with an effect among 1,000,000: removing other rows keeps it running (the route
  /// is read once per change), removing it ends its effect, and nothing is left recorded.
  /// With the reliability suites.
  @Test(.enabled(if: reliabilitySuiteEnabled))
  func oneChildAmongAMillionEndsWhenRemovedAndOnlyThen() async {
    let count = 1_000_000
    let (store, jobs) = makeStore(jobs: Array(0..<count))
    store.send(.job(id: count - 1, .start))
    #expect(store.runningEffectCount == 1)
    store.send(.remove(ids: [0, 1, 2]))
    #expect(store.runningEffectCount == 1)
    #expect(store.childRecordCount == 1)
    store.send(.remove(ids: [count - 1]))
    #expect(store.runningEffectCount == 0)
    #expect(store.childRecordCount == 0)
    #expect(store.childWatchCount == 0)
    #expect(store.state.jobs.count == count - 4)
    jobs.gates[count - 1]?.open()
    await store.finish()
  }

  @Test func removingSomeChildrenLeavesTheOthersRunning() async {
    let (store, jobs) = makeStore(jobs: [1, 2, 3])
    for id in [1, 2, 3] { store.send(.job(id: id, .start)) }
    store.send(.remove(ids: [2]))
    #expect(store.runningEffectCount == 2)
    store.send(.reverse)  // a reorder keeps every child in the state
    #expect(store.runningEffectCount == 2)
    jobs.gates[1]?.open()
    jobs.gates[3]?.open()
    await store.finish()
    #expect(store.state.jobs.map(\.isDone) == [true, true])
    #expect(jobs.cancelled.all.contains(2))
  }

  @Test func siblingsInACollectionNeverShareCancelIDs() async {
    let (store, jobs) = makeStore(jobs: [1, 2])
    store.send(.job(id: 1, .start))
    // Job 2 uses the same identifier with `cancelInFlight`: job 1's effect runs on.
    store.send(.job(id: 2, .start))
    #expect(store.runningEffectCount == 2)
    store.send(.job(id: 2, .stop))
    #expect(store.runningEffectCount == 1)
    jobs.gates[1]?.open()
    await store.finish()
    #expect(store.state.jobs.map(\.isDone) == [true, false])
  }

  @Test func twoFixedChildrenOfOneTypeNeverShareCancelIDs() async {
    let (store, jobs) = makeStore(jobs: [])
    store.send(.left(.start))
    store.send(.right(.start))
    #expect(store.runningEffectCount == 2)
    store.send(.right(.stop))
    #expect(store.runningEffectCount == 1)
    jobs.gates[-1]?.open()
    await store.finish()
    #expect(store.state.left.isDone)
    #expect(!store.state.right.isDone)
  }

  @Test func replacingAChildByAnotherInstanceEndsTheOldOnesEffects() async {
    let (store, jobs) = makeStore(jobs: [1])
    store.send(.job(id: 1, .start))
    let old = store.state.jobs[0]
    store.send(.replace(id: 1))
    #expect(store.runningEffectCount == 0)
    #expect(store.state.jobs[0] !== old)
    // The new instance with the same id runs its own.
    store.send(.job(id: 1, .start))
    #expect(store.runningEffectCount == 1)
    jobs.gates[1]?.open()
    await store.finish()
    #expect(store.state.jobs[0].isDone)
    #expect(!old.isDone)
  }

  @Test func settingAnOptionalChildToNilEndsItsEffects() async {
    let (store, jobs) = makeStore(jobs: [])
    store.send(.presentPlain(id: 7))
    store.send(.plain(.start))
    #expect(store.runningEffectCount == 1)
    store.send(.clearPlain)
    #expect(store.runningEffectCount == 0)
    await store.finish()
    #expect(jobs.cancelled.all == [7] || jobs.cancelled.all.isEmpty)
  }

  @Test func anEffectOfAChildRemovedInTheSameActionNeverStarts() async {
    let (store, _) = makeStore(jobs: [1])
    let handle = store.send(.startAndRemove(id: 1))
    #expect(store.runningEffectCount == 0)
    #expect(handle.isFinished)
  }

  @Test func theParentStillCancelsOneChildsEffectsByItsKey() async {
    let (store, jobs) = makeStore(jobs: [1, 2])
    store.send(.job(id: 1, .start))
    store.send(.job(id: 2, .start))
    store.send(.cancelJob(id: 1))
    #expect(store.runningEffectCount == 1)
    jobs.gates[2]?.open()
    await store.finish()
    #expect(store.state.jobs.map(\.isDone) == [false, true])
  }

  @Test func aChildWhoseEffectsEndedCostsNothingOnceItsListChanges() async {
    let (store, jobs) = makeStore(jobs: [1, 2])
    store.send(.job(id: 1, .start))
    #expect(store.childRecordCount == 1)
    #expect(store.childWatchCount == 1)
    jobs.gates[1]?.open()
    await store.finish()
    // The record goes at the next reading of the list.
    store.send(.add(ids: [3]))
    #expect(store.childRecordCount == 0)
    #expect(store.childWatchCount == 0)
  }

  // The two tests below cover the only two orders in which a handle awaited off the main
  // actor can meet the removal that ends its effects. A handle adds its waiter (or finds its
  // group closed) in one synchronous step on the main actor, and the removal closes the group
  // and takes its waiters in another: there is no third order, in which a waiter could be
  // added to a group that has just closed and never be resumed.
  //
  // Their time limits only end a hung run. Each await hops through the main actor, whose
  // turns every main-actor test of the suite shares, each behind all those queued before it.
  // Run alone under ThreadSanitizer, this test takes 0.05 seconds; in the whole suite, with
  // other processes on the cores, 41 to 175 (its one-minute limit failed it). So the limit is
  // 10 minutes, longer than such a run of the whole suite.

  /// The removal is sent after the effects' handles, awaited by two other tasks in the store's
  /// isolation, have started waiting: it wakes both.
  @Test(.timeLimit(.minutes(10)))
  func aRemovalEndsEffectsAwaitedByOtherTasks() async {
    let (store, _) = makeStore(jobs: [1, 2])
    let first = store.send(.job(id: 1, .start))
    let second = store.send(.job(id: 2, .start))
    let firstWait = Task { await first.value }
    let secondWait = Task { await second.value }
    await store.untilWaiting(on: first, second)
    store.send(.remove(ids: [1, 2]))
    #expect(store.runningEffectCount == 0)
    #expect(store.openGroupCount == 0)
    await firstWait.value
    await secondWait.value
    #expect(first.isFinished && second.isFinished)
  }

  /// The same removal before the handles are awaited: awaiting them returns at once.
  @Test(.timeLimit(.minutes(10)))
  func handlesAwaitedAfterTheRemovalReturnAtOnce() async {
    let (store, _) = makeStore(jobs: [1, 2])
    let first = store.send(.job(id: 1, .start))
    let second = store.send(.job(id: 2, .start))
    store.send(.remove(ids: [1, 2]))
    #expect(store.runningEffectCount == 0)
    #expect(store.openGroupCount == 0)
    await first.value
    await Task { await second.value }.value
    #expect(first.isFinished && second.isFinished)
  }

  #if DEBUG
    @Test func anActionForwardedToAMissingChildIsDroppedAndReported() {
      let messages = Log<String>()
      ArborealDiagnostics.droppedActionHandler = { messages.append($0) }
      defer { ArborealDiagnostics.droppedActionHandler = nil }
      let (store, _) = makeStore(jobs: [1])
      store.send(.remove(ids: [1]))
      store.send(.job(id: 1, .start))
      #expect(store.runningEffectCount == 0)
      let reported = messages.all.filter { $0.contains("Board.jobs[id: 1] (Job)") }
      #expect(reported.count == 1)
      #expect(reported.first?.contains("dropped start") == true)
    }
  #endif
}

extension Store {
  /// Returns once every handle in `handles` has a waiter registered with its group: awaited,
  /// and not yet woken. Gives the main actor up between checks, so that the waiting tasks'
  /// hops to it can run; how long it takes never decides a test.
  nonisolated(nonsending) fileprivate func untilWaiting(on handles: SendHandle...) async {
    while !handles.allSatisfy({ table.groups[$0.group!]?.waiters.isEmpty == false }) {
      await Task.yield()
    }
  }
}
