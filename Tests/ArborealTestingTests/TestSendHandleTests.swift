import Arboreal
import ArborealTesting
import Testing

/// Awaiting the handle of a test store's send: it waits for the effects, and fails (instead of
/// hanging) when their actions wait to be received.
@Suite actor TestSendHandleTests {
  @MainActor
  @Test func awaitingTheHandleBeforeReceivingFailsAfterTheTimeoutAndSaysToReceive() async {
    let signal = Signal()
    let store = TestStore(
      state: Loader(), environment: LoaderEnvironment(delivered: signal.continuation))
    let load = await store.send(.load) { #expect($0.isLoading) }
    await signal.wait()  // `.loaded(42)` has arrived and waits to be received
    store.timeout = .milliseconds(50)
    await withKnownIssue {
      await load.value
    } matching: { issue in
      issue.description.contains("send(load).value: the effects cannot finish within")
        && issue.description.contains("1 action delivered by effects waits to be received: ")
        && issue.description.contains("loaded(42)")
        && issue.description.contains("`await store.receive(…)`")
        && issue.description.contains("`await store.finish()`")
    }
    #expect(!load.isFinished)
    store.timeout = nil
    await store.receive(.loaded(42)) {
      #expect($0.count == 42)
      #expect(!$0.isLoading)
    }
    await load.value
    #expect(load.isFinished)
    await store.finish()
  }

  // The "Awaiting a send" section of TestingWithTestStore.md, verbatim between the markers.
  @Test func receiveFirstThenAwaitTheHandle() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    // article begins: awaiting-a-send
    let load = await store.send(.load) { #expect($0.isLoading) }
    await store.receive(.loaded(42)) { model in
      #expect(model.count == 42)
      #expect(!model.isLoading)
    }
    await load.value
    // article ends: awaiting-a-send
    #expect(load.isFinished)
    await store.finish()
  }

  @Test func awaitingTheHandleAfterReceivingReturnsWithoutAFailure() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    let load = await store.send(.loadTwice)
    await store.receive(.loaded(1)) { #expect($0.count == 1) }
    await store.receive(.loaded(2)) { #expect($0.count == 2) }
    await load.value
    #expect(load.isFinished)
    await store.finish()
  }

  @Test func aHandleOnNoEffectIsFinished() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    let handle = await store.send(.increment) { #expect($0.count == 1) }
    #expect(handle.isFinished)
    await handle.value
  }

  @Test func cancellingTheHandleCancelsTheEffects() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    let timer = await store.send(.startTimer)
    #expect(!timer.isFinished)
    timer.cancel()
    await timer.value
    #expect(timer.isFinished)
    await store.finish()
  }

  @MainActor
  @Test func theStoresTimeoutBoundsReceive() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    store.timeout = .milliseconds(20)
    await withKnownIssue {
      await store.receive(.tick)
    } matching: { issue in
      issue.description.contains("no action arrived within 0.02 seconds")
    }
  }
}
