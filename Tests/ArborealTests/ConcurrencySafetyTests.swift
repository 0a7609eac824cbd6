import Testing

@testable import Arboreal

/// The guarantee (Docs/Semantics.md, "The store"): sending from a background task, or from an
/// effect that outlives its store, is safe: the compiler makes every send hop to the main actor,
/// and a store that is gone is simply not there to receive.
@MainActor @Suite struct ConcurrencySafetyTests {
  @Test func sendingFromABackgroundTaskHopsToTheMainActor() async {
    let store = Store(state: Script(), environment: ())
    // `store.send` is main-actor isolated: from a detached task it must be awaited.
    await Task.detached {
      _ = await store.send(.record("from the background"))
    }.value
    #expect(store.state.log == ["from the background"])
    #expect(store.state.onMainActor == [true])
  }

  @Test func manyBackgroundTasksSendingAtOnceLoseNothing() async {
    let store = Store(state: Counter(), environment: ())
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<200 {
        group.addTask { await store.send(.increment) }
      }
    }
    #expect(store.state.count == 200)
  }

  @Test func aBackgroundTaskCanAwaitTheHandleOfItsSend() async {
    let store = Store(state: Script(), environment: ())
    await Task.detached {
      let handle = await store.send(.run(Fx { .record("effect") }))
      await handle.value
    }.value
    #expect(store.state.log == ["effect"])
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

  @Test func aWeakReferenceFromABackgroundTaskFindsTheStoreGone() async {
    weak var weakStore: Store<Counter>?
    do {
      let store = Store(state: Counter(), environment: ())
      weakStore = store
    }
    let reference = WeakStore(weakStore)
    let reached = await Task.detached { await reference.store?.send(.increment) != nil }.value
    #expect(!reached)
  }
}

/// A weak reference to a store that a task can carry.
private struct WeakStore: Sendable {
  weak var store: Store<Counter>?

  init(_ store: Store<Counter>?) {
    self.store = store
  }
}
