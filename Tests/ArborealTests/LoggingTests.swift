import ArborealTracking
import Testing

@testable import Arboreal

/// The logging hook: every action the store handles, with the properties its update changed.
@MainActor @Suite struct LoggingTests {
  @Test func theHookSeesEveryActionAndThePropertiesItChanged() {
    let store = Store(state: Counter(), environment: ())
    var entries: [(Counter.Action, [String])] = []
    store.addLogHandler { entries.append(($0.action, $0.changes.names)) }
    store.send(.bump)
    store.send(.noop)
    store.send(.set(2))  // the value it already has: not a change
    store.send(.increment)
    #expect(entries.map(\.0) == [.bump, .noop, .set(2), .increment])
    #expect(entries.map(\.1) == [["count", "step"], [], [], ["count"]])
  }

  @Test func childChangesAreNamedAsTheChildDeclaresThem() {
    let store = Store(state: Parent(), environment: ())
    var names: [[String]] = []
    store.addLogHandler { names.append($0.changes.names) }
    store.viewStore(Parent.child).send(.rename("Ada"))
    #expect(names == [["seen", "title"]])
  }

  @Test func actionsFromEffectsAndQueuedActionsAreLoggedInTheOrderTheyAreHandled() async {
    let sender = Sender()
    let store = Store(state: Relay(), environment: sender)
    sender.connect(store)
    var actions: [Relay.Action] = []
    store.addLogHandler { actions.append($0.action) }
    store.send(.fanOut("go", [.sendWithEffect("later"), .record("now")]))
    // `.sendWithEffect` keeps the handle of the `.recordLater` it queues.
    let handle = try! #require(store.state.handles.first)
    await handle.value
    #expect(
      actions == [
        .fanOut("go", [.sendWithEffect("later"), .record("now")]), .sendWithEffect("later"),
        .record("now"), .recordLater("later"), .record("later"),
      ])
  }

  @Test func writesMadeByObserversAreNotAttributedToTheAction() {
    let store = Store(state: Counter(), environment: ())
    let mirror = Mirror()
    let token = observe { _ in mirror.value = store.state.count }
    var names: [[String]] = []
    store.addLogHandler { names.append($0.changes.names) }
    store.send(.increment)
    #expect(mirror.value == 1)
    #expect(names == [["count"]])
    token.cancel()
  }

  @Test func changesAreRecordedOnlyWhileAHandlerIsInstalled() {
    // The probe looks at this thread's recording, which other tests cannot disturb.
    let store = Store(state: RecordingProbe(), environment: ())
    store.send(.look)
    let handler = store.addLogHandler { _ in }
    store.send(.look)
    handler.cancel()
    store.send(.look)
    #expect(store.state.recording == [false, true, false])
  }

  @Test func entriesAreNumberedFromOneWhileAHandlerIsInstalled() {
    let store = Store(state: Counter(), environment: ())
    store.send(.increment)
    var entries: [(Int, StoreLogEntry<Counter.Action>.Cause)] = []
    let first = store.addLogHandler { entries.append(($0.sequence, $0.cause)) }
    store.send(.increment)
    store.send(.noop)
    first.cancel()
    store.send(.increment)
    store.addLogHandler { entries.append(($0.sequence, $0.cause)) }
    store.send(.increment)
    #expect(entries.map(\.0) == [1, 2, 3])
    #expect(entries.allSatisfy { $0.1 == .sent })
  }

  @Test func anEffectsActionNamesTheActionThatStartedIt() async {
    let sender = Sender()
    let store = Store(state: Relay(), environment: sender)
    sender.connect(store)
    var entries: [StoreLogEntry<Relay.Action>] = []
    store.addLogHandler { entries.append($0) }
    store.send(.fanOut("go", [.sendWithEffect("later"), .record("now")]))
    await store.finish()
    #expect(
      entries.map(\.action) == [
        .fanOut("go", [.sendWithEffect("later"), .record("now")]), .sendWithEffect("later"),
        .record("now"), .recordLater("later"), .record("later"),
      ])
    #expect(entries.map(\.sequence) == [1, 2, 3, 4, 5])
    #expect(entries.map(\.cause) == [.sent, .sent, .sent, .sent, .effect(startedBy: 4)])
  }

  @Test func anEffectStartedWithNoHandlerHasNoStartingAction() async {
    let store = Store(state: Relay(), environment: Sender())
    let handle = store.send(.recordLater("x"))
    var causes: [StoreLogEntry<Relay.Action>.Cause] = []
    store.addLogHandler { causes.append($0.cause) }
    await handle.value
    #expect(causes == [.effect(startedBy: nil)])
  }

  @Test func logsValuesDescribesEachChangeOldAndNew() {
    let store = Store(state: Counter(), environment: ())
    var values: [[StoreLogEntry<Counter.Action>.ChangedValue]] = []
    let plain = store.addLogHandler { values.append($0.changedValues) }
    store.send(.set(5))
    #expect(values == [[]], "not described unless asked")
    plain.cancel()
    store.addLogHandler(logsValues: true) { values.append($0.changedValues) }
    store.send(.set(7))
    store.send(.bump)
    let count = store.state.$count
    #expect(values[1] == [.init(key: count, before: "5", after: "7")])
    #expect(values[2].map(\.key.name) == ["count", "step"])
    #expect(values[2].first == .init(key: count, before: "7", after: "9"), "first old, last new")
  }

  @Test func anInPlaceEditOfACollectionHasNoOldValue() {
    let store = Store(state: Script(), environment: ())
    var values: [StoreLogEntry<Script.Action>.ChangedValue] = []
    store.addLogHandler(logsValues: true) { values += $0.changedValues }
    store.send(.record("a"))
    store.send(.record("b"))
    #expect(values.map(\.before) == [nil, nil])
    #expect(values.map(\.after) == [#"["a"]"#, #"["a", "b"]"#])
  }

  @Test func anEntryDescribesTheActionAndItsChanges() {
    let store = Store(state: Counter(), environment: ())
    var lines: [String] = []
    store.addLogHandler { lines.append("\($0)") }
    store.send(.bump)
    store.send(.noop)
    let owner = store.state.$count.owner
    #expect(owner?.typeName == "Counter")
    #expect(lines == ["bump → \(owner!).count, \(owner!).step", "noop → (no change)"])
  }
}

