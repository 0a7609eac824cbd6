import Arboreal
import ArborealTesting
import Testing

/// An error for tests whose closures throw.
private struct Boom: Error {}

@Suite actor TestStoreAssertTests {
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

  @MainActor
  @Test func assertFailsWhenTheCheckFails() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    withKnownIssue {
      store.assert { #expect($0.count == 2) }
    }
  }

  @MainActor
  @Test func assertFailsOnAThrownError() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    withKnownIssue {
      store.assert { _ in throw Boom() }
    } matching: { issue in
      issue.description.contains("assert: the assertion threw Boom()")
    }
  }

  @MainActor
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

@Suite actor WithExhaustivityTests {
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

  @MainActor
  @Test func stillChecksWhatTheBodyAsserts() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    await withKnownIssue { () async -> Void in
      await store.withExhaustivity(.off) { () async -> Void in
        await store.send(.increment) { #expect($0.count == 5) }
      }
    }
    #expect(store.exhaustivity == .on)
  }

  @MainActor
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

  @MainActor
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

  @MainActor
  @Test func returnsWhatTheBodyReturns() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    let count = await store.withExhaustivity(.off) {
      await store.send(.bump)
      return store.state.count
    }
    #expect(count == 1)
  }

  @MainActor
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

/// `receive` by case, for actions whose payload is not `Equatable`.
@Suite actor ReceiveByCaseTests {
  /// A payload that is not `Equatable`.
  struct Page: Sendable {
    var items: [String]
  }

  final class Feed: ArborealModel {
    enum Action: Sendable {
      case refresh
      case loaded(Page)
      case failed(Page)
      case cleared
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var items: [String] = []

    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .refresh:
        return Fx { .loaded(Page(items: ["a", "b"])) }
      case .loaded(let page):
        items = page.items
      case .failed, .cleared:
        items = []
      }
      return .none
    }
  }

  // article begins: receive-case
  @Test func receivesByCase() async {
    let store = TestStore(state: Feed())
    await store.send(.refresh)
    await store.receive(Feed.Action.loaded) { model in
      #expect(model.items == ["a", "b"])
    }
    await store.finish()
  }
  // article ends: receive-case

  @MainActor
  @Test func anotherCaseWithTheSamePayloadDoesNotMatch() async {
    let store = TestStore(state: Feed())
    await store.send(.refresh)
    await withKnownIssue {
      await store.receive(Feed.Action.failed)
    } matching: { issue in
      issue.description.contains("receive(a case taking Page): received loaded(")
    }
    await store.finish()
  }

  /// A model whose actions have payloads of every shape.
  final class Shapes: ArborealModel {
    enum Action: Sendable {
      case start
      case two(Int, String)
      case labelled(count: Int)
      indirect case nested(Action)
    }

    let registrar = TrackingRegistrar()

    func update(action: Action, environment: Void) -> Fx<Action> {
      guard case .start = action else { return .none }
      return .merge(
        .send(.two(1, "a")), .send(.labelled(count: 2)), .send(.nested(.labelled(count: 3))))
    }
  }

  @Test func matchesCasesOfEveryShape() async {
    let store = TestStore(state: Shapes())
    await store.send(.start)
    await store.receive(Shapes.Action.two)
    await store.receive(Shapes.Action.labelled)
    await store.receive(Shapes.Action.nested)
    await store.finish()
  }
}

/// The state before an action, at hand in the assertion.
@Suite actor CapturingBeforeTests {
  // article begins: capturing
  @Test func comparesWithTheStateBefore() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    await store.send(.bump, capturing: { ($0.count, $0.step) }) { model, before in
      #expect(model.count == before.0 + 1)
      #expect(model.step == before.1 + 1)
    }
  }
  // article ends: capturing

  @MainActor
  @Test func whatBeforeReadsIsNotAnAssertion() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    await withKnownIssue {
      await store.send(.bump, capturing: \.step) { model, step in
        #expect(model.count == 1)
        _ = step
      }
    } matching: { issue in
      issue.description.contains("changed 1 tracked property that the assertion did not check")
        && issue.description.contains(".step = 2")
    }
  }
}
