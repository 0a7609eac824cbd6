import Testing

@testable import Arboreal

/// The guarantee (Docs/Semantics.md, "The store"): a store is used only in its isolation. It is
/// not `Sendable`, so a background task cannot take it (the compile-fail checks in
/// `.ci/compile-fail` prove that); it reaches a main-actor store through the main-actor type
/// that holds it, whose methods hop there. An effect that outlives its store sends into the
/// void.
@MainActor @Suite struct ConcurrencySafetyTests {
  /// Where a main-actor app keeps its store: background work sends through it.
  @MainActor final class App {
    let store: Store<Script>
    init() { store = Store(state: Script(), environment: ()) }
    func record(_ text: String) { store.send(.record(text)) }
    func recordLater(_ text: String) async { await store.send(.run(Fx { .record(text) })).value }
  }

  @Test func sendingFromABackgroundTaskGoesThroughTheMainActorThatHoldsTheStore() async {
    let app = App()
    await Task.detached {
      await app.record("from the background")
    }.value
    #expect(app.store.state.log == ["from the background"])
    #expect(app.store.state.onMainActor == [true])
  }

  @Test func manyBackgroundTasksSendingAtOnceLoseNothing() async {
    let app = App()
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<200 {
        group.addTask { await app.record("\(index)") }
      }
    }
    #expect(app.store.state.log.count == 200)
  }

  @Test func aBackgroundTaskCanWaitForTheEffectsOfItsSend() async {
    let app = App()
    await Task.detached {
      await app.recordLater("effect")
    }.value
    #expect(app.store.state.log == ["effect"])
  }

  @Test func anEffectThatOutlivesItsStoreSendsIntoTheVoid() async {
    let gate = Gate()
    let sent = Gate()
    weak var weakStore: Store<Script>?
    do {
      let store = Store(state: Script(), environment: ())
      weakStore = store
      // The effect ignores cancellation and keeps sending after the store is gone.
      store.send(
        .run(
          .run { send in
            await gate.wait()
            for index in 0..<10 { await send(.record("\(index)")) }
            sent.open()
          }))
    }
    #expect(weakStore == nil)
    gate.open()
    await sent.wait()
  }
}
