import Testing

@testable import Arboreal

/// The guarantee (Docs/Semantics.md, "The store"): `send` runs `update` synchronously on the main
/// actor inside one transaction.
@MainActor @Suite struct StoreSendTests {
  @Test func sendRunsUpdateBeforeItReturns() {
    let store = Store(state: Counter(), environment: ())
    store.send(.increment)
    #expect(store.state.count == 1)
    store.send(.set(10))
    store.send(.decrement)
    #expect(store.state.count == 9)
  }

  @Test func observersAreNotifiedOncePerActionWithEveryPropertyItChanged() {
    let store = Store(state: Counter(), environment: ())
    var notifications: [[String]] = []
    let token = observe { changes in
      _ = (store.state.count, store.state.step)
      if !changes.isEmpty { notifications.append(changes.names) }
    }
    store.send(.bump)  // count changes twice, step once: one notification
    #expect(notifications == [["count", "step"]])
    #expect(store.state.count == 2 && store.state.step == 2)
    store.send(.noop)
    store.send(.set(2))  // equal value: no change, no notification
    #expect(notifications.count == 1)
    store.send(.increment)
    #expect(notifications == [["count", "step"], ["count"]])
    token.cancel()
  }

  @Test func anObserverSeesTheStateAfterTheWholeUpdate() {
    let store = Store(state: Counter(), environment: ())
    var seen: [String] = []
    let token = observe { changes in
      let count = store.state.count
      let step = store.state.step
      if !changes.isEmpty { seen.append("\(count)/\(step)") }
    }
    store.send(.bump)
    #expect(seen == ["2/2"])  // never the intermediate 1/1 or 1/2
    token.cancel()
  }

  @Test func initWithActionSendsTheFirstAction() {
    let store = Store(state: Counter(), environment: (), action: .set(42))
    #expect(store.state.count == 42)
  }

  @Test func stateAndEnvironmentAreTheOnesGiven() {
    let model = Labelled()
    let store = Store(state: model, environment: "services")
    #expect(store.state === model)
    #expect(store.environment == "services")
  }

  @Test func aSendThatStartsNoEffectReturnsAFinishedHandleAndStartsNoTask() async {
    let store = Store(state: Counter(), environment: ())
    let handle = store.send(.increment)
    #expect(handle.isFinished)
    #expect(handle.group == nil)  // refers to nothing: no group, no task, no storage
    #expect(store.runningEffectCount == 0)
    #expect(store.openGroupCount == 0)
    await handle.value  // returns at once
    handle.cancel()  // does nothing
    #expect(store.state.count == 1)
  }
}

/// A model whose environment is a label.
final class Labelled: ArborealModel {
  enum Action: Sendable { case nothing }

  let registrar = TrackingRegistrar()
  func update(action: Action, environment: String) -> Fx<Action> { .none }
}
