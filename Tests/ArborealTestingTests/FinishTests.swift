import Arboreal
import ArborealTesting
import Testing

@Suite actor FinishTests {
  @Test func passesWhenEverythingWasReceived() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    await store.send(.load) { #expect($0.isLoading) }
    await store.receive(.loaded(42)) {
      #expect($0.count == 42)
      #expect(!$0.isLoading)
    }
    await store.finish()
  }

  @Test func passesAfterACancelledEffect() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    await store.send(.startTimer)
    await store.send(.stopTimer)
    await store.finish()
  }

  @MainActor
  @Test func failsOnAnUnreceivedAction() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    await store.send(.load) { #expect($0.isLoading) }
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      issue.description.contains(
        "finish(): 1 effect action arrived and was not received: loaded(42)")
    }
  }

  @MainActor
  @Test func failsOnARunningEffectAndCancelsIt() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    let handle = await store.send(.startTimer)
    await withKnownIssue {
      await store.finish(timeout: .milliseconds(20))
    } matching: { issue in
      issue.description.contains("finish(): 1 effect cannot finish within 0.02 seconds")
        && issue.description.contains("cancellable by \"timer\"")
    }
    #expect(handle.isFinished)
    await store.finish()  // nothing left
  }

  @MainActor
  @Test func releasingTheStoreFailsOnAnUnreceivedAction() async {
    let signal = Signal()
    await withKnownIssue {
      let store = TestStore(
        state: Loader(), environment: LoaderEnvironment(delivered: signal.continuation))
      await store.send(.load) { #expect($0.isLoading) }
      await signal.wait()
    } matching: { issue in
      issue.description.contains("The test store was released with 1 unreceived action: loaded(42)")
    }
  }
}
