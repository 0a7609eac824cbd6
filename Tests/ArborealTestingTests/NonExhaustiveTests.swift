import Arboreal
import ArborealTesting
import Testing

@Suite actor NonExhaustiveTests {
  @Test func unassertedChangesPass() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment(), exhaustivity: .off)
    await store.send(.bump)
    await store.send(.bump) { #expect($0.count == 2) }
  }

  @Test func effectActionsApplyAsTheyArrive() async {
    let signal = Signal()
    let store = TestStore(
      state: Loader(), environment: LoaderEnvironment(delivered: signal.continuation),
      exhaustivity: .off)
    await store.send(.loadTwice)
    await signal.wait()
    #expect(store.state.count == 2)
    await store.send(.increment)  // no failure for the unreceived actions
    await store.finish()
  }

  @Test func receiveSkipsToTheMatchingAction() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment(), exhaustivity: .off)
    await store.send(.loadTwice)
    await store.receive(.loaded(2)) { #expect($0.count == 2) }
    await store.finish()
  }

  @MainActor
  @Test func receiveFailsWhenNoMatchingActionArrives() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment(), exhaustivity: .off)
    await store.send(.loadTwice)
    await withKnownIssue {
      await store.receive(.loaded(3), timeout: .milliseconds(50))
    } matching: { issue in
      issue.description.contains("receive(loaded(3)): no such action arrived within")
    }
    await store.finish()
  }

  @MainActor
  @Test func stillFailsOnRunningEffectsAtFinish() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment(), exhaustivity: .off)
    await store.send(.startTimer)
    await withKnownIssue {
      await store.finish(timeout: .milliseconds(20))
    } matching: { issue in
      issue.description.contains("1 effect cannot finish")
    }
  }

  @Test func switchingOffAppliesTheWaitingActions() async {
    let signal = Signal()
    let store = TestStore(
      state: Loader(), environment: LoaderEnvironment(delivered: signal.continuation))
    await store.send(.loadTwice)
    await signal.wait()
    #expect(store.state.count == 0)
    store.exhaustivity = .off
    #expect(store.state.count == 2)
    await store.receive(.loaded(2))
    store.exhaustivity = .on
    await store.send(.increment) { #expect($0.count == 3) }
    await store.finish()
  }
}
