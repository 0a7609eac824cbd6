import Arboreal
import ArborealDevtools
import ArborealTestSupport
import Testing

/// Moving through a recording: forward, back, and across checkpoints.
@Suite actor TimeTravelTests {
  /// A recording of `count` random actions, and the snapshot after each step (index 0: the
  /// start), taken from the recorded store itself.
  private func recorded(_ count: Int, seed: UInt64) async throws -> (
    Recording<Board>, [Board.Snapshot]
  ) {
    var random = SeededRandom(seed: seed)
    let store = Store(state: Board(), environment: ())
    let recorder = try StoreRecorder(store, to: nil)
    var snapshots = [store.state.snapshot]
    // After the recorder's handler, as it was added first. Unowned: the store keeps its
    // handlers, so a handler holding it would keep it forever.
    store.addLogHandler { [unowned store] _ in
      snapshots.append(store.state.snapshot)
    }
    for index in 0..<count {
      store.send(random.boardAction(ids: store.state.cards.map(\.id)))
      if random.next(below: 5) == 0 { await store.finish() }
      // Let the other main-actor tests run now and then (`finish()` need not suspend).
      if index % 50 == 49 { await Task.yield() }
    }
    await store.finish()
    await recorder.finish()
    return (recorder.recording, snapshots)
  }

  @Test func jumpsForwardAndBackGiveTheStateAfterThatStep() async throws {
    let (recording, snapshots) = try await recorded(300, seed: 5)
    #expect(snapshots.count == recording.steps.count + 1)
    let timeline = Timeline(recording, environment: (), checkpointInterval: 16)
    var random = SeededRandom(seed: 6)
    for _ in 0..<200 {
      let target = random.next(below: timeline.count + 1)
      timeline.jump(to: target)
      #expect(timeline.step == target)
      #expect(timeline.state.snapshot == snapshots[target], "step \(target)")
    }
    // Back to the start, then to the end.
    timeline.jump(to: 0)
    #expect(timeline.state.snapshot == snapshots[0])
    timeline.jump(to: timeline.count)
    #expect(timeline.state.snapshot == snapshots.last)
  }

  @Test func jumpsAreClamped() async throws {
    let (recording, snapshots) = try await recorded(10, seed: 9)
    let timeline = Timeline(recording, environment: ())
    timeline.jump(to: 1_000)
    #expect(timeline.step == timeline.count)
    #expect(timeline.state.snapshot == snapshots.last)
    timeline.jump(to: -3)
    #expect(timeline.step == 0)
    #expect(timeline.state.snapshot == snapshots[0])
  }

  @Test func aJumpBackUsesACheckpointAndAppliesFewSteps() async throws {
    let (recording, snapshots) = try await recorded(100, seed: 11)
    let timeline = Timeline(recording, environment: (), checkpointInterval: 10)
    timeline.jump(to: timeline.count)
    let before = timeline.state
    timeline.jump(to: 35)
    #expect(timeline.state !== before, "a jump back starts from a checkpoint's new model")
    #expect(timeline.state.snapshot == snapshots[35])
    timeline.jump(to: 36)
    #expect(timeline.state.snapshot == snapshots[36])
    // Forward past a checkpoint already taken: from that checkpoint, not step by step.
    let at36 = timeline.state
    timeline.jump(to: 72)
    #expect(timeline.state !== at36, "a jump forward past a checkpoint starts from it")
    #expect(timeline.state.snapshot == snapshots[72])
    // Forward within an interval: the same model, moved on.
    let at72 = timeline.state
    timeline.jump(to: 75)
    #expect(timeline.state === at72)
    #expect(timeline.state.snapshot == snapshots[75])
  }

  @Test func aLogOfTenThousandActionsJumpsBothWays() async throws {
    try await jumpsBothWays(through: 10_000)
  }

  /// Keeps the main actor busy for seconds: a reliability test (`ARBOREAL_RELIABILITY=1`).
  @Test(.enabled(if: reliabilitySuiteEnabled))
  func aLogOfOneHundredThousandActionsJumpsBothWays() async throws {
    try await jumpsBothWays(through: 100_000)
  }

  /// Records `count` actions (two adds, then bumps and toggles of the two cards) and jumps
  /// to the end, back to the start, to the middle, and to the end again.
  private func jumpsBothWays(through count: Int) async throws {
    let store = Store(state: Board(), environment: ())
    let recorder = try StoreRecorder(store, to: nil)
    store.send(.add("a"))
    store.send(.add("b"))
    for index in 0..<(count - 2) {
      store.send(index % 3 == 0 ? .card(id: 1 + index % 2, .bump) : .card(id: 2, .toggle))
      // Let the other main-actor tests run now and then.
      if index % 100 == 0 { await Task.yield() }
    }
    await recorder.finish()
    let recording = recorder.recording
    #expect(recording.steps.count == count)

    let timeline = Timeline(recording, environment: ())
    timeline.jump(to: count)
    #expect(timeline.state.snapshot == store.state.snapshot)
    await Task.yield()
    timeline.jump(to: 2)
    #expect(timeline.state.cards.map(\.count) == [0, 0])
    // Steps 3...: index 0 bumps card 1, index 3 bumps card 2, ... every third action bumps.
    let middle = count / 2
    timeline.jump(to: middle)
    let bumps = (0..<(middle - 2)).filter { $0 % 3 == 0 }
    #expect(timeline.state.cards[0].count == bumps.filter { $0 % 2 == 0 }.count)
    #expect(timeline.state.cards[1].count == bumps.filter { $0 % 2 == 1 }.count)
    await Task.yield()
    timeline.jump(to: count - 1)
    timeline.jump(to: count)
    #expect(timeline.state.snapshot == store.state.snapshot)
  }

  @Test func replayUpToAStepMatchesTheTimeline() async throws {
    let (recording, snapshots) = try await recorded(50, seed: 13)
    for step in [0, 1, 25, recording.steps.count] {
      #expect(recording.replay(upTo: step, environment: ()).snapshot == snapshots[step])
    }
  }
}
