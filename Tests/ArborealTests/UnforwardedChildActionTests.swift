import ArborealTestSupport
import Testing

@testable import Arboreal

/// A child whose effect answers a request with an action.
final class Echo: ArborealModel {
  enum Action: Sendable, Equatable {
    case ask
    case askAtOnce
    case answered
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var answers = 0

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .ask: return Fx { .answered }
    case .askAtOnce: return .send(.answered)
    case .answered:
      answers += 1
      return .none
    }
  }
}

/// A parent that forwards its child's actions, except the answers when `swallows` is set.
final class EchoHost: ArborealModel {
  enum Action: Sendable, Equatable {
    case echo(Echo.Action)
  }

  let registrar = TrackingRegistrar()
  let echo = Echo()
  let swallows: Bool

  static let echo = ChildRoute.child(\EchoHost.echo, tag: Action.echo)

  init(swallows: Bool) {
    self.swallows = swallows
  }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .echo(.answered) where swallows:
      return .none
    case .echo(let action):
      return forward(action, to: Self.echo, environment: ())
    }
  }
}

/// A grandparent that forwards everything to its `EchoHost`.
final class EchoGrandHost: ArborealModel {
  enum Action: Sendable, Equatable {
    case host(EchoHost.Action)
  }

  let registrar = TrackingRegistrar()
  let host: EchoHost

  static let host = ChildRoute.child(\EchoGrandHost.host, tag: Action.host)

  init(swallows: Bool) {
    host = EchoHost(swallows: swallows)
  }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .host(let action):
      return forward(action, to: Self.host, environment: ())
    }
  }
}

/// Forgetting is never silent: a child's action that came back from its effect and that no
/// update forwarded to the child is reported in debug builds, naming the child and its place.
/// (Read from the probe's own list: the diagnostics handler is one global that the tests
/// running meanwhile replace.)
@Suite(.serialized) actor UnforwardedChildActionTests {
  #if DEBUG
    /// The reports about `EchoHost`'s child made since the probe counted `count` reports.
    private func reports(since count: Int) -> [String] {
      ForwardProbe.recentReports.suffix(ForwardProbe.reportCount - count)
        .filter { $0.contains("EchoHost.echo (Echo)") }
    }

    @Test func aChildsActionThatNoUpdateForwardedIsReported() async {
      let before = ForwardProbe.reportCount
      let store = Store(state: EchoHost(swallows: true), environment: ())
      await store.send(.echo(.ask)).value
      #expect(store.state.echo.answers == 0)
      let reported = reports(since: before)
      #expect(reported.count == 1)
      #expect(reported.first?.contains("echo(ArborealTests.Echo.Action.answered)") == true)
      #expect(reported.first?.contains("no update forwarded it") == true)
    }

    @Test func aForwardedChildsActionIsNotReported() async {
      let before = ForwardProbe.reportCount
      let store = Store(state: EchoHost(swallows: false), environment: ())
      await store.send(.echo(.ask)).value
      #expect(store.state.echo.answers == 1)
      #expect(reports(since: before).isEmpty)
    }

    @Test func aChildsActionSentWithFxSendThatNoUpdateForwardedIsReported() async {
      let before = ForwardProbe.reportCount
      let store = Store(state: EchoHost(swallows: true), environment: ())
      await store.send(.echo(.askAtOnce)).value
      #expect(store.state.echo.answers == 0)
      #expect(reports(since: before).count == 1)
    }

    /// The reports naming the view store of an `Echo` made since the probe counted `count`.
    private func viewStoreReports(since count: Int) -> [String] {
      ForwardProbe.recentReports.suffix(ForwardProbe.reportCount - count)
        .filter { $0.contains("was sent to the view store of Echo") }
    }

    @Test func anActionSentToAChildsViewStoreThatNoUpdateForwardedIsReported() {
      let before = ForwardProbe.reportCount
      let store = Store(state: EchoHost(swallows: true), environment: ())
      store.viewStore(EchoHost.echo).send(.answered)
      #expect(store.state.echo.answers == 0)
      let reported = viewStoreReports(since: before)
      #expect(reported.count == 1)
      #expect(
        reported.first?.contains("answered was sent to the view store of Echo in EchoHost") == true)
    }

    @Test func anActionSentToAChildsViewStoreAndForwardedIsNotReported() {
      let before = ForwardProbe.reportCount
      let store = Store(state: EchoHost(swallows: false), environment: ())
      store.viewStore(EchoHost.echo).send(.answered)
      #expect(store.state.echo.answers == 1)
      #expect(viewStoreReports(since: before).isEmpty)
    }

    @Test func aRootViewStoreIsNotAChildsAndReportsNothing() {
      let before = ForwardProbe.reportCount
      let store = Store(state: EchoHost(swallows: true), environment: ())
      store.viewStore().send(.echo(.answered))
      #expect(ForwardProbe.reportCount == before)
    }

    @Test func aGrandchildsViewStoreIsJudgedByTheGrandchild() {
      let before = ForwardProbe.reportCount
      let forwarding = Store(state: EchoGrandHost(swallows: false), environment: ())
      forwarding.viewStore(EchoGrandHost.host)
        .viewStore(EchoHost.echo).send(.answered)
      #expect(forwarding.state.host.echo.answers == 1)
      #expect(ForwardProbe.reportCount == before)

      let swallowing = Store(state: EchoGrandHost(swallows: true), environment: ())
      swallowing.viewStore(EchoGrandHost.host)
        .viewStore(EchoHost.echo).send(.answered)
      #expect(swallowing.state.host.echo.answers == 0)
      #expect(viewStoreReports(since: before).count == 1)
    }
  #endif
}
