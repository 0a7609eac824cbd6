import Arboreal
import Testing

// The code of the article "Where a store lives" (Arboreal.docc/Isolation.md), verbatim between
// the `article begins` and `article ends` markers, so that it keeps compiling and doing what
// the article says.

// article begins: session
/// One session's store, on an actor of its own: its updates run there, and its effects'
/// actions come back there.
actor CounterSession {
  let store: Store<Counter>

  init() {
    store = Store(state: Counter(), environment: ())
  }

  func increment() async -> Int {
    await store.send(.increment).value
    return store.state.count
  }
}
// article ends: session

@Suite struct DocsIsolationTests {
  @Test func sessionsOnActorsOfTheirOwn() async {
    // article begins: sessions
    let sessions = (0..<100).map { _ in CounterSession() }
    let total = await withTaskGroup(of: Int.self) { group in
      for session in sessions {
        group.addTask { await session.increment() }
      }
      return await group.reduce(0, +)
    }
    #expect(total == 100)
    // article ends: sessions
  }
}
