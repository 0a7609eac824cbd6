import Arboreal
import ArborealTesting
import Testing

/// An error for tests whose closures throw.
private struct Boom: Error {}

@MainActor
@Suite struct TestStoreAssertTests {
  // article begins: assert
  @Test func assertChecksTheStateWithoutSending() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    await store.send(.increment) { #expect($0.count == 1) }
    store.assert { model in
      #expect(model.count == 1)
      #expect(!model.isLoading)
    }
  }
  // article ends: assert

  @Test func assertFailsWhenTheCheckFails() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    withKnownIssue {
      store.assert { #expect($0.count == 2) }
    }
  }

  @Test func assertFailsOnAThrownError() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    withKnownIssue {
      store.assert { _ in throw Boom() }
    } matching: { issue in
      issue.description.contains("assert: the assertion threw Boom()")
    }
  }

  @Test func assertFailsWhileReceivedActionsWait() async {
    let signal = Signal()
    let store = TestStore(
      state: Loader(), environment: LoaderEnvironment(delivered: signal.continuation))
    await store.send(.load) { #expect($0.isLoading) }
    await signal.wait()
    withKnownIssue {
      store.assert { #expect($0.isLoading) }
    } matching: { issue in
      issue.description.contains(
        "assert was called while 1 received action had not been handled: loaded(42)")
    }
    await store.receive(.loaded(42)) {
      #expect($0.count == 42)
      #expect(!$0.isLoading)
    }
    await store.finish()
  }

  @Test func assertPassesInANonExhaustiveStoreWithHandledActions() async {
    let signal = Signal()
    let store = TestStore(
      state: Loader(), environment: LoaderEnvironment(delivered: signal.continuation),
      exhaustivity: .off)
    await store.send(.load)
    await signal.wait()
    store.assert { #expect($0.count == 42) }
    await store.finish()
  }
}

@MainActor
@Suite struct WithExhaustivityTests {
  // article begins: withExhaustivity
  @Test func actionsThatArriveWhileOffNeedNoReceive() async {
    let signal = Signal()
    let store = TestStore(
      state: Loader(), environment: LoaderEnvironment(delivered: signal.continuation))
    await store.withExhaustivity(.off) {
      await store.send(.load)  // no assertion needed
      await signal.wait()  // `.loaded(42)` arrives and is applied
    }
    #expect(store.exhaustivity == .on)
    await store.send(.increment) { #expect($0.count == 43) }
    await store.finish()  // passes: `.loaded(42)` arrived while it was off
  }
  // article ends: withExhaustivity

  @Test func turningItOffHandlesTheWaitingActions() async {
    let signal = Signal()
    let store = TestStore(
      state: Loader(), environment: LoaderEnvironment(delivered: signal.continuation))
    await store.send(.load) { #expect($0.isLoading) }
    await signal.wait()
    await store.withExhaustivity(.off) {
      store.assert { #expect($0.count == 42) }
    }
    await store.finish()
  }

  @Test func stillChecksWhatTheBodyAsserts() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    await withKnownIssue { () async -> Void in
      await store.withExhaustivity(.off) { () async -> Void in
        await store.send(.increment) { #expect($0.count == 5) }
      }
    }
    #expect(store.exhaustivity == .on)
  }

  @Test func turningItOnChecksTheBody() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment(), exhaustivity: .off)
    await withKnownIssue { () async -> Void in
      await store.withExhaustivity(.on) { () async -> Void in
        await store.send(.increment)
      }
    } matching: { issue in
      issue.description.contains("send(increment) changed 1 tracked property")
    }
    #expect(store.exhaustivity == .off)
    await store.send(.increment)  // unasserted again
  }

  @Test func actionsStillWaitingWhenItTurnsOffAgainAreHandled() async {
    let signal = Signal()
    let store = TestStore(
      state: Loader(), environment: LoaderEnvironment(delivered: signal.continuation),
      exhaustivity: .off)
    await store.withExhaustivity(.on) {
      await store.send(.load) { #expect($0.isLoading) }
      await signal.wait()  // `.loaded(42)` waits to be received
    }
    store.assert { #expect($0.count == 42) }
    await store.finish()
  }

  @Test func returnsWhatTheBodyReturns() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    let count = await store.withExhaustivity(.off) {
      await store.send(.bump)
      return store.state.count
    }
    #expect(count == 1)
  }

  @Test func restoresThePreviousValueWhenTheBodyThrows() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    await #expect(throws: Boom.self) {
      try await store.withExhaustivity(.off) {
        await store.send(.bump)
        throw Boom()
      }
    }
    #expect(store.exhaustivity == .on)
    await store.send(.increment) { #expect($0.count == 3) }
  }
}
