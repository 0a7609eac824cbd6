import Arboreal
import ArborealDevtools
import ArborealTestSupport
import Foundation
import Testing

/// Recording a store's actions to a file and replaying them on a fresh model.
@Suite actor RecordReplayTests {
  /// Runs a random session of `count` actions on a recorded store, waits until its effects
  /// have delivered everything and the recorder has written it, and returns the store.
  private func recordSession(
    seed: UInt64, count: Int, to path: String?, settleOneIn settle: Int = 4
  ) async throws -> (Store<Board>, StoreRecorder<Board>) {
    var random = SeededRandom(seed: seed)
    let store = Store(state: Board(), environment: ())
    let recorder = try StoreRecorder(store, to: path)
    for index in 0..<count {
      store.send(random.boardAction(ids: store.state.cards.map(\.id)))
      // Sometimes let effects deliver in between, so that their actions interleave.
      if random.next(below: settle) == 0 { await store.finish() }
      // `finish()` need not suspend: yield now and then, so that the other main-actor tests
      // (a `TestStore` waits at most a second) are not held up, slow builds (ASan) included.
      if index % 50 == 49 { await Task.yield() }
    }
    await store.finish()
    await recorder.finish()
    return (store, recorder)
  }

  @Test func replayingARecordedSessionGivesAnIdenticalSnapshot() async throws {
    let file = try TemporaryFile()
    for seed in UInt64(1)...1_000 {
      await Task.yield()  // one session at a time, other main-actor tests in between
      var random = SeededRandom(seed: seed &* 7919)
      let (store, recorder) = try await recordSession(
        seed: seed, count: 1 + random.next(below: 40), to: file.path)
      let recording = try Recording<Board>(contentsOf: file.path)
      #expect(recording.problem == nil)
      #expect(recording.steps.map(\.action) == recorder.steps.map(\.action), "seed \(seed)")
      let replayed = Store(state: recording.replay(environment: ()), environment: ())
      if replayed.state.snapshot != store.state.snapshot {
        Issue.record("seed \(seed): the replayed snapshot differs")
        break
      }
    }
  }

  @Test func aRecordingOfOneAction() async throws {
    let file = try TemporaryFile()
    let store = Store(state: Board(), environment: ())
    let recorder = try StoreRecorder(store, to: file.path)
    store.send(.rename("one"))
    await recorder.finish()

    let lines = try file.lines()
    #expect(lines.count == 2, "the header and one step")
    #expect(lines[0].contains("\"format\":\"arboreal-recording\""))
    #expect(
      lines[1]
        == #"{"seq":1,"cause":"sent","action":{"rename":{"_0":"one"}},"changes":[{"owner":"Board#board","property":"title"}]}"#
    )
    let recording = try Recording<Board>(contentsOf: file.path)
    #expect(recording.replay(environment: ()).title == "one")
  }

  @Test func aLargeRecordingReplaysExactly() async throws {
    let file = try TemporaryFile()
    let (store, _) = try await recordSession(
      seed: 42, count: 10_000, to: file.path, settleOneIn: 100)
    // Read off the main actor: decoding 10,000 lines would hold up the other main-actor tests.
    let path = file.path
    let recording = try await Task.detached { try Recording<Board>(contentsOf: path) }.value
    #expect(recording.steps.count >= 10_000)
    #expect(recording.replay(environment: ()).snapshot == store.state.snapshot)
  }

  @Test func effectActionsNameTheActionThatStartedThem() async throws {
    let file = try TemporaryFile()
    let store = Store(state: Board(), environment: ())
    let recorder = try StoreRecorder(store, to: file.path)
    await store.send(.load(2)).value
    store.send(.add("a"))
    await recorder.finish()

    let recording = try Recording<Board>(contentsOf: file.path)
    #expect(
      recording.steps.map(\.action) == [.load(2), .loaded(2), .loaded(1), .loaded(0), .add("a")])
    #expect(
      recording.steps.map(\.cause) == [
        .sent, .effect(startedBy: 1), .effect(startedBy: 2), .effect(startedBy: 3), .sent,
      ])
    #expect(recording.steps[1].changes == [RecordedProperty(owner: "Board#board", name: "total")])
    #expect(recording.steps[0].changes.isEmpty)
    // The new card is not a changed one: only the board's cards changed.
    #expect(recording.steps[4].changes.map(\.description) == ["Board#board.cards"])
    #expect(try file.lines()[2].contains(#""cause":"effect","startedBy":1"#))
  }

  @Test func aRecordingStartedLateNumbersFromOneAndLeavesEarlierEffectsUnnamed() async throws {
    let store = Store(state: Board(), environment: ())
    store.addLogHandler { _ in }  // numbered by the store from here
    store.send(.rename("before"))
    await store.send(.load(0)).value
    let recorder = try StoreRecorder(store, to: nil)
    store.send(.load(0))
    await store.finish()
    await recorder.flush()
    #expect(recorder.steps.map(\.sequence) == [1, 2])
    #expect(recorder.steps.map(\.cause) == [.sent, .effect(startedBy: 1)])
    #expect(recorder.recording.start.title == "before")
  }

  @Test func anEffectStartedBeforeTheRecordingHasNoStartingStep() async throws {
    let store = Store(state: Board(), environment: ())
    store.addLogHandler { _ in }
    // An effect started before the recorder: its action cannot be handled before the
    // recorder starts, since this test holds the main actor until then.
    let handle = store.send(.load(0))
    let recorder = try StoreRecorder(store, to: nil)
    await handle.value
    await recorder.flush()
    #expect(recorder.steps.map(\.cause) == [.effect(startedBy: nil)])
    #expect(recorder.steps.first?.summary == "#1 loaded(0) ← effect started before the recording")
  }

  @Test func theRecorderCallsTheHandlerThatWasThere() async throws {
    let store = Store(state: Board(), environment: ())
    var seen: [Board.Action] = []
    store.addLogHandler { seen.append($0.action) }
    let recorder = try StoreRecorder(store, to: nil)
    store.send(.noop)
    await recorder.flush()
    #expect(seen == [.noop])
    #expect(recorder.steps.map(\.action) == [.noop])
  }

  @Test func actionsAfterFinishAreNotRecorded() async throws {
    let file = try TemporaryFile()
    let store = Store(state: Board(), environment: ())
    let recorder = try StoreRecorder(store, to: file.path)
    store.send(.rename("a"))
    await recorder.finish()
    store.send(.rename("b"))
    await recorder.flush()
    #expect(recorder.steps.count == 1)
    #expect(try file.lines().count == 2)
  }

  @Test func aFileThatCannotBeCreatedIsAClearError() throws {
    let file = try TemporaryFile()
    let path = file.directory.appendingPathComponent("missing/recording.jsonl").path
    let store = Store(state: Board(), environment: ())
    #expect {
      _ = try StoreRecorder(store, to: path)
    } throws: { error in
      (error as? RecordingError)?.description
        == "\(path): cannot use the file: No such file or directory"
    }
  }

  @Test func aDetachedTaskReadsTheRecordingWhileTheStoreRuns() async throws {
    let file = try TemporaryFile()
    let store = Store(state: Board(), environment: ())
    let recorder = try StoreRecorder(store, to: file.path)
    for index in 0..<100 { store.send(.add("card \(index)")) }
    await recorder.flush()
    let path = file.path
    // Read off the main actor while the main actor keeps sending.
    let reader = Task.detached { () throws -> [Board.Action] in
      try Recording<Board>(contentsOf: path).steps.map(\.action)
    }
    for index in 0..<100 { store.send(.card(id: index + 1, .toggle)) }
    let read = try await reader.value
    #expect(read.count >= 100)
    #expect(read.prefix(100) == (0..<100).map { .add("card \($0)") }[...])
    await recorder.finish()
    #expect(try Recording<Board>(contentsOf: path).steps.count == 200)
  }

  @Test func theWriterWritesWhileTheMainActorIsBusy() throws {
    let file = try TemporaryFile()
    let store = Store(state: Board(), environment: ())
    let recorder = try StoreRecorder(store, to: file.path)
    store.send(.rename("written off the main actor"))
    // The main actor does not suspend from here on: only a writer running elsewhere can put
    // the line in the file. The bound only ends a hung run: 10 minutes, longer than the whole
    // suite under a sanitizer with other processes on the cores, since how soon the writer
    // gets a thread depends on the load (it was 10 seconds).
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(600)
    var text = ""
    // Two whole lines: the header, then the step.
    while text.filter({ $0 == "\n" }).count < 2 && clock.now < deadline {
      text = (try? String(contentsOfFile: file.path, encoding: .utf8)) ?? ""
    }
    let lines = text.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.last?.contains("written off the main actor") == true)
    _ = recorder
  }

  @MainActor
  @Test func flushAndFinishCanBeAwaitedFromAnotherTaskOfTheStoresIsolation() async throws {
    let store = Store(state: Board(), environment: ())
    let recorder = try StoreRecorder(store, to: nil)
    for _ in 0..<1_000 { store.send(.noop) }
    // The recorder is not `Sendable` (it belongs to the store's isolation): another task of
    // that isolation may await it.
    await Task { await recorder.flush() }.value
    #expect(recorder.steps.count == 1_000)
    await Task { await recorder.finish() }.value
    store.send(.noop)
    #expect(recorder.steps.count == 1_000)
  }

  @Test func stepsAreNotKeptWhenNotAsked() async throws {
    let file = try TemporaryFile()
    let store = Store(state: Board(), environment: ())
    let recorder = try StoreRecorder(store, to: file.path, keepingSteps: false)
    store.send(.noop)
    await recorder.finish()
    #expect(recorder.steps.isEmpty)
    #expect(try Recording<Board>(contentsOf: file.path).steps.count == 1)
  }
}

