import Testing

@testable import Arboreal

/// `Store.finish()`: waits until no effect runs and no action is queued.
@MainActor @Suite struct StoreFinishTests {
  @Test func returnsAtOnceWhenNothingRuns() async {
    let store = Store(state: Script(), environment: ())
    store.send(.record("a"))
    await store.finish()
    #expect(store.state.log == ["a"])
  }

  @Test func waitsForEveryEffectAndTheEffectsOfTheActionsTheyDeliver() async {
    let store = Store(state: Script(), environment: ())
    let gate = Gate()
    // Two sends whose handles are discarded; the first effect's action starts another effect.
    store.send(
      .run(
        Fx {
          await gate.wait()
          return .then("first", Fx { .record("second") })
        }))
    store.send(.run(Fx { .record("other") }))
    gate.open()
    // Nothing could have been delivered yet: the main actor has not been free.
    #expect(store.state.log.isEmpty)
    await store.finish()
    #expect(store.state.log.sorted() == ["first", "other", "second"])
    #expect(store.runningEffectCount == 0)
  }

  @Test func returnsWhenTheLastRunningEffectIsCancelled() async {
    let store = Store(state: Script(), environment: ())
    store.send(.run(.run { _ in try? await Gate().waitCancellably() }.cancellable(id: "timer")))
    Task { _ = store.send(.run(.cancel(id: "timer"))) }
    await store.finish()
    #expect(store.runningEffectCount == 0)
  }

  @Test func theStoreKeepsWorkingAfterFinish() async {
    let store = Store(state: Script(), environment: ())
    store.send(.run(Fx { .record("one") }))
    await store.finish()
    store.send(.run(Fx { .record("two") }))
    await store.finish()
    #expect(store.state.log == ["one", "two"])
  }
}
