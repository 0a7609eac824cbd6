import Arboreal
import ArborealTestSupport
import ArborealTesting
import Testing

/// New models are not changed models, and an exhaustive `TestStore` checks them whole: the
/// property that holds a model the action created is a change, and the new model's tracked
/// properties (recursively through its new children) must each be checked too.
@Suite actor NewModelTestStoreTests {
  @Test func aPushedDetailAssertedAsAWholePasses() async {
    let store = TestStore(state: SyncUpsList())
    await store.send(.push(title: "Standup")) { model in
      #expect(stateDifferences(model.detail, SyncUpDetail(title: "Standup")) == [])
    }
    await store.finish()
  }

  @MainActor
  @Test func aPushedDetailAssertedOnlyByItsPresenceFailsNamingItsProperties() async {
    let store = TestStore(state: SyncUpsList())
    let owner = "SyncUpDetail#"
    await withKnownIssue {
      await store.send(.push(title: "Standup")) { model in
        #expect(model.detail != nil)
      }
    } matching: { issue in
      issue.description.contains(
        "send(push(title: \"Standup\")) put 1 new model (SyncUpDetail) into the state whose "
          + "tracked properties the assertion did not check:")
        && issue.description.contains(
          "compare the new SyncUpDetail as a whole with the one you expect "
            + "(`#expect(stateDifferences(model.detail, SyncUpDetail(…)) == [])`)")
        && issue.description.contains("new in SyncUpsList#")
        && issue.description.contains("\(owner)")
        && issue.description.contains(".title = \"Standup\"")
        && issue.description.contains(".attendees = 1")
        && issue.description.contains(".destination = nil")
    }
    await store.finish()
  }

  @Test func readingEachPropertyOfTheNewModelPasses() async {
    let store = TestStore(state: SyncUpsList())
    await store.send(.pushAndEdit(title: "Standup")) { model in
      // Writes to the new model later in the same action are part of its new state.
      #expect(model.detail?.title == "Standup")
      #expect(model.detail?.attendees == 1)
      #expect(model.detail?.destination?.name == "edit")
    }
    await store.finish()
  }

  @Test func nonExhaustiveStoresSkipNewModels() async {
    let store = TestStore(state: SyncUpsList(), exhaustivity: .off)
    await store.send(.push(title: "Standup")) { model in
      #expect(model.detail != nil)
    }
    await store.finish()
  }

  @MainActor
  @Test func aWriteToAnExistingChildStillNeedsItsAssertion() async {
    let store = TestStore(state: SyncUpsList())
    await store.send(.push(title: "Standup")) { model in
      #expect(stateDifferences(model.detail, SyncUpDetail(title: "Standup")) == [])
    }
    let owner = "\(store.state.detail!.$destination.owner!)"
    await withKnownIssue {
      await store.send(.detail(.edit)) { model in
        #expect(model.detail != nil)
      }
    } matching: { issue in
      issue.description.contains("changed 1 tracked property")
        && issue.description.contains("\(owner).destination")
    }
    await store.send(.detail(.close)) { model in
      #expect(model.detail?.destination == nil)
    }
    await store.finish()
  }

  @MainActor
  @Test func aChildHeldInALetOfANewWrapperIsCheckedToo() async {
    let store = TestStore(state: SyncUpsList())
    await withKnownIssue {
      await store.send(.pushScreen(title: "Standup")) { model in
        #expect(model.screen != nil)
      }
    } matching: { issue in
      issue.description.contains("new in SyncUpsList#")
        && issue.description.contains(".title = \"Standup\"")
    }
    await store.send(.pushScreen(title: "Retro")) { model in
      let expected = SyncUpScreen(detail: SyncUpDetail(title: "Retro"))
      #expect(stateDifferences(model.screen, expected) == [])
    }
    await store.finish()
  }

  @MainActor
  @Test func everyNewChildInAListOfANewModelIsChecked() async {
    let store = TestStore(state: SyncUpsList())
    await withKnownIssue {
      await store.send(.pushGroup(titles: ["a", "b", "c"])) { model in
        #expect(model.group?.members.count == 3)
        #expect(stateDifferences(model.group?.members.first, SyncUpDetail(title: "a")) == [])
      }
    } matching: { issue in
      issue.description.contains("put 2 new models (SyncUpDetail) into the state")
        && issue.description.contains(".title = \"b\"")
        && issue.description.contains(".title = \"c\"")
    }
    await store.finish()
  }

  @Test func stateDifferencesNamesWhatDiffers() {
    let screen = SyncUpScreen(detail: SyncUpDetail(title: "Standup"))
    #expect(
      stateDifferences(screen, SyncUpScreen(detail: SyncUpDetail(title: "Retro"))) == [
        "SyncUpScreen.detail.title: \"Standup\" ≠ \"Retro\""
      ])
    #expect(stateDifferences(screen, nil) == ["SyncUpScreen: a model ≠ nil"])
    #expect(stateDifferences(screen, screen) == [])
  }

  /// A row added to, renamed in or removed from a list of 1 or 1,000,000 rows (the latter with
  /// the reliability suites): the new row is checked whole, the others are not new.
  @MainActor
  @Test func editsOfAListOfOneRow() async {
    await editsOfAList(size: 1)
  }

  @MainActor
  @Test(.enabled(if: reliabilitySuiteEnabled))
  func editsOfAListOfAMillionRows() async {
    await editsOfAList(size: 1_000_000)
  }

  @MainActor
  private func editsOfAList(size: Int) async {
    let store = TestStore(state: SyncUpsList(), exhaustivity: .off)
    await store.send(.add(count: size))
    store.exhaustivity = .on
    await withKnownIssue {
      await store.send(.appendRow(title: "new")) { model in
        #expect(model.rows.count == size + 1)
      }
    } matching: { issue in
      issue.description.contains(".title = \"new\"")
    }
    await store.send(.renameFirstRow("first")) { model in
      #expect(model.rows.first?.title == "first")
    }
    await store.send(.removeFirstRow) { model in
      #expect(model.rows.count == size)
      #expect(stateDifferences(model.rows.last, SyncUpDetail(title: "new")) == [])
    }
    await store.finish()
  }

  @Test func anExistingModelPutElsewhereIsNotNew() async {
    let store = TestStore(state: SyncUpsList())
    await store.send(.add(count: 2)) { model in
      #expect(model.rows.map { $0.title } == ["#0", "#1"])
      #expect(model.rows.map { $0.attendees } == [1, 1])
      #expect(model.rows.map { $0.destination?.name } == ["row", "row"])
    }
    await store.send(.select(1)) { model in
      #expect(model.detail === model.rows[1])
    }
    await store.finish()
  }

  @Test(arguments: [1, 10_000])
  func manyChildrenCreatedInOneActionAreCheckedWhole(count: Int) async {
    let store = TestStore(state: SyncUpsList())
    let expected = (0..<count).map {
      SyncUpDetail(title: "#\($0)", destination: SyncUpDestination(name: "row"))
    }
    await store.send(.add(count: count)) { model in
      #expect(model.rows.count == count)
      #expect(zip(model.rows, expected).allSatisfy { stateDifferences($0, $1).isEmpty })
    }
    await store.finish()
  }

  @MainActor
  @Test func aFailureListsAFewModelsAndCountsTheRest() async {
    let store = TestStore(state: SyncUpsList())
    await withKnownIssue {
      await store.send(.add(count: 12)) { model in
        #expect(model.rows.count == 12)
      }
    } matching: { issue in
      issue.description.contains("put 12 new models (SyncUpDetail) into the state")
        && issue.description.contains("and 7 more new models")
    }
    await store.finish()
  }
}

