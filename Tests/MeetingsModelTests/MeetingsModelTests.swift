import Arboreal
import ArborealTesting
import Testing

@testable import meetings

/// The models of the `meetings` example through an exhaustive test store: the edit sheet's
/// save and cancel, the delete question, and the recording's timer on a test clock, which
/// stops when its screen is popped with nothing in the list asking for it.
@MainActor @Suite struct MeetingsModelTests {
  let clock = TestClock()
  let detailID = StackElementID(rawValue: 0)
  let recordID = StackElementID(rawValue: 1)
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
      let expected = MeetingScreen(detail: MeetingDetail(meeting: self.standup))
      #expect(stateDifferences($0.path[id: self.detailID], expected) == [])
    }
    return store
  }

  private func detail(_ action: MeetingDetail.Action) -> MeetingList.Action {
    .path(.element(id: detailID, action: .detail(action)))
  }

  private func editor(_ action: MeetingEditor.Action) -> MeetingList.Action {
    detail(.editor(.presented(action)))
  }

  @Test func savingTheEditSheetUpdatesTheScreenAndTheList() async {
    let store = await makeStoreOnTheDetail()
    await store.send(detail(.editTapped)) {
      #expect($0.path[id: self.detailID]?.detail?.editor?.draft == self.standup)
    }
    await store.send(editor(.setTitle("Daily"))) {
      #expect($0.path[id: self.detailID]?.detail?.editor?.draft.title == "Daily")
    }
    var daily = standup
    daily.title = "Daily"
    await store.send(editor(.save))
    await store.receive(editor(.delegate(.save(daily)))) {
      #expect($0.path[id: self.detailID]?.detail?.editor == nil)
      #expect($0.path[id: self.detailID]?.detail?.meeting == daily)
    }
    await store.receive(detail(.delegate(.changed(daily)))) { #expect($0.meetings == [daily]) }
    await store.finish()
  }

  @Test func cancellingTheEditSheetDismissesIt() async {
    let store = await makeStoreOnTheDetail()
    await store.send(detail(.editTapped)) {
      #expect($0.path[id: self.detailID]?.detail?.editor?.draft == self.standup)
    }
    await store.send(editor(.setMinutes(30))) {
      #expect($0.path[id: self.detailID]?.detail?.editor?.draft.minutes == 30)
    }
    await store.send(editor(.cancel))
    await store.receive(detail(.editor(.dismiss))) {
      #expect($0.path[id: self.detailID]?.detail?.editor == nil)
    }
    await store.finish()
  }

  @Test func deletingAsksFirstThenRemovesTheMeetingAndPopsItsScreen() async {
    let store = await makeStoreOnTheDetail()
    await store.send(detail(.deleteTapped)) {
      #expect($0.path[id: self.detailID]?.detail?.alert?.title == "Delete “Standup”?")
    }
    await store.send(detail(.alert(.dismiss))) {
      #expect($0.path[id: self.detailID]?.detail?.alert == nil)
    }
    await store.send(detail(.deleteTapped)) {
      #expect($0.path[id: self.detailID]?.detail?.alert != nil)
    }
    await store.send(detail(.alert(.presented(.confirmDelete)))) {
      #expect($0.path[id: self.detailID]?.detail?.alert == nil)
    }
    await store.receive(detail(.delegate(.delete(1)))) {
      #expect($0.meetings.isEmpty)
      #expect($0.path.isEmpty)
    }
    await store.finish()
  }

  @Test func theRecordingTicksUntilItsScreenIsPopped() async {
    let store = await makeStoreOnTheDetail()
    await store.send(.record(1)) {
      #expect($0.path.count == 2)
      let expected = MeetingScreen(record: RecordMeeting(meeting: self.standup))
      #expect(stateDifferences($0.path[id: self.recordID], expected) == [])
    }
    let record = { (action: RecordMeeting.Action) in
      MeetingList.Action.path(.element(id: self.recordID, action: .record(action)))
    }
    await store.send(record(.task)) {
      #expect($0.path[id: self.recordID]?.record?.isRunning == true)
    }
    await clock.advance(by: .seconds(2))
    await store.receive(record(.tick)) {
      #expect($0.path[id: self.recordID]?.record?.secondsElapsed == 1)
    }
    await store.receive(record(.tick)) {
      #expect($0.path[id: self.recordID]?.record?.secondsElapsed == 2)
    }
    await store.send(.path(.popFrom(id: recordID))) { #expect($0.path.count == 1) }
    // Popped: its timer was cancelled within the action. Five more seconds deliver nothing,
    // and `finish()` fails on any tick not received and on any effect still running. (The
    // clock's `pendingCount` is not checked here: the timer books its next wait before it
    // sends a tick, and a cancelled task drops that booking only when it next runs.)
    await clock.advance(by: .seconds(5))
    await store.finish()
  }
}
