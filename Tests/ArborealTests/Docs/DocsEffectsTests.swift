import Arboreal
import ArborealTestSupport
import Testing

// The code of the "Effects" article (Arboreal.docc/RunningEffects.md), verbatim between the
// `article begins` and `article ends` markers, so that it keeps compiling and doing what the
// article says. `.ci/check-article-code.py` checks that the article still shows it.

enum DocsEffects {
  // article begins: search
  final class Search: ArborealModel {
    enum Action: Sendable, Equatable {
      case queryChanged(String)
      case resultsLoaded([String])
      case searchFailed(String)
      case cancelSearch
      case logOpened
    }

    struct Environment: Sendable {
      var search: @Sendable (String) async throws -> [String]
      var log: @Sendable (String) async -> Void
    }

    /// Identifies the search effect; a type of its own cannot collide with another feature's.
    struct SearchID: Hashable, Sendable {}

    let registrar = TrackingRegistrar()
    @Tracked private(set) var query = ""
    @Tracked private(set) var results: [String] = []
    @Tracked private(set) var error: String?

    func update(action: Action, environment: Environment) -> Fx<Action> {
      switch action {
      case .queryChanged(let query):
        self.query = query
        return Fx {
          .resultsLoaded(try await environment.search(query))
        } catch: { error in
          .searchFailed("\(error)")
        }
        .cancellable(id: SearchID(), cancelInFlight: true)  // the latest query wins
      case .resultsLoaded(let results):
        self.results = results
        error = nil
        return .none
      case .searchFailed(let message):
        error = message
        return .none
      case .cancelSearch:
        return .cancel(id: SearchID())
      case .logOpened:
        let query = self.query  // copy what the effect needs: it cannot capture `self`
        return .run { _ in await environment.log("opened with \(query)") }  // sends nothing
      }
    }
  }
  // article ends: search

  // article begins: ticker
  final class Ticker: ArborealModel {
    enum Action: Sendable {
      case start(count: Int)
      case tick
      case countDown(from: Int)
      case setRemaining(Int)
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var ticks = 0
    @Tracked private(set) var remaining = 0

    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .start(let count):
        // Any `AsyncSequence`: a loop sends each element, in order.
        let ticks = AsyncStream<Action> { continuation in
          for _ in 0..<count { continuation.yield(.tick) }
          continuation.finish()
        }
        return .run { send in
          for await tick in ticks { await send(tick) }
        }
      case .tick:
        ticks += 1
        return .none
      case .countDown(let start):
        // `run` sends as many actions as it likes; each `send` waits until it is handled.
        return .run { send in
          for value in stride(from: start, through: 0, by: -1) {
            await send(.setRemaining(value))
          }
        }
      case .setRemaining(let value):
        remaining = value
        return .none
      }
    }
  }
  // article ends: ticker
}

/// The article prints; the test checks the state instead.
private func print(_ items: Any...) {}

/// The search service the tests use: "slow" never answers until it is cancelled, "boom"
/// fails, anything else answers at once.
private struct FakeSearchError: Error, CustomStringConvertible {
  var description: String { "the service is down" }
}

@MainActor
@Suite struct DocsEffectsTests {
  typealias Search = DocsEffects.Search
  typealias Ticker = DocsEffects.Ticker

  static func environment(log: Log<String> = Log()) -> Search.Environment {
    Search.Environment(
      search: { query in
        if query == "slow" { try await Task.sleep(for: .seconds(3600)) }
        if query == "boom" { throw FakeSearchError() }
        return ["\(query) 1", "\(query) 2"]
      },
      log: { log.append($0) }
    )
  }

  @Test func awaitingAndCancelInFlight() async {
    // article begins: await
    let store = Store(state: Search(), environment: Self.environment())

    let slow = store.send(.queryChanged("slow"))  // its effect waits for an answer
    await store.send(.queryChanged("swift")).value  // cancels "slow", then waits for "swift"
    await slow.value  // returns: the effect was cancelled
    print(store.state.results)  // ["swift 1", "swift 2"]
    // article ends: await

    #expect(store.state.results == ["swift 1", "swift 2"])
    #expect(slow.isFinished)
  }

  @Test func errorsBecomeActions() async {
    // article begins: errors
    let store = Store(state: Search(), environment: Self.environment())

    await store.send(.queryChanged("boom")).value
    print(store.state.error ?? "")  // the service is down
    // article ends: errors

    #expect(store.state.error == "the service is down")
    #expect(store.state.results.isEmpty)
  }

  @Test func cancellingByIDAndByHandle() async {
    // article begins: cancel
    let store = Store(state: Search(), environment: Self.environment())

    let byID = store.send(.queryChanged("slow"))
    store.send(.cancelSearch)  // .cancel(id: SearchID())
    await byID.value  // returns at once: the effect delivered nothing

    let byHandle = store.send(.queryChanged("slow"))
    byHandle.cancel()  // cancels the effects this one action started
    await byHandle.value
    // article ends: cancel

    #expect(store.state.results.isEmpty)
    #expect(store.state.error == nil)
    #expect(byID.isFinished && byHandle.isFinished)
  }

  @Test func anEffectThatSendsNothing() async {
    let log = Log<String>()
    let store = Store(state: Search(), environment: Self.environment(log: log))
    store.send(.queryChanged("swift"))
    await store.send(.logOpened).value
    #expect(log.all == ["opened with swift"])
  }

  @Test func sequencesAndRun() async {
    // article begins: sequence
    let store = Store(state: Ticker(), environment: ())

    await store.send(.start(count: 3)).value
    print(store.state.ticks)  // 3
    // article ends: sequence

    #expect(store.state.ticks == 3)

    let seen = Log<Int>()
    let token = observe { _ in seen.append(store.state.remaining) }
    // article begins: run
    await store.send(.countDown(from: 2)).value  // remaining: 2, then 1, then 0
    // article ends: run
    token.cancel()
    #expect(seen.all == [0, 2, 1, 0])
  }
}
