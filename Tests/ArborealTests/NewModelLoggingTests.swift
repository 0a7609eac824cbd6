import Arboreal
import Testing

/// New models are not changed models: the store's log names the property that holds a model
/// created by the action, not the writes the new model received.
@Suite actor NewModelLoggingTests {
  @Test func pushingADetailLogsOnlyTheParentsProperty() {
    let store = Store(state: SyncUps(), environment: ())
    var entries: [StoreLogEntry<SyncUps.Action>] = []
    store.addLogHandler(logsValues: true) { entries.append($0) }
    store.send(.push(title: "Standup"))
    #expect(entries.map(\.changes.names) == [["detail"]])
    #expect(entries.map(\.changedValues.count) == [1])
    #expect(store.state.detail?.title == "Standup")
  }

  @Test func writesToTheNewModelLaterInTheSameActionAreNotLogged() {
    let store = Store(state: SyncUps(), environment: ())
    var names: [[String]] = []
    store.addLogHandler { names.append($0.changes.names) }
    store.send(.pushAndEdit(title: "Standup"))
    #expect(names == [["detail"]])
    #expect(store.state.detail?.destination != nil)
  }

  @Test func writesToTheModelInALaterActionAreLogged() {
    let store = Store(state: SyncUps(), environment: ())
    var entries: [StoreLogEntry<SyncUps.Action>] = []
    store.addLogHandler { entries.append($0) }
    store.send(.push(title: "Standup"))
    store.send(.detail(.edit))
    #expect(entries.map(\.changes.names) == [["detail"], ["destination"]])
    #expect(entries.last?.changes.qualifiedNames.first?.hasPrefix("SyncUpDetail#") == true)
  }

  @Test(arguments: [1, 10_000])
  func manyChildrenCreatedInOneActionLogOnlyTheList(count: Int) {
    let store = Store(state: SyncUps(), environment: ())
    var names: [[String]] = []
    store.addLogHandler { names.append($0.changes.names) }
    store.send(.add(count: count))
    #expect(names == [["rows"]])
    #expect(store.state.rows.count == count)
    #expect(store.state.rows.allSatisfy { $0.destination != nil })
  }
}

/// A value that is not `Equatable`: every write of it is a change.
private struct Destination {
  var name: String
}

/// The detail screen of the user report: `init` assigns `destination` once every stored
/// property has a value, so the assignment goes through the tracked setter; `attendees` has a
/// default value and `init` writes it too.
private final class SyncUpDetail: ArborealModel {
  enum Action: Sendable, Equatable {
    case edit
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var title: String
  @Tracked private(set) var attendees = 0
  @Tracked private(set) var destination: Destination?

  init(title: String, destination: Destination? = nil) {
    self.title = title
    self.destination = nil
    attendees = 1
    self.destination = destination
  }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .edit:
      destination = Destination(name: "edit")
      return .none
    }
  }
}

private final class SyncUps: ArborealModel {
  enum Action: Sendable, Equatable {
    case push(title: String)
    case pushAndEdit(title: String)
    case detail(SyncUpDetail.Action)
    case add(count: Int)
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var detail: SyncUpDetail?
  static let detail = ChildRoute.child(\SyncUps.detail, tag: Action.detail)
  @Tracked private(set) var rows: [SyncUpDetail] = []

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .push(let title):
      detail = SyncUpDetail(title: title)
      return .none
    case .pushAndEdit(let title):
      let detail = SyncUpDetail(title: title)
      self.detail = detail
      return forward(.edit, to: Self.detail, environment: ())
    case .detail(let action):
      return forward(action, to: Self.detail, environment: ())
    case .add(let count):
      rows = (0..<count).map { SyncUpDetail(title: "#\($0)", destination: Destination(name: "")) }
      return .none
    }
  }
}
