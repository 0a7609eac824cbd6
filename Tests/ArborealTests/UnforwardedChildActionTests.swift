import ArborealTestSupport
import Testing

@testable import Arboreal

/// A child whose effect answers a request with an action.
final class Echo: ArborealModel {
  enum Action: Sendable, Equatable {
    case ask
    case answered
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var answers = 0

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .ask: return Fx { .answered }
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

  init(swallows: Bool) {
    self.swallows = swallows
  }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .echo(.answered) where swallows:
      return .none
    case .echo(let action):
      return forward(action, to: \.echo, environment: (), tag: Action.echo)
    }
  }
}

/// Forgetting is never silent: a child's action that came back from its effect and that no
/// update forwarded to the child is reported in debug builds, naming the child and its place.
/// (Read from the probe's own list: the diagnostics handler is one global that the tests
/// running meanwhile replace.)
@MainActor
@Suite(.serialized) struct UnforwardedChildActionTests {
  #if DEBUG
    /// The reports about `EchoHost`'s child made since the probe counted `count` reports.
    private func reports(since count: Int) -> [String] {
      ForwardProbe.recentReports.suffix(ForwardProbe.reportCount - count)
        .filter { $0.contains("Echo in \\EchoHost.echo") }
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
  #endif
}
