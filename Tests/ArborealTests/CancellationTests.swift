import Testing

@testable import Arboreal

/// The guarantee (Docs/Semantics.md, "The store"): cancelling by id stops an effect and drops what
/// it would still deliver; `cancelInFlight` replaces the previous effect; releasing the store
/// cancels everything and frees the store, the model and the effects.
@Suite actor CancellationTests {
  /// An effect that waits for `gate` (ignoring cancellation), then tries to deliver
  /// `.record(text)`, then opens `done`: once `done` is open, the store has handled or dropped
  /// the action.
  private func stubborn(_ text: String, gate: Gate, done: Gate) -> Fx<Script.Action> {
    .run { send in
      await gate.wait()
      await send(.record(text))
      done.open()
    }
  }

  @Test func cancellingByIDDropsTheActionTheEffectStillDelivers() async {
    let store = Store(state: Script(), environment: ())
    let gate = Gate()
    let done = Gate()
    store.send(.run(stubborn("late", gate: gate, done: done).cancellable(id: "work")))
    #expect(store.runningEffectCount == 1)
    store.send(.run(.cancel(id: "work")))
    #expect(store.runningEffectCount == 0)
    gate.open()
    await done.wait()
    #expect(store.state.log.isEmpty)
  }

  @Test func cancellingByIDCancelsTheEffectsTask() async {
    let store = Store(state: Script(), environment: ())
    let cancelled = Gate()
    let handle = store.send(
      .run(
        Fx {
          do {
            try await Gate().waitCancellably()
            return .record("not cancelled")
          } catch {
            cancelled.open()
            return .record("cancelled")  // dropped
          }
        }
        .cancellable(id: 7)))
    store.send(.run(.cancel(id: 7)))
    await cancelled.wait()
    await handle.value
    #expect(store.state.log.isEmpty)
  }

  @Test func cancelInFlightCancelsThePreviousEffectWithTheSameID() async {
    let store = Store(state: Script(), environment: ())
    let (firstGate, firstDone) = (Gate(), Gate())
    let (secondGate, secondDone) = (Gate(), Gate())
    store.send(
      .run(
        stubborn("first", gate: firstGate, done: firstDone)
          .cancellable(id: "search", cancelInFlight: true)))
    store.send(
      .run(
        stubborn("second", gate: secondGate, done: secondDone)
          .cancellable(id: "search", cancelInFlight: true)))
    #expect(store.runningEffectCount == 1)
    firstGate.open()
    secondGate.open()
    await firstDone.wait()
    await secondDone.wait()
    #expect(store.state.log == ["second"])
  }

  @Test func cancelInFlightOnAMergedFxKeepsTheSiblingsAndCancelsThemTogetherLater() async {
    let store = Store(state: Script(), environment: ())
    let gate = Gate()
    let (aDone, bDone) = (Gate(), Gate())
    // Two effects merged under one id: starting the second must not cancel the first.
    store.send(
      .run(
        Fx.merge(
          stubborn("a", gate: gate, done: aDone), stubborn("b", gate: gate, done: bDone)
        )
        .cancellable(id: "submit", cancelInFlight: true)))
    #expect(store.runningEffectCount == 2)
    // A later one with the same id cancels both.
    let (cDone, laterGate) = (Gate(), Gate())
    let later = store.send(
      .run(
        stubborn("c", gate: laterGate, done: cDone)
          .cancellable(id: "submit", cancelInFlight: true)))
    #expect(store.runningEffectCount == 1)
    gate.open()
    laterGate.open()
    await aDone.wait()
    await bDone.wait()
    await later.value
    #expect(store.state.log == ["c"])
  }

  @Test func cancelInFlightLeavesOtherIDsAndPlainEffectsAlone() async {
    let store = Store(state: Script(), environment: ())
    let gate = Gate()
    let first = store.send(
      .run(stubborn("other id", gate: gate, done: Gate()).cancellable(id: "other")))
    let second = store.send(.run(stubborn("no id", gate: gate, done: Gate())))
    let third = store.send(
      .run(
        stubborn("search", gate: gate, done: Gate())
          .cancellable(id: "search", cancelInFlight: true)))
    gate.open()
    for handle in [first, second, third] { await handle.value }
    #expect(store.state.log.sorted() == ["no id", "other id", "search"])
  }

  @Test func withoutCancelInFlightEffectsWithTheSameIDRunSideBySide() async {
    let store = Store(state: Script(), environment: ())
    let gate = Gate()
    let first = store.send(.run(stubborn("1", gate: gate, done: Gate()).cancellable(id: "x")))
    let second = store.send(.run(stubborn("2", gate: gate, done: Gate()).cancellable(id: "x")))
    #expect(store.runningEffectCount == 2)
    gate.open()
    await first.value
    await second.value
    #expect(store.state.log.sorted() == ["1", "2"])
  }

  @Test func aCancellationMergedBeforeANewEffectOnlyCancelsTheOldOne() async {
    let store = Store(state: Script(), environment: ())
    let (oldGate, oldDone) = (Gate(), Gate())
    store.send(.run(stubborn("old", gate: oldGate, done: oldDone).cancellable(id: "timer")))
    let handle = store.send(
      .run(
        Fx.merge(.cancel(id: "timer"), Fx { .record("new") }.cancellable(id: "timer"))))
    oldGate.open()
    await oldDone.wait()
    await handle.value
    #expect(store.state.log == ["new"])
  }

  @Test func anEffectCancellableByTwoIDsIsCancelledByEither() async {
    let store = Store(state: Script(), environment: ())
    let gate = Gate()
    let (aDone, bDone) = (Gate(), Gate())
    store.send(
      .run(stubborn("a", gate: gate, done: aDone).cancellable(id: "child").cancellable(id: 1)))
    store.send(
      .run(stubborn("b", gate: gate, done: bDone).cancellable(id: "child").cancellable(id: 2)))
    store.send(.run(.merge(.cancel(id: 1), .cancel(id: 2))))
    gate.open()
    await aDone.wait()
    await bDone.wait()
    #expect(store.state.log.isEmpty)
  }

  @Test func releasingTheStoreCancelsItsEffects() async {
    let cancelled = Gate()
    var store: Store<Script>? = Store(state: Script(), environment: ())
    store!.send(
      .run(
        .run { _ in
          do {
            try await Gate().waitCancellably()
          } catch {
            cancelled.open()
          }
        }))
    store = nil
    await cancelled.wait()
  }

  @Test func releasingTheStoreFreesTheStoreTheModelAndTheEffects() async {
    final class Payload: Sendable {}
    weak var weakStore: Store<Script>?
    weak var weakModel: Script?
    weak var weakPayload: Payload?
    let started = Gate()
    var tasks: [Task<Void, Never>] = []
    do {
      let payload = Payload()
      weakPayload = payload
      let store = Store(state: Script(), environment: ())
      weakStore = store
      weakModel = store.state
      store.send(
        .run(
          .run { _ in
            started.open()
            try? await Gate().waitCancellably()
            _ = payload
          }))
      await started.wait()
      tasks = store.runningEffectTasks
      #expect(tasks.count == 1)
    }
    // Effects hold the store weakly: it goes as soon as its last owner lets it go.
    #expect(weakStore == nil)
    #expect(weakModel == nil)
    // Its release cancelled the effect, which ends and frees what it captured: the runtime
    // releases a task's closure before it completes the task, so once `value` returns the
    // payload is gone.
    for task in tasks { await task.value }
    #expect(weakPayload == nil)
  }

  @Test func anEffectThatOutlivesItsStoreDeliversNothingAndDoesNotCrash() async {
    let gate = Gate()
    let done = Gate()
    weak var weakStore: Store<Script>?
    do {
      let store = Store(state: Script(), environment: ())
      weakStore = store
      store.send(.run(stubborn("orphan", gate: gate, done: done)))
    }
    #expect(weakStore == nil)
    gate.open()
    await done.wait()  // its send found no store and returned
  }
}
