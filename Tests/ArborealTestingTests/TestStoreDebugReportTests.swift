import Arboreal
import ArborealTesting
import Testing

/// A child with subscriptions (none wanted now): a route over it must be listed.
private final class Ticker: SubscribingModel {
  enum Action: Sendable, Equatable { case tick }
  let registrar = TrackingRegistrar()
  @Tracked private(set) var ticks = 0

  func update(action: Action, environment: Void) -> Fx<Action> {
    ticks += 1
    return .none
  }

  func subscriptions(environment: Void) -> [Subscription<Action>] { [] }
}

/// A parent that forwards to its ticker through a route it forgot to list in `routes`.
private final class Forgets: ArborealModel {
  enum Action: Sendable, Equatable {
    case ticker(PresentationAction<Ticker.Action>)
    case show
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var ticker: Ticker?
  static let ticker = ChildRoute.child(\Forgets.ticker, tag: Action.ticker)

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .ticker(let action): return forward(action, to: Self.ticker, environment: ())
    case .show: ticker = Ticker()
    }
    return .none
  }
}

/// The same parent, with its route listed.
private final class Remembers: ArborealModel {
  enum Action: Sendable, Equatable {
    case ticker(PresentationAction<Ticker.Action>)
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var ticker: Ticker?
  static let ticker = ChildRoute.child(\Remembers.ticker, tag: Action.ticker)
  static let routes: [ChildRoute<Remembers>] = [ticker]

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .ticker(let action): forward(action, to: Self.ticker, environment: ())
    }
  }
}

/// What an app only logs in debug builds (a route `routes` misses, an action for a child that
/// is not there) fails the test store's step that made it, in every test: the global handler
/// hears a route's report once per process, a test store each time.
@Suite actor TestStoreDebugReportTests {
  @Test func aRouteMissingFromRoutesFailsEachTestStoreThatForwardsThroughIt() async {
    // Twice: the second store fails too, though the handler heard the report already.
    for _ in 1...2 {
      let store = TestStore(state: Forgets())
      await store.send(.show) { #expect($0.ticker?.ticks == 0) }
      await withKnownIssue {
        _ = self  // on the suite's actor, where the test store lives
        await store.send(.ticker(.presented(.tick))) { #expect($0.ticker?.ticks == 1) }
      } matching: {
        $0.description.contains("send(ticker(")
          && $0.description.contains("Forgets.routes does not list")
      }
      await store.finish()
    }
  }

  @Test func anActionForAChildThatIsNotThereFailsTheStepThatSentIt() async {
    let store = TestStore(state: Remembers())
    await withKnownIssue {
      _ = self  // on the suite's actor, where the test store lives
      await store.send(.ticker(.presented(.tick)))
    } matching: {
      $0.description.contains("dropped tick sent to Remembers.ticker (Ticker)")
    }
    // Reported once: the next step starts clean.
    await store.send(.ticker(.dismiss))
    await store.finish()
  }
}
