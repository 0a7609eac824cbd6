import Arboreal
import ArborealDevtools
import Testing

/// The readable change log: each action and what it changed, old → new.
@Suite actor ChangeLogTests {
  @Test func eachActionPrintsWithItsChangesOldToNew() async {
    let store = Store(state: Board(), environment: ())
    var output: [String] = []
    store.printChanges { output.append($0) }
    store.send(.rename("groceries"))
    store.send(.add("milk"))
    store.send(.card(id: 1, .toggle))
    store.send(.noop)
    await store.send(.load(1)).value

    #expect(
      output == [
        """
        #1 rename("groceries")
          Board#board.title: "" → "groceries"
        """,
        """
        #2 add("milk")
          Board#board.cards: edited → [ArborealDevtoolsTests.Card]
        """,
        """
        #3 card(id: 1, ArborealDevtoolsTests.Card.Action.toggle)
          Card#1.done: false → true
        """,
        """
        #4 noop
          (no change)
        """,
        """
        #5 load(1)
          (no change)
        """,
        """
        #6 loaded(1) ← effect of #5
          Board#board.total: 0 → 1
        """,
        """
        #7 loaded(0) ← effect of #6
          (no change)
        """,
      ])
  }

  @Test func longValuesAreShortened() {
    let store = Store(state: Board(), environment: ())
    var output: [String] = []
    store.printChanges(limit: 10) { output.append($0) }
    store.send(.rename(String(repeating: "x", count: 50)))
    #expect(
      output == [
        "#1 rename(\"\(String(repeating: "x", count: 50))\")\n  Board#board.title: \"\" → \"xxxxxxxx…"
      ])
  }

  @Test func setAndSetBackPrintsNoChange() {
    let store = Store(state: Board(), environment: ())
    store.send(.rename("a"))
    var output: [String] = []
    store.printChanges { output.append($0) }
    store.send(.rename("a"))
    #expect(output == ["#1 rename(\"a\")\n  (no change)"])
  }

  @Test func theHandlerThatWasThereStillRuns() {
    let store = Store(state: Board(), environment: ())
    var first: [Int] = []
    store.addLogHandler { first.append($0.sequence) }
    var output: [String] = []
    store.printChanges { output.append($0) }
    store.send(.noop)
    #expect(first == [1])
    #expect(output.count == 1)
  }

  @Test func anEntryWithoutValuesNamesThePropertiesAlone() {
    let key = Board().$title
    let entry = StoreLogEntry(
      action: Board.Action.rename("x"), changes: TrackingChanges([key]), sequence: 3,
      cause: .effect(startedBy: 1))
    #expect(entry.changeReport() == "#3 rename(\"x\") ← effect of #1\n  Board#board.title")
  }
}
