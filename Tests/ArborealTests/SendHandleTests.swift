import Testing

@testable import Arboreal

/// The guarantee (Docs/Semantics.md, "The store"): awaiting a send handle waits for the effects the
/// action started and for the actions they sent back; discarding it is fine.
@MainActor @Suite struct SendHandleTests {
  @Test func awaitingTheValueWaitsForTheEffectAndItsAction() async {
    let store = Store(state: Script(), environment: ())
    let gate = Gate()
    let handle = store.send(
      .run(
        Fx {
          await gate.wait()
          return .record("effect")
        }))
    #expect(!handle.isFinished)
    gate.open()
    await handle.value
    #expect(store.state.log == ["effect"])
    #expect(handle.isFinished)
    #expect(store.runningEffectCount == 0)
    #expect(store.openGroupCount == 0)
  }

  @Test func awaitingTheValueWaitsForTheEffectsOfTheActionsEffectsSent() async {
    let store = Store(state: Script(), environment: ())
    let handle = store.send(
      .run(
        Fx {
          .then("first", Fx { .then("second", .run { send in await send(.record("third")) }) })
        }))
    await handle.value
    #expect(store.state.log == ["first", "second", "third"])
  }

  @Test func discardingTheHandleLetsTheEffectRun() async {
    let store = Store(state: Script(), environment: ())
    let delivered = Gate()
    let token = observe { _ in
      if store.state.log.contains("effect") { delivered.open() }
    }
    store.send(.run(Fx { .record("effect") }))  // the handle is discarded
    await delivered.wait()
    #expect(store.state.log == ["effect"])
    token.cancel()
  }

  @Test func theHandleOfAQueuedActionWaitsForTheEffectsItStartsLater() async {
    let sender = Sender()
    let store = Store(state: Relay(), environment: sender)
    sender.connect(store)
    // `.sendWithEffect` sends `.recordLater` from inside its update: the handle exists before
    // the queued action has run.
    store.send(.sendWithEffect("queued"))
    let handle = try! #require(store.state.handles.first)
    await handle.value
    #expect(store.state.log == ["queued"])
  }

  @Test func cancellingTheHandleCancelsItsEffects() async {
    let store = Store(state: Script(), environment: ())
    let gate = Gate()
    let cancelled = Gate()
    let handle = store.send(
      .run(
        .run { send in
          do {
            try await gate.waitCancellably()
            await send(.record("not cancelled"))
          } catch {
            cancelled.open()
          }
        }))
    let other = store.send(.run(.run { send in await send(.record("other")) }))
    handle.cancel()
    #expect(handle.isFinished)
    await handle.value  // returns: cancelled effects count as finished
    await cancelled.wait()  // the task saw the cancellation
    await other.value
    #expect(store.state.log == ["other"])  // an effect of another action ran on
  }

  @Test func cancellingAHandleAlsoCancelsTheEffectsOfTheActionsItsEffectsSent() async {
    let store = Store(state: Script(), environment: ())
    let gate = Gate()
    let second = Gate()
    let handle = store.send(
      .run(
        Fx {
          .then(
            "first",
            .run { send in
              second.open()
              try? await gate.waitCancellably()
              await send(.record("dropped"))
            })
        }))
    await second.wait()  // the second-generation effect is running
    handle.cancel()
    gate.open()
    await handle.value
    #expect(store.state.log == ["first"])
  }

  @Test func valueReturnsOnceTheStoreIsReleased() async {
    var store: Store<Script>? = Store(state: Script(), environment: ())
    let handle = store!.send(.run(.run { _ in try? await Gate().waitCancellably() }))
    #expect(!handle.isFinished)
    store = nil
    await handle.value  // would wait forever if release did not resume it
    #expect(handle.isFinished)
  }

  @Test func waitingOnAHandleDoesNotKeepTheStoreAlive() async {
    weak var weakStore: Store<Script>?
    let started = Gate()
    let waiting: Task<Void, Never>
    do {
      let store = Store(state: Script(), environment: ())
      weakStore = store
      let handle = store.send(
        .run(
          .run { _ in
            started.open()
            try? await Gate().waitCancellably()
          }))
      waiting = Task { await handle.value }
      await started.wait()
    }
    #expect(weakStore == nil)
    await waiting.value
  }
}
