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
