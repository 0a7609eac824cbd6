import Arboreal
import ArborealDevtools
import ArborealTestSupport
import Foundation
import Testing

/// Recordings that are cut short, damaged, or written by another version of the model: each
/// is an error naming its line, never a crash, and the lines before it can still be replayed.
@Suite actor BadInputTests {
  /// A recording of six steps (`rename`, three `add`s, a toggle, a rename) and the snapshot
  /// after each step.
  private func sixSteps(in file: TemporaryFile) async throws -> [Board.Snapshot] {
    let store = Store(state: Board(), environment: ())
    let recorder = try StoreRecorder(store, to: file.path)
    var snapshots = [store.state.snapshot]
    for action: Board.Action in [
      .rename("groceries"), .add("milk"), .add("eggs"), .add("bread"), .card(id: 2, .toggle),
      .rename("shopping"),
    ] {
      store.send(action)
      snapshots.append(store.state.snapshot)
    }
    await recorder.finish()
    return snapshots
  }

  private func expectError(
    _ kind: RecordingError.Kind, line: Int, in file: TemporaryFile,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(sourceLocation: sourceLocation) {
      _ = try Recording<Board>(contentsOf: file.path)
    } throws: { error in
      let error = error as? RecordingError
      return error?.kind == kind && error?.line == line && error?.path == file.path
    }
  }

  @Test func aTruncatedLastLineIsAnErrorWithItsNumber() async throws {
    let file = try TemporaryFile()
    let snapshots = try await sixSteps(in: file)
    let lines = try file.lines()
    // Cut the last step in the middle, as an interrupted write leaves it.
    try file.write(lines.dropLast().joined(separator: "\n") + "\n" + lines.last!.prefix(30))

    expectError(.truncatedLine, line: 7, in: file)
    let error = try #require(throws: RecordingError.self) {
      try Recording<Board>(contentsOf: file.path)
    }
    #expect(
      error.description
        == "\(file.path):7: the line is cut short (the recording was interrupted while writing it)"
    )

    // Asked to, the valid prefix replays: the state after step 5.
    let prefix = try Recording<Board>(contentsOf: file.path, keepingValidPrefix: true)
    #expect(prefix.steps.count == 5)
    #expect(prefix.problem?.kind == .truncatedLine)
    #expect(prefix.replay(environment: ()).snapshot == snapshots[5])
  }

  @Test func aCompleteLastLineWithoutItsNewlineIsKept() async throws {
    let file = try TemporaryFile()
    let snapshots = try await sixSteps(in: file)
    try file.write(try file.lines().joined(separator: "\n"))
    let recording = try Recording<Board>(contentsOf: file.path)
    #expect(recording.steps.count == 6)
    #expect(recording.replay(environment: ()).snapshot == snapshots[6])
  }

  @Test func aCorruptLineInTheMiddleIsAnErrorWithItsNumber() async throws {
    let file = try TemporaryFile()
    let snapshots = try await sixSteps(in: file)
    var lines = try file.lines()
    lines[3] = "{\"seq\": 3, garbage"
    try file.write(lines.joined(separator: "\n") + "\n")

    expectError(.corruptLine("not valid JSON"), line: 4, in: file)
    let prefix = try Recording<Board>(contentsOf: file.path, keepingValidPrefix: true)
    #expect(prefix.steps.count == 2)
    #expect(prefix.problem?.line == 4)
    #expect(prefix.replay(environment: ()).snapshot == snapshots[2])
  }

  @Test func aLineMissingAFieldSaysWhichField() async throws {
    let file = try TemporaryFile()
    _ = try await sixSteps(in: file)
    var lines = try file.lines()
    lines[2] = lines[2].replacingOccurrences(of: "\"changes\"", with: "\"changed\"")
    try file.write(lines.joined(separator: "\n") + "\n")
    expectError(.corruptLine("no field \"changes\""), line: 3, in: file)
  }

  @Test func aRenamedActionIsReportedByName() async throws {
    let file = try TemporaryFile()
    let snapshots = try await sixSteps(in: file)
    var lines = try file.lines()
    // As if the case had been called `retitle` when the recording was made.
    lines[7 - 1] = lines[7 - 1].replacingOccurrences(of: "\"rename\"", with: "\"retitle\"")
    try file.write(lines.joined(separator: "\n") + "\n")

    let error = try #require(throws: RecordingError.self) {
      try Recording<Board>(contentsOf: file.path)
    }
    #expect(error.line == 7)
    guard case .undecodableAction(let name, _) = error.kind else {
      Issue.record("expected an undecodable action, got \(error)")
      return
    }
    #expect(name == "retitle")
    #expect(error.description.hasPrefix("\(file.path):7: the action 'retitle' no longer decodes"))

    let prefix = try Recording<Board>(contentsOf: file.path, keepingValidPrefix: true)
    #expect(prefix.replay(environment: ()).snapshot == snapshots[5])
  }

  @Test func aNestedRenamedActionIsReportedByItsOuterName() async throws {
    let file = try TemporaryFile()
    _ = try await sixSteps(in: file)
    var lines = try file.lines()
    lines[5] = lines[5].replacingOccurrences(of: "\"toggle\"", with: "\"flip\"")
    try file.write(lines.joined(separator: "\n") + "\n")
    let error = try #require(throws: RecordingError.self) {
      try Recording<Board>(contentsOf: file.path)
    }
    #expect(error.line == 6)
    if case .undecodableAction(let name, let reason) = error.kind {
      #expect(name == "card")
      #expect(reason.contains("flip") || reason.contains("card"))
    } else {
      Issue.record("expected an undecodable action, got \(error)")
    }
  }

  @Test func aMissingLineIsAnErrorOfSequence() async throws {
    let file = try TemporaryFile()
    _ = try await sixSteps(in: file)
    var lines = try file.lines()
    lines.remove(at: 3)
    try file.write(lines.joined(separator: "\n") + "\n")
    expectError(.outOfSequence(expected: 3, found: 4), line: 4, in: file)
  }

  @Test func anEffectStartedByALaterStepIsCorrupt() async throws {
    let file = try TemporaryFile()
    _ = try await sixSteps(in: file)
    var lines = try file.lines()
    lines[2] = lines[2].replacingOccurrences(
      of: #""cause":"sent""#, with: #""cause":"effect","startedBy":5"#)
    try file.write(lines.joined(separator: "\n") + "\n")
    expectError(
      .corruptLine("an effect started by step 5, which is not an earlier step"), line: 3,
      in: file)
  }

  @Test func theHeaderIsChecked() throws {
    let file = try TemporaryFile()
    try file.write("")
    expectError(.empty, line: 1, in: file)
    try file.write("{\"todos\": []}\n")
    expectError(.notARecording, line: 1, in: file)
    try file.write(
      #"{"format":"arboreal-recording","version":9,"model":"Board","snapshot":{}}"# + "\n")
    expectError(.unsupportedVersion(9), line: 1, in: file)
    try file.write(
      #"{"format":"arboreal-recording","version":1,"model":"Board","snapshot":{}}"# + "\n")
    #expect {
      _ = try Recording<Board>(contentsOf: file.path, keepingValidPrefix: true)
    } throws: { error in
      guard case .snapshotDoesNotDecode(let reason) = (error as? RecordingError)?.kind else {
        return false
      }
      return reason.contains("title")
    }
  }

  @Test func aMissingFileIsAnError() throws {
    let file = try TemporaryFile()
    let error = try #require(throws: RecordingError.self) {
      try Recording<Board>(contentsOf: file.path)
    }
    #expect(error.line == 0)
    #expect(error.description == "\(file.path): cannot use the file: No such file or directory")
  }

  @Test func randomDamageNeverCrashesAndAlwaysNamesALine() async throws {
    let file = try TemporaryFile()
    _ = try await sixSteps(in: file)
    let original = Array(try Data(contentsOf: URL(fileURLWithPath: file.path)))
    var random = SeededRandom(seed: 17)
    for _ in 0..<300 {
      await Task.yield()  // other main-actor tests in between: decoding is slow under ASan
      var bytes = original
      for _ in 0..<(1 + random.next(below: 3)) {
        bytes[random.next(below: bytes.count)] = UInt8(truncatingIfNeeded: random.next())
      }
      if random.next(below: 3) == 0 { bytes.removeLast(random.next(below: bytes.count)) }
      do {
        let recording = try Recording<Board>(data: Data(bytes))
        #expect(recording.steps.count <= 6)
      } catch {
        #expect((1...7).contains(error.line), "\(error)")
        // The valid prefix always loads unless the header itself is damaged.
        if error.line > 1 {
          let prefix = try Recording<Board>(data: Data(bytes), keepingValidPrefix: true)
          #expect(prefix.steps.count == error.line - 2)
        }
      }
    }
  }
}