/// A tracked value written by an observer.
final class Mirror: Trackable {
  let registrar = TrackingRegistrar()
  @Tracked var value = 0
}

/// Records, in each update, whether a change recording is running on this thread.
final class RecordingProbe: ArborealModel {
  enum Action: Sendable { case look }

  let registrar = TrackingRegistrar()
  private(set) var recording: [Bool] = []

  func update(action: Action, environment: Void) -> Fx<Action> {
    recording.append(isRecordingChanges)
    return .none
  }
}

/// Several log handlers: each gets every entry, with values only when it asked, in the order
/// they were added; cancelling one leaves the others.
@MainActor @Suite struct LogHandlerListTests {
  @Test func eachHandlerGetsEveryEntryWithWhatItAskedFor() {
    let store = Store(state: Counter(), environment: ())
    var calls: [String] = []
    let plain = store.addLogHandler {
      calls.append("plain \($0.sequence) \($0.changedValues.count)")
    }
    store.addLogHandler(logsValues: true) {
      calls.append("values \($0.sequence) \($0.changedValues.map(\.after))")
    }
    store.send(.set(3))
    plain.cancel()
    plain.cancel()  // a second cancel does nothing
    store.send(.set(4))
    #expect(calls == ["plain 1 0", "values 1 [Optional(\"3\")]", "values 2 [Optional(\"4\")]"])
  }

  @Test func aHandlerMayAddAndRemoveHandlers() {
    let store = Store(state: Counter(), environment: ())
    var seen: [String] = []
    var added: LogHandlerToken?
    // Unowned: the store keeps its handlers, so a handler holding it would keep it forever.
    store.addLogHandler { [unowned store] entry in
      seen.append("outer \(entry.sequence)")
      if added == nil {
        added = store.addLogHandler { seen.append("inner \($0.sequence)") }
      } else {
        added?.cancel()
      }
    }
    store.send(.set(1))
    store.send(.set(2))
    store.send(.set(3))
    // Added during entry 1, it sees entry 2; removed during entry 2's outer call, after which
    // the copy taken for entry 2 still calls it once.
    #expect(seen == ["outer 1", "outer 2", "inner 2", "outer 3"])
  }

  @Test func withNoHandlerLeftTheStoreRecordsNothing() {
    let store = Store(state: RecordingProbe(), environment: ())
    let first = store.addLogHandler { _ in }
    let second = store.addLogHandler(logsValues: true) { _ in }
    store.send(.look)
    first.cancel()
    store.send(.look)
    second.cancel()
    store.send(.look)
    #expect(store.state.recording == [true, true, false])
  }
}
