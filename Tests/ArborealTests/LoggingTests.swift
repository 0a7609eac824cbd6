import ArborealTracking
import Testing

@testable import Arboreal

/// The logging hook: every action the store handles, with the properties its update changed.
@MainActor @Suite struct LoggingTests {
  @Test func theHookSeesEveryActionAndThePropertiesItChanged() {
    let store = Store(state: Counter(), environment: ())
    var entries: [(Counter.Action, [String])] = []
    store.logHandler = { entries.append(($0.action, $0.changes.names)) }
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
    store.logHandler = { names.append($0.changes.names) }
    store.viewStore(get: \.child, tag: Parent.Action.child).send(.rename("Ada"))
    #expect(names == [["seen", "title"]])
  }

  @Test func actionsFromEffectsAndQueuedActionsAreLoggedInTheOrderTheyAreHandled() async {
    let sender = Sender()
    let store = Store(state: Relay(), environment: sender)
    sender.connect(store)
    var actions: [Relay.Action] = []
    store.logHandler = { actions.append($0.action) }
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
    let token = observe { mirror.value = store.state.count }
    var names: [[String]] = []
    store.logHandler = { names.append($0.changes.names) }
    store.send(.increment)
    #expect(mirror.value == 1)
    #expect(names == [["count"]])
    token.cancel()
  }

  @Test func changesAreRecordedOnlyWhileAHandlerIsInstalled() {
    // The probe looks at this thread's recording, which other tests cannot disturb.
    let store = Store(state: RecordingProbe(), environment: ())
    store.send(.look)
    store.logHandler = { _ in }
    store.send(.look)
    store.logHandler = nil
    store.send(.look)
    #expect(store.state.recording == [false, true, false])
  }

  @Test func entriesAreNumberedFromOneWhileAHandlerIsInstalled() {
    let store = Store(state: Counter(), environment: ())
    store.send(.increment)
    var entries: [(Int, StoreLogEntry<Counter.Action>.Cause)] = []
    store.logHandler = { entries.append(($0.sequence, $0.cause)) }
    store.send(.increment)
    store.send(.noop)
    store.logHandler = nil
    store.send(.increment)
    store.logHandler = { entries.append(($0.sequence, $0.cause)) }
    store.send(.increment)
    #expect(entries.map(\.0) == [1, 2, 3])
    #expect(entries.allSatisfy { $0.1 == .sent })
  }

  @Test func anEffectsActionNamesTheActionThatStartedIt() async {
    let sender = Sender()
    let store = Store(state: Relay(), environment: sender)
    sender.connect(store)
    var entries: [StoreLogEntry<Relay.Action>] = []
    store.logHandler = { entries.append($0) }
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
    store.logHandler = { causes.append($0.cause) }
    await handle.value
    #expect(causes == [.effect(startedBy: nil)])
  }

  @Test func logsValuesDescribesEachChangeOldAndNew() {
    let store = Store(state: Counter(), environment: ())
    var values: [[StoreLogEntry<Counter.Action>.ChangedValue]] = []
    store.logHandler = { values.append($0.changedValues) }
    store.send(.set(5))
    #expect(values == [[]], "not described unless asked")
    store.logsValues = true
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
    store.logsValues = true
    store.logHandler = { values += $0.changedValues }
    store.send(.record("a"))
    store.send(.record("b"))
    #expect(values.map(\.before) == [nil, nil])
    #expect(values.map(\.after) == [#"["a"]"#, #"["a", "b"]"#])
  }

  @Test func anEntryDescribesTheActionAndItsChanges() {
    let store = Store(state: Counter(), environment: ())
    var lines: [String] = []
    store.logHandler = { lines.append("\($0)") }
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