/// The recorder's bound and its syncing: a store that outruns the writer waits instead of
/// dropping steps, and `finish()` leaves every line on the disk.
@Suite actor RecorderLimitAndDurabilityTests {
  @Test(arguments: [StoreRecorder<Board>.Durability.whenFinished, .afterEachBatch])
  func aStoreThatOutrunsTheWriterLosesNothing(durability: StoreRecorder<Board>.Durability)
    async throws
  {
    let file = try TemporaryFile()
    let store = Store(state: Board(), environment: ())
    // A limit of one: nearly every action waits for the writer.
    let recorder = try StoreRecorder(
      store, to: file.path, keepingSteps: false, limit: 1, durability: durability)
    for index in 0..<2_000 { store.send(.rename("title \(index)")) }
    await recorder.finish()
    let recording = try Recording<Board>(contentsOf: file.path)
    #expect(recording.problem == nil)
    #expect(recording.steps.count == 2_000)
    #expect(recording.steps.map(\.sequence) == Array(1...2_000))
    #expect(recording.replay(environment: ()).snapshot == store.state.snapshot)
  }

  @Test func flushPromisesEveryStepLoggedBeforeIt() async throws {
    let file = try TemporaryFile()
    let store = Store(state: Board(), environment: ())
    let recorder = try StoreRecorder(store, to: file.path, durability: .afterEachBatch)
    for round in 1...5 {
      for index in 0..<100 { store.send(.rename("\(round).\(index)")) }
      await recorder.flush()
      // The header and every step so far, complete, before `finish()`.
      #expect(try file.lines().count == 1 + round * 100)
    }
    await recorder.finish()
  }
}