/// A value that is not `Equatable`: every write of it is a change.
struct SyncUpDestination {
  var name: String
}

/// The detail screen of the user report: `init` assigns `destination` once every stored
/// property has a value, so the assignment goes through the tracked setter; `attendees` has a
/// default value and `init` writes it too.
final class SyncUpDetail: ArborealModel, Identifiable {
  enum Action: Sendable, Equatable {
    case edit
    case close
    case rename(String)
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var title: String
  @Tracked private(set) var attendees = 0
  @Tracked private(set) var destination: SyncUpDestination?

  init(title: String, destination: SyncUpDestination? = nil) {
    self.title = title
    self.destination = nil
    attendees = 1
    self.destination = destination
  }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .edit: destination = SyncUpDestination(name: "edit")
    case .close: destination = nil
    case .rename(let title): self.title = title
    }
    return .none
  }
}

final class SyncUpsList: ArborealModel {
  enum Action: Sendable, Equatable {
    case push(title: String)
    case pushAndEdit(title: String)
    case detail(SyncUpDetail.Action)
    case add(count: Int)
    case select(Int)
    case pushScreen(title: String)
    case appendRow(title: String)
    case renameFirstRow(String)
    case row(id: ObjectIdentifier, SyncUpDetail.Action)
    case removeFirstRow
    case pushGroup(titles: [String])
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var detail: SyncUpDetail?
  static let detail = ChildRoute.child(\SyncUpsList.detail, tag: Action.detail)
  @Tracked private(set) var rows: [SyncUpDetail] = []
  static let rows = ChildRoute.children(\SyncUpsList.rows, tag: Action.row)
  @Tracked private(set) var screen: SyncUpScreen?
  @Tracked private(set) var group: SyncUpGroup?

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
      rows = (0..<count).map {
        SyncUpDetail(title: "#\($0)", destination: SyncUpDestination(name: "row"))
      }
      return .none
    case .select(let index):
      detail = rows[index]
      return .none
    case .pushScreen(let title):
      screen = SyncUpScreen(detail: SyncUpDetail(title: title))
      return .none
    case .appendRow(let title):
      rows.append(SyncUpDetail(title: title))
      return .none
    case .renameFirstRow(let title):
      return forward(.rename(title), to: Self.rows, child: rows[0], environment: ())
    case .row(let id, let action):
      return forward(action, to: Self.rows, id: id, environment: ())
    case .removeFirstRow:
      rows.removeFirst()
      return .none
    case .pushGroup(let titles):
      group = SyncUpGroup(members: titles.map { SyncUpDetail(title: $0) })
      return .none
    }
  }
}

/// A screen that wraps its child in a `let`, as a stack element of several kinds does.
final class SyncUpScreen: ArborealModel {
  let registrar = TrackingRegistrar()
  let detail: SyncUpDetail?

  init(detail: SyncUpDetail) {
    self.detail = detail
  }

  func update(action: Never, environment: Void) -> Fx<Never> {}
}

/// A new model that holds a list of new models.
final class SyncUpGroup: ArborealModel {
  let registrar = TrackingRegistrar()
  @Tracked private(set) var members: [SyncUpDetail]

  init(members: [SyncUpDetail]) {
    self.members = members
  }

  func update(action: Never, environment: Void) -> Fx<Never> {}
}
