import Arboreal
import ArborealTestSupport
import Testing

// The code of the "Getting Started" article (Arboreal.docc/GettingStarted.md), verbatim between
// the `article begins` and `article ends` markers, so that it keeps compiling and doing what
// the article says (the `store` region is also on the Arboreal.docc/Arboreal.md landing page).
// `.ci/check-article-code.py` checks that the articles still show it.

enum GettingStarted {
  // article begins: model
  final class Counter: ArborealModel {
    enum Action: Sendable {
      case increment
      case decrement
      case randomButtonTapped
      case randomNumberLoaded(Int)
    }

    struct Environment: Sendable {
      var randomNumber: @Sendable () async -> Int
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var count = 0
    @Tracked private(set) var isLoading = false

    func update(action: Action, environment: Environment) -> Fx<Action> {
      switch action {
      case .increment:
        count += 1
        return .none
      case .decrement:
        count -= 1
        return .none
      case .randomButtonTapped:
        isLoading = true
        return Fx { .randomNumberLoaded(await environment.randomNumber()) }
      case .randomNumberLoaded(let number):
        isLoading = false
        count = number
        return .none
      }
    }
  }
  // article ends: model
}

@MainActor
@Suite struct DocsGettingStartedTests {
  typealias Counter = GettingStarted.Counter

  @Test func theArticleRunsAsItSays() async {
    let lines = Log<String>()
    func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }

    // article begins: store
    let store = Store(
      state: Counter(),
      environment: .init(randomNumber: { 42 })
    )

    store.send(.increment)
    store.send(.increment)
    print(store.state.count)  // 2
    // article ends: store

    // article begins: observe
    let token = observe { changes in
      print("count: \(store.state.count), loading: \(store.state.isLoading)", changes)
    }  // count: 2, loading: false

    store.send(.decrement)  // count: 1, loading: false count
    // article ends: observe

    // article begins: effect
    let handle = store.send(.randomButtonTapped)  // count: 1, loading: true isLoading
    await handle.value  // count: 42, loading: false isLoading, count
    print(store.state.count)  // 42
    token.cancel()
    // article ends: effect

    #expect(
      lines.all == [
        "2",
        "count: 2, loading: false ",
        "count: 1, loading: false count",
        "count: 1, loading: true isLoading",
        "count: 42, loading: false isLoading, count",
        "42",
      ])
  }
}
