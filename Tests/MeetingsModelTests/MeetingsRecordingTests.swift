import Arboreal
import ArborealDevtools
import ArborealTesting
import Foundation
import Testing

@testable import meetings

/// Redux DevTools' habits tried on a recording of the `meetings` example, as a user would:
/// export (the session's file, read back), jump (a timeline, back and forth, through pushes,
/// a sheet, an alert and pops), skip (the session without the delete) and filter (the steps
/// that changed a property). The recording timer runs on a test clock.
@MainActor @Suite struct MeetingsRecordingTests {
  @Test func aSessionRecordedReplaysJumpsAndSkips() async throws {
    let clock = TestClock()
    let store = Store(state: MeetingList(), environment: MeetingsEnvironment(clock: clock))
    store.effectExecutor = TestExecutor()
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("meetings-\(UUID().uuidString).jsonl").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let recorder = try StoreRecorder(store, to: path)
    typealias Detail = MeetingDetail.Action
    let detail = { (id: StackElementID, action: Detail) -> MeetingList.Action in
      .path(.element(id: id, action: .detail(action)))
    }
    let editor = { (action: MeetingEditor.Action) -> MeetingList.Action in
      detail(0, .destination(.presented(.editor(action))))
    }
    for action: MeetingList.Action in [
      .add(title: "Standup"), .add(title: "Retro"), .open(1), detail(0, .editTapped),
      editor(.setTitle("Daily standup")), editor(.setAttendees(["Ada", "Grace"])), editor(.save),
    ] {
      store.send(action)
      await store.runEffects()
    }
    // The timer's ticks, one a second on the test clock, each a step of the recording.
    store.send(.record(1))
    await store.runEffects()
    for _ in 0..<3 {
      await clock.advance(by: .seconds(1))
      await store.runEffects()
    }
    for action: MeetingList.Action in [
      .path(.popFrom(id: 1)), .path(.popFrom(id: 0)), .open(2), detail(2, .deleteTapped),
      detail(2, .destination(.presented(.alert(.confirmDelete)))),
    ] {
      store.send(action)
      await store.runEffects()
    }
    await recorder.finish()

    // Export: the file is the session; read back, it replays to the same state.
    let recording = try Recording<MeetingList>(contentsOf: path)
    let final = store.state.snapshot
    #expect(final.meetings.map(\.title) == ["Daily standup"])
    #expect(recording.replay(environment: MeetingsEnvironment(clock: clock)).snapshot == final)

    // Jump: to the sheet open, to the timer running, to the alert, and back.
    let timeline = Timeline(recording, environment: MeetingsEnvironment(clock: clock))
    let ticks = recording.steps.filter { "\($0.action)".contains("tick") }.map(\.sequence)
    #expect(ticks.count == 3, "three ticks of the timer, each a step")
    timeline.jump(to: 5)
    guard case .detail(let editing) = timeline.state.snapshot.path.last?.screen else {
      Issue.record("the detail screen is on top at step 5")
      return
    }
    #expect(editing.destination == .editor(draft: Meeting(id: 1, title: "Daily standup")))
    let lastTick = try #require(ticks.last)
    timeline.jump(to: lastTick)
    guard case .record(let record) = timeline.state.snapshot.path.last?.screen else {
      Issue.record("the recording screen is on top at step \(lastTick)")
      return
    }
    #expect(record.secondsElapsed == 3)
    let alertStep = try #require(recording.steps.first { "\($0.action)".contains("deleteTapped") })
    timeline.jump(to: alertStep.sequence)
    guard case .detail(let shown) = timeline.state.snapshot.path.last?.screen else {
      Issue.record("the detail screen is on top at step \(alertStep.sequence)")
      return
    }
    #expect(shown.destination == .deleteQuestion)
    timeline.jump(to: 0)
    #expect(timeline.state.snapshot.meetings.isEmpty)
    timeline.jump(to: recording.steps.count)
    #expect(timeline.state.snapshot == final)

    // Skip: without the confirmation (and the deletion its effect delivered), Retro stays.
    let confirm = try #require(recording.steps.first { "\($0.action)".contains("confirmDelete") })
    let skipped = recording.skippingWithEffects([confirm.sequence])
    #expect(skipped.count >= 2, "the confirmation and the delegate action it led to")
    let without = recording.replay(
      skipping: skipped, environment: MeetingsEnvironment(clock: clock))
    #expect(without.snapshot.meetings.map(\.title) == ["Daily standup", "Retro"])

    // Filter: the steps that changed the list of meetings, from the recording's changes.
    let changedMeetings = recording.steps.filter { step in
      step.changes.contains { $0.name == "meetings" }
    }.map(\.sequence)
    #expect(
      changedMeetings.count == 4, "two adds, the saved edit, the deletion: \(changedMeetings)")
  }
}
