import Arboreal
import ArborealTesting
import Testing

@testable import meetings

/// The models of the `meetings` example through an exhaustive test store: the edit sheet's
/// save and cancel, the delete question, and the recording's timer on a test clock, which
/// stops when its screen is popped with nothing in the list asking for it.
@MainActor @Suite struct MeetingsModelTests {
  let clock = TestClock()
  let detailID: StackElementID = 0
  let recordID: StackElementID = 1
  let standup = Meeting(id: 1, title: "Standup")

  private func makeStore() -> TestStore<MeetingList> {
    TestStore(state: MeetingList(), environment: MeetingsEnvironment(clock: clock))
  }

  /// A store with one meeting, open on its detail screen.
  private func makeStoreOnTheDetail() async -> TestStore<MeetingList> {
    let store = makeStore()
    await store.send(.add(title: "Standup")) { #expect($0.meetings == [self.standup]) }
    await store.send(.open(1)) {
      #expect($0.path.count == 1)
      // The pushed screen, checked whole.
      let expected = MeetingDetail(meeting: self.standup)
      #expect(stateDifferences($0.path[id: self.detailID, case: Path.detail], expected) == [])
    }
    return store
  }

  typealias Path = MeetingList.Path
  typealias Destination = MeetingDetail.Destination

  /// The edit sheet of the detail screen, if it shows.
  private func editor(_ list: MeetingList) -> MeetingEditor? {
    list.path[id: detailID, case: Path.detail]?.destination?[case: Destination.editor]
  }

  /// The alert of the detail screen, if it shows.
  private func alert(_ list: MeetingList) -> AlertState<Destination.Alert>? {
    list.path[id: detailID, case: Path.detail]?.destination?[case: Destination.alert]
  }

  private func detail(_ action: MeetingDetail.Action) -> MeetingList.Action {
    .path(.element(id: detailID, action: .detail(action)))
  }

  private func editor(_ action: MeetingEditor.Action) -> MeetingList.Action {
    detail(.destination(.presented(.editor(action))))
  }

  @Test func theStoreListsTheScreensAndTheSheetByPlace() async {
    let store = await makeStoreOnTheDetail()
    await store.send(detail(.editTapped)) { #expect(editor($0)?.draft == self.standup) }
    #expect(
      store.children.map(\.place) == [
        "MeetingList.path[id: 0].detail",
        "MeetingList.path[id: 0].detail.destination.editor",
      ])
    #expect(store.children.last?.model as? MeetingEditor === editor(store.state))
    await store.send(editor(.cancel))
    await store.receive(detail(.destination(.dismiss))) { #expect(editor($0) == nil) }
    #expect(store.children.map(\.place) == ["MeetingList.path[id: 0].detail"])
    await store.finish()
  }

  @Test func aNewSheetLeftUncheckedIsNamedByItsPlace() async {
    let store = await makeStoreOnTheDetail()
    await withKnownIssue {
      await store.send(detail(.editTapped)) { #expect(editor($0) != nil) }
    } matching: { issue in
      // Instance numbers depend on the tests running alongside: not matched.
      issue.description.contains(
        ".destination (at MeetingList.path[id: 0].detail.destination.editor):")
        && issue.description.contains(
          "`#expect(stateDifferences(model.destination?[case: Destination.editor], "
            + "MeetingEditor(…)) == [])`")
    }
    await store.send(editor(.cancel))
    await store.receive(detail(.destination(.dismiss))) { #expect(editor($0) == nil) }
    await store.finish()
  }

  @Test func savingTheEditSheetUpdatesTheScreenAndTheList() async {
    let store = await makeStoreOnTheDetail()
    await store.send(detail(.editTapped)) {
      #expect(editor($0)?.draft == self.standup)
    }
    await store.send(editor(.setTitle("Daily"))) {
      #expect(editor($0)?.draft.title == "Daily")
    }
    var daily = standup
    daily.title = "Daily"
    await store.send(editor(.save))
    await store.receive(editor(.delegate(.save(daily)))) {
      #expect(editor($0) == nil)
      #expect($0.path[id: self.detailID, case: Path.detail]?.meeting == daily)
    }
    await store.receive(detail(.delegate(.changed(daily)))) { #expect($0.meetings == [daily]) }
    await store.finish()
  }

  @Test func cancellingTheEditSheetDismissesIt() async {
    let store = await makeStoreOnTheDetail()
    await store.send(detail(.editTapped)) {
      #expect(editor($0)?.draft == self.standup)
    }
    await store.send(editor(.setMinutes(30))) {
      #expect(editor($0)?.draft.minutes == 30)
    }
    await store.send(editor(.cancel))
    await store.receive(detail(.destination(.dismiss))) {
      #expect(editor($0) == nil)
    }
    await store.finish()
  }

  @Test func deletingAsksFirstThenRemovesTheMeetingAndPopsItsScreen() async {
    let store = await makeStoreOnTheDetail()
    await store.send(detail(.deleteTapped)) {
      #expect(alert($0)?.title == "Delete “Standup”?")
    }
    await store.send(detail(.destination(.dismiss))) {
      #expect($0.path[id: self.detailID, case: Path.detail]?.destination == nil)
    }
    await store.send(detail(.deleteTapped)) {
      #expect(alert($0) != nil)
    }
    await store.send(detail(.destination(.presented(.alert(.confirmDelete))))) {
      #expect($0.path[id: self.detailID, case: Path.detail]?.destination == nil)
    }
    await store.receive(detail(.delegate(.delete(1)))) {
      #expect($0.meetings.isEmpty)
      #expect($0.path.isEmpty)
    }
    await store.finish()
  }

  /// A confirmation whose alert is not up (sent twice, or after a dismissal) reaches no child:
  /// the screen does not ask the list to delete.
  @Test func aConfirmationWithNoAlertUpDeletesNothing() async {
    let store = await makeStoreOnTheDetail()
    // Debug builds report the dropped action, and the test store fails on it.
    await withKnownIssue {
      await store.send(detail(.destination(.presented(.alert(.confirmDelete)))))
    } matching: {
      $0.description.contains("dropped confirmDelete")
    }
    #expect(store.state.meetings == [standup])
    await store.finish()
  }

  @Test func theRecordingTicksUntilItsScreenIsPopped() async {
    let store = await makeStoreOnTheDetail()
    await store.send(.record(1)) {
      #expect($0.path.count == 2)
      let expected = RecordMeeting(meeting: self.standup)
      #expect(stateDifferences($0.path[id: self.recordID, case: Path.record], expected) == [])
    }
    let record = { (action: RecordMeeting.Action) in
      MeetingList.Action.path(.element(id: self.recordID, action: .record(action)))
    }
    await clock.advance(by: .seconds(2))
    await store.receive(record(.tick)) {
      #expect($0.path[id: self.recordID, case: Path.record]?.secondsElapsed == 1)
    }
    await store.receive(record(.tick)) {
      #expect($0.path[id: self.recordID, case: Path.record]?.secondsElapsed == 2)
    }
    await store.send(.path(.popFrom(id: recordID))) { #expect($0.path.count == 1) }
    // Popped: its timer was cancelled within the action. Five more seconds deliver nothing,
    // and `finish()` fails on any tick not received and on any effect still running. (The
    // clock's `pendingCount` is not checked here: the timer books its next wait before it
    // sends a tick, and a cancelled task drops that booking only when it next runs.)
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  @Test func eachAppearanceOfTheRecordingStartsItsOwnTimerOnce() async {
    let store = await makeStoreOnTheDetail()
    let record = { (id: StackElementID, action: RecordMeeting.Action) in
      MeetingList.Action.path(.element(id: id, action: .record(action)))
    }
    for (appearance, id) in [recordID, 2].enumerated() {
      await store.send(.record(1)) {
        #expect($0.path.elementIDs == [self.detailID, id])
        let expected = RecordMeeting(meeting: self.standup)
        #expect(stateDifferences($0.path[id: id, case: Path.record], expected) == [])
      }
      // One timer: one tick a second (a second timer would deliver a second tick, which the
      // exhaustive store would fail on).
      await clock.advance(by: .seconds(1))
      await store.receive(record(id, .tick)) {
        #expect($0.path[id: id, case: Path.record]?.secondsElapsed == 1, "appearance \(appearance)")
      }
      await store.send(.path(.popFrom(id: id))) { #expect($0.path.count == 1) }
      await clock.advance(by: .seconds(3))
    }
    await store.finish()
  }
}
