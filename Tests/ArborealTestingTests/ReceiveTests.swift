import Arboreal
import ArborealTesting
import Testing

@Suite actor ReceiveTests {
  @Test func appliesAnEffectActionOnlyWhenReceived() async {
    let signal = Signal()
    let store = TestStore(
      state: Loader(), environment: LoaderEnvironment(delivered: signal.continuation))
    await store.send(.load) { #expect($0.isLoading) }
    await signal.wait()
    #expect(store.state.count == 0)  // arrived, not applied yet
    await store.receive(.loaded(42)) { model in
      #expect(model.count == 42)
      #expect(model.isLoading == false)
    }
    await store.finish()
  }

  @Test func receivesWithAPredicate() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment(value: 7))
    await store.send(.load) { #expect($0.isLoading) }
    await store.receive(where: { if case .loaded = $0 { true } else { false } }) { model in
      #expect(model.count == 7)
      #expect(!model.isLoading)
    }
    await store.finish()
  }

  @Test func receivesSeveralActionsInOrder() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    await store.send(.loadTwice)
    await store.receive(.loaded(1)) { #expect($0.count == 1) }
    await store.receive(.loaded(2)) { #expect($0.count == 2) }
    await store.finish()
  }

  @MainActor
  @Test func failsOnADifferentAction() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    await store.send(.load) { #expect($0.isLoading) }
    await withKnownIssue {
      await store.receive(.loaded(1)) { #expect($0.count == 1) }
    } matching: { issue in
      issue.description.contains("receive(loaded(1)): received loaded(42) instead")
    }
    // The received action was applied anyway.
    #expect(store.state.count == 42)
    await store.finish()
  }

  @MainActor
  @Test func failsWhenNoActionArrives() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    await withKnownIssue {
      await store.receive(.tick, timeout: .milliseconds(20))
    } matching: { issue in
      issue.description.contains("receive(tick): no action arrived within")
        && issue.description.contains("No effect is running")
    }
  }

  @MainActor
  @Test func namesTheRunningEffectsWhenNoActionArrives() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    await store.send(.startTimer)
    await withKnownIssue {
      await store.receive(.tick, timeout: .milliseconds(20))
    } matching: { issue in
      issue.description.contains("No effect can go on:")
        && issue.description.contains("cancellable by \"timer\"")
    }
    await store.send(.stopTimer)
    await store.finish()
  }

  @MainActor
  @Test func failsOnAChangeTheAssertionDidNotRead() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    let owner = "\(store.state.$isLoading.owner!)"
    await store.send(.load) { #expect($0.isLoading) }
    await withKnownIssue {
      await store.receive(.loaded(42)) { #expect($0.count == 42) }
    } matching: { issue in
      issue.description.contains("receive(loaded(42)) changed 1 tracked property")
        && issue.description.contains("\(owner).isLoading = false")
    }
    await store.finish()
  }

  @MainActor
  @Test func failsOnASendWhileActionsWait() async {
    let signal = Signal()
    let store = TestStore(
      state: Loader(), environment: LoaderEnvironment(delivered: signal.continuation))
    await store.send(.loadTwice)
    await signal.wait()
    await withKnownIssue {
      await store.send(.touch)
    } matching: { issue in
      issue.description.contains(
        "send(touch) was sent while 2 received actions had not been handled: loaded(1), loaded(2)"
      )
    }
    await store.receive(.loaded(1)) { #expect($0.count == 1) }
    await store.receive(.loaded(2)) { #expect($0.count == 2) }
    await store.finish()
  }
}
