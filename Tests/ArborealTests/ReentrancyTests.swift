import Arboreal
import Testing

/// The guarantee (Docs/Semantics.md, "The store"): actions sent while the store is busy are queued,
/// first in first out, and the same actions in the same order give the same state.
@MainActor @Suite struct ReentrancyTests {
  private func makeStore() -> (Store<Relay>, Sender) {
    let sender = Sender()
    let store = Store(state: Relay(), environment: sender)
    sender.connect(store)
    return (store, sender)
  }

  @Test func actionsSentFromInsideAnUpdateRunAfterItFirstInFirstOut() {
    let (store, _) = makeStore()
    store.send(
      .fanOut("outer", [.record("a"), .fanOut("inner", [.record("c")]), .record("b")]))
    // The outer update finishes before any queued action; the inner fan-out's own action is
    // queued behind "b".
    #expect(store.state.log == ["outer", "outer done", "a", "inner", "inner done", "b", "c"])
  }

  @Test func actionsSentFromAnObserverAreQueuedBehindTheCurrentOne() {
    let (store, sender) = makeStore()
    var seenWhileSending: [[String]] = []
    let token = observe { changes in
      let log = store.state.log
      guard !changes.isEmpty, log.last == "trigger" else { return }
      sender.send(.record("from observer 1"))
      sender.send(.record("from observer 2"))
      // Not handled yet: the store is still busy with "trigger".
      seenWhileSending.append(store.state.log)
    }
    store.send(.record("trigger"))
    #expect(seenWhileSending == [["trigger"]])
    // Handled before the outer send returned, in the order they were sent.
    #expect(store.state.log == ["trigger", "from observer 1", "from observer 2"])
    token.cancel()
  }

  @Test func replayingTheRecordedLogOnAFreshStoreGivesTheSameState() async {
    // A run with re-entrant sends from updates and from an observer, and effect actions.
    let (store, sender) = makeStore()
    var recorded: [Relay.Action] = []
    store.addLogHandler { entry in recorded.append(entry.action) }
    let token = observe { changes in
      let last = store.state.log.last
      if !changes.isEmpty, last == "b" { sender.send(.record("after b")) }
    }
    store.send(.fanOut("start", [.record("a"), .record("b")]))
    await store.send(.recordLater("from effect")).value
    store.send(.fanOut("again", [.fanOut("nested", [.record("deep")])]))
    token.cancel()

    // The log holds every action as the store handled it, including those that updates,
    // observers and effects sent; so nothing may generate them again: the fresh store has no
    // observer, its updates' sends go nowhere, and the comparison comes before any effect it
    // starts could deliver (no suspension point in between).
    let replay = Store(state: Relay(), environment: Sender())
    for action in recorded { replay.send(action) }
    #expect(replay.state.log == store.state.log)
    #expect(
      store.state.log == [
        "start", "start done", "a", "b", "after b", "from effect", "again", "again done",
        "nested", "nested done", "deep",
      ])
  }

  @Test func theSameActionsInTheSameOrderGiveTheSameState() {
    let actions: [Counter.Action] = [.increment, .setStep(5), .bump, .decrement, .set(3), .bump]
    let first = Store(state: Counter(), environment: ())
    let second = Store(state: Counter(), environment: ())
    for action in actions { first.send(action) }
    for action in actions { second.send(action) }
    #expect(first.state.count == second.state.count)
    #expect(first.state.step == second.state.step)
    #expect((first.state.count, first.state.step) == (5, 7))
  }
}
