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
    case show
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var ticker: Ticker?
  static let ticker = ChildRoute.child(\Remembers.ticker, tag: Action.ticker)
  static let routes: [ChildRoute<Remembers>] = [ticker]

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .ticker(let action): return forward(action, to: Self.ticker, environment: ())
    case .show: ticker = Ticker()
    }
    return .none
  }
}

/// What an app only logs in debug builds (a route `routes` misses, an action for a child that
/// is not there) fails the test store's step that made it, in every test: the global handler
/// hears a route's report once per process, a test store each time.
@Suite actor TestStoreDebugReportTests {
  /// The silent case: a subscribing child assigned where no listed route holds it never
  /// starts its subscriptions, so it never sends an action that a `forward` would report.
  /// The step that put it there fails, whatever the exhaustivity, naming the place.
  @Test(arguments: [Exhaustivity.on, .off])
  func aSubscribingChildPutWhereNoListedRouteHoldsItFailsTheStep(
    exhaustivity: Exhaustivity
  ) async {
    let store = TestStore(state: Forgets())
    store.exhaustivity = exhaustivity
    await withKnownIssue {
      _ = self
      await store.send(.show) { #expect($0.ticker?.ticks == 0) }
    } matching: {
      // `Forgets#n`: the instance's number depends on the tests running beside this one.
      $0.description.contains("send(show) put Ticker, a subscribing model, into Forgets#")
        && $0.description.contains(
          ".ticker, where no route listed in Forgets.routes holds it: its subscriptions do not "
            + "start")
    }
    await store.finish()
    // Listed, the same step passes.
    let listed = TestStore(state: Remembers())
    listed.exhaustivity = exhaustivity
    await listed.send(.show) { #expect($0.ticker?.ticks == 0) }
    await listed.finish()
  }

  @Test func aRouteMissingFromRoutesFailsEachTestStoreThatForwardsThroughIt() async {
    // Twice: the second store fails too, though the handler heard the report already.
    for _ in 1...2 {
      let store = TestStore(state: Forgets())
      await withKnownIssue {
        _ = self
        await store.send(.show) { #expect($0.ticker?.ticks == 0) }
      } matching: {
        $0.description.contains("where no route listed in Forgets.routes holds it")
      }
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

/// The failure for a subscribing child no listed route holds, in the other isolations: the
/// main actor, and none (Swift Testing runs a nonisolated test on the concurrent pool).
@Suite struct UnfollowedChildIsolationTests {
  @MainActor @Test func onTheMainActor() async {
    await Self.putATickerWhereNoListedRouteHoldsIt()
  }

  @Test func nonisolated() async {
    await Self.putATickerWhereNoListedRouteHoldsIt()
  }

  /// In the caller's isolation, which is the test store's.
  static func putATickerWhereNoListedRouteHoldsIt(
    isolation: isolated (any Actor)? = #isolation
  ) async {
    let store = TestStore(state: Forgets())
    await withKnownIssue {
      _ = isolation  // in the test store's isolation, as `_ = self` in an actor
      await store.send(.show) { #expect($0.ticker?.ticks == 0) }
    } matching: {
      $0.description.contains("where no route listed in Forgets.routes holds it")
    }
    await store.finish()
  }
}
