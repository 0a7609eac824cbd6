import Arboreal
import ArborealTesting
import Testing

// The code of the "Time" article (Arboreal.docc/Time.md), verbatim between the
// `article begins` and `article ends` markers, so that it keeps compiling and doing what the
// article says.

enum DocsTime {
  // article begins: model
  final class Search: ArborealModel {
    enum Action: Sendable, Equatable {
      case queryChanged(String)
      case resultsLoaded([String])
      case refreshTapped
      case showToast(String)
      case hideToast
    }

    struct Environment: Sendable {
      /// Where effects get time from: a `TestClock` or an `ImmediateClock` in tests.
      var clock: any Clock<Duration> = ContinuousClock()
      var search: @Sendable (String) async -> [String]
    }

    struct SearchID: Hashable, Sendable {}
    struct RefreshID: Hashable, Sendable {}

    let registrar = TrackingRegistrar()
    @Tracked private(set) var query = ""
    @Tracked private(set) var results: [String] = []
    @Tracked private(set) var toast: String?

    func update(action: Action, environment: Environment) -> Fx<Action> {
      switch action {
      case .queryChanged(let query):
        self.query = query
        // Searches once typing pauses for 300 ms: each keystroke restarts the wait.
        return Fx { .resultsLoaded(await environment.search(query)) }
          .debounce(id: SearchID(), for: .milliseconds(300), clock: environment.clock)
      case .resultsLoaded(let results):
        self.results = results
        return .none
      case .refreshTapped:
        // At most one refresh a second: taps within the second are dropped.
        let query = self.query
        return Fx { .resultsLoaded(await environment.search(query)) }
          .throttle(id: RefreshID(), for: .seconds(1), clock: environment.clock)
      case .showToast(let text):
        toast = text
        return Fx { .hideToast }.delay(for: .seconds(3), clock: environment.clock)
      case .hideToast:
        toast = nil
        return .none
      }
    }
  }
  // article ends: model
}

@Suite actor DocsTimeTests {
  typealias Search = DocsTime.Search

  // article begins: debounce-test
  @Test func searchesOnceTypingPauses() async {
    let clock = TestClock()
    let store = TestStore(
      state: Search(), environment: .init(clock: clock, search: { ["\($0) result"] }))
    await store.send(.queryChanged("sw")) { #expect($0.query == "sw") }
    await clock.advance(by: .milliseconds(200))
    await store.send(.queryChanged("swift")) { #expect($0.query == "swift") }
    await clock.advance(by: .milliseconds(200))  // "sw" would have been due: nothing runs
    await clock.advance(by: .milliseconds(100))
    await store.receive(.resultsLoaded(["swift result"])) {
      #expect($0.results == ["swift result"])
    }
    await store.finish()
  }
  // article ends: debounce-test

  // article begins: throttle-test
  @Test func refreshesAtMostOnceASecond() async {
    let clock = TestClock()
    let store = TestStore(state: Search(), environment: .init(clock: clock, search: { _ in [] }))
    await store.send(.refreshTapped)
    await store.receive(.resultsLoaded([]))
    await store.send(.refreshTapped)  // within the second: dropped
    await clock.advance(by: .seconds(1))
    await store.send(.refreshTapped)
    await store.receive(.resultsLoaded([]))
    await clock.advance(by: .seconds(1))
    await store.finish()  // fails if the dropped refresh had run
  }
  // article ends: throttle-test

  // article begins: delay-test
  @Test func hidesTheToastAfterThreeSeconds() async {
    let clock = TestClock()
    let store = TestStore(state: Search(), environment: .init(clock: clock, search: { _ in [] }))
    await store.send(.showToast("Saved")) { #expect($0.toast == "Saved") }
    await clock.advance(by: .seconds(2))
    #expect(clock.pendingCount == 1)  // not due yet
    await clock.advance(by: .seconds(1))
    await store.receive(.hideToast) { #expect($0.toast == nil) }
    await store.finish()
  }

  @Test func anImmediateClockSkipsTheWait() async {
    let store = TestStore(
      state: Search(), environment: .init(clock: ImmediateClock(), search: { _ in [] }))
    await store.send(.showToast("Saved")) { #expect($0.toast == "Saved") }
    await store.receive(.hideToast) { #expect($0.toast == nil) }
    await store.finish()
  }
  // article ends: delay-test
}
