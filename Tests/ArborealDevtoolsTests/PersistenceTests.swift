import Arboreal
import ArborealDevtools
import ArborealPersistence
import ArborealTesting
import Foundation
import Testing

/// `PersistedFile` and `StorePersister`: what is read, what is written and when, and what is
/// never written over.
@Suite actor PersistenceTests {
  /// A board file in a fresh folder.
  private nonisolated func boardFile(
    version: Int = 1, migrate: PersistedFile<Board>.Migration? = nil
  )
    throws -> (TemporaryFile, PersistedFile<Board>)
  {
    let temporary = try TemporaryFile("board.json")
    return (
      temporary, PersistedFile<Board>(path: temporary.path, version: version, migrate: migrate)
    )
  }

  /// The file's inode: a new one for each atomic write.
  private func inode(_ path: String) throws -> Int {
    try #require(FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int)
  }

  // MARK: The file

  @Test func aMissingFileIsNoStateAndASavedOneLoadsBackEqual() throws {
    let (temporary, file) = try boardFile()
    #expect(try file.load() == nil)
    let board = Board()
    _ = board.update(action: .rename("Groceries"), environment: ())
    _ = board.update(action: .add("milk"), environment: ())
    try file.save(board.snapshot)
    #expect(try file.load() == board.snapshot)
    let first = try Data(contentsOf: URL(fileURLWithPath: temporary.path))
    try file.save(board.snapshot)
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: temporary.path)) == first, "same state, same bytes")
    #expect(
      String(decoding: first, as: UTF8.self).hasPrefix(
        #"{"format":"arboreal-snapshot","version":1,"snapshot":{"#))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: temporary.directory.path) == [
        "board.json"
      ],
      "no temporary file left behind")
  }

  @Test func badFilesAreErrorsThatNameTheFileAndWhatIsWrong() throws {
    let (temporary, file) = try boardFile(version: 2)
    let cases: [(String, PersistenceError.Kind)] = [
      ("", .notJSON("the file is empty")),
      (
        #"{"format":"arboreal-snapshot","version":2,"snapshot":{"title":"#,
        .notJSON("it may have been cut short or edited by hand")
      ),
      (#"{"todos": []}"#, .notASnapshot),
      (
        #"{"format":"arboreal-snapshot","version":3,"snapshot":{}}"#,
        .newerVersion(found: 3, supported: 2)
      ),
      (#"{"format":"arboreal-snapshot","version":1,"snapshot":{}}"#, .noMigration(from: 1)),
    ]
    for (contents, kind) in cases {
      try temporary.write(contents)
      #expect(throws: PersistenceError(kind, path: temporary.path), "\(contents)") {
        try file.load()
      }
    }
    try temporary.write(#"{"format":"arboreal-snapshot","version":2,"snapshot":{"title":7}}"#)
    let error = try #require(throws: PersistenceError.self) { try file.load() }
    guard case .snapshotDoesNotDecode(let reason) = error.kind else {
      Issue.record("\(error)")
      return
    }
    #expect(reason.contains("title"))
    #expect(error.description.hasPrefix("\(temporary.path): the saved state does not decode"))
    #expect(
      PersistenceError(.newerVersion(found: 3, supported: 2), path: "todos.json").description
        == "todos.json: written by a newer version of the program (format version 3; this one reads up to 2)"
    )
  }

  @Test func olderFilesGoThroughTheMigrationAndAFailingOneSaysWhy() throws {
    struct OldBoard: Decodable { var name: String }
    struct Refused: Error, CustomStringConvertible {
      var description: String { "no cards in version 1" }
    }
    let (temporary, file) = try boardFile(version: 2) { old in
      switch old.version {
      case 0:
        let legacy = try JSONDecoder().decode(OldBoard.self, from: old.data)
        return Board.Snapshot(title: legacy.name, cards: [], total: 0, nextID: 1)
      default:
        throw Refused()
      }
    }
    try temporary.write(#"{"name": "Chores"}"#)
    #expect(try file.load() == Board.Snapshot(title: "Chores", cards: [], total: 0, nextID: 1))
    try temporary.write(#"{"format":"arboreal-snapshot","version":1,"snapshot":{"title":"x"}}"#)
    #expect(
      throws: PersistenceError(
        .migrationFailed(from: 1, reason: "no cards in version 1"), path: temporary.path)
    ) {
      try file.load()
    }
  }

  @Test func aFileIsReadAndWrittenFromAnyIsolation() async throws {
    let (temporary, file) = try boardFile()
    defer { withExtendedLifetime(temporary) {} }
    let snapshot = Board.Snapshot(title: "t", cards: [], total: 3, nextID: 1)
    try await Task.detached { try file.save(snapshot) }.value
    #expect(try await Task.detached { try file.load() }.value == snapshot)
    actor Other {
      func load(_ file: PersistedFile<Board>) throws -> Board.Snapshot? { try file.load() }
    }
    #expect(try await Other().load(file) == snapshot)
  }

  @Test func movingAsideKeepsTheFileUnderANewName() throws {
    let (temporary, file) = try boardFile()
    try temporary.write("garbage")
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let first = try file.moveAside(now: now)
    try temporary.write("more garbage")
    let second = try file.moveAside(now: now)
    #expect(first == temporary.path + ".corrupt-20270115-080000")
    #expect(second == first + "-2")
    #expect(try String(contentsOfFile: second, encoding: .utf8) == "more garbage")
    #expect(try file.load() == nil)
  }

  // MARK: The persister

  @Test func aChangeIsSavedOnceTheDebounceHasPassedOnTheClock() async throws {
    let (temporary, file) = try boardFile()
    let clock = TestClock()
    let store = Store(state: Board(), environment: ())
    let persister = try StorePersister(store, to: file, debounce: .milliseconds(500), clock: clock)
    #expect(!FileManager.default.fileExists(atPath: temporary.path), "nothing changed yet")

    store.send(.rename("a"))
    await clock.advance(by: .milliseconds(300))
    #expect(!FileManager.default.fileExists(atPath: temporary.path))
    store.send(.add("milk"))  // joins the booked save: it does not move it later
    await clock.advance(by: .milliseconds(200))
    #expect(try file.load() == store.state.snapshot)
    let written = try inode(temporary.path)

    await clock.advance(by: .seconds(5))
    #expect(try inode(temporary.path) == written, "no change, no write")
    store.send(.rename("b"))
    store.send(.rename("a"))
    await clock.advance(by: .seconds(1))
    #expect(try inode(temporary.path) == written, "set and set back: the same state, not written")

    store.send(.card(id: 1, .toggle))
    await clock.advance(by: .milliseconds(499))
    #expect(try file.load()?.cards.first?.done == false)
    await clock.advance(by: .milliseconds(1))
    #expect(try file.load()?.cards.first?.done == true, "a child's change is saved too")
    await persister.finish()
  }

  @Test func finishWritesTheLastStateWithoutWaitingForTheClock() async throws {
    let (temporary, file) = try boardFile()
    defer { withExtendedLifetime(temporary) {} }
    let clock = TestClock()
    let store = Store(state: Board(), environment: ())
    let persister = try StorePersister(store, to: file, clock: clock)
    for index in 1...1_000 { store.send(.rename("title \(index)")) }
    await persister.finish()
    #expect(try file.load()?.title == "title 1000")
    store.send(.rename("after finish"))
    await clock.advance(by: .seconds(10))
    await persister.finish()
    #expect(try file.load()?.title == "title 1000", "changes after finish() are not saved")
  }

  @Test func flushSavesNowAndKeepsWatching() async throws {
    let (temporary, file) = try boardFile()
    defer { withExtendedLifetime(temporary) {} }
    let clock = TestClock()
    let store = Store(state: Board(), environment: ())
    let persister = try StorePersister(store, to: file, clock: clock)
    store.send(.rename("one"))
    await persister.flush()
    #expect(persister.problem == nil)
    #expect(try file.load()?.title == "one")
    store.send(.rename("two"))
    await clock.advance(by: .milliseconds(500))
    #expect(try file.load()?.title == "two")
    await persister.finish()
  }

  @Test func aFileThatDoesNotLoadIsNeverWrittenOver() throws {
    let (temporary, file) = try boardFile()
    try temporary.write(#"{"format":"arboreal-snapshot","version":9,"snapshot":{}}"#)
    let store = Store(state: Board(), environment: ())
    do {
      _ = try StorePersister(store, to: file, clock: TestClock())
      Issue.record("a file of a newer version was accepted")
    } catch {
      #expect(
        error == PersistenceError(.newerVersion(found: 9, supported: 1), path: temporary.path))
    }
    #expect(try String(contentsOfFile: temporary.path, encoding: .utf8).contains(#""version":9"#))
  }

  @Test func aMigratedFileIsWrittenInTheNewVersionAtFinish() async throws {
    let (temporary, file) = try boardFile(version: 2) { _ in
      Board.Snapshot(title: "migrated", cards: [], total: 0, nextID: 1)
    }
    try temporary.write(#"{"name": "old"}"#)
    let store = Store(state: Board(snapshot: try #require(try file.load())), environment: ())
    let persister = try StorePersister(store, to: file, clock: TestClock())
    await persister.finish()
    #expect(try String(contentsOfFile: temporary.path, encoding: .utf8).contains(#""version":2"#))
    #expect(try file.load()?.title == "migrated")
  }

  @Test func aFailedWriteIsReportedAndTriedAgain() async throws {
    let temporary = try TemporaryFile("board.json")
    let folder = temporary.directory.appendingPathComponent("missing")
    let file = PersistedFile<Board>(path: folder.appendingPathComponent("board.json").path)
    var reports: [PersistenceError?] = []
    let clock = TestClock()
    let store = Store(state: Board(), environment: ())
    let persister = try StorePersister(store, to: file, clock: clock) { reports.append($0) }
    store.send(.rename("a"))
    await clock.advance(by: .milliseconds(500))
    let problem = try #require(persister.problem)
    #expect(problem.path == file.path)
    #expect(problem.kind == .file("No such file or directory"))
    #expect(reports == [problem])

    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    await persister.finish()
    #expect(try file.load()?.title == "a", "finish() writes what the failed save did not")
    #expect(persister.problem == nil)
    #expect(reports == [problem, nil])
  }

  // MARK: What a user may forget

  @MainActor
  @Test func aPersisterReleasedBeforeFinishIsReportedInDebugBuilds() async throws {
    let (temporary, file) = try boardFile()
    defer { withExtendedLifetime(temporary) {} }
    let messages = Locked.make([String]())
    let path = temporary.path
    PersistenceDiagnostics.releasedPersisterHandler = { message in
      if message.contains(path) { messages.withLock { $0.append(message) } }
    }
    defer { PersistenceDiagnostics.releasedPersisterHandler = nil }
    let store = Store(state: Board(), environment: ())

    // Not kept at all: it would save nothing.
    _ = try StorePersister(store, to: file, clock: TestClock())
    // Kept, changed, released without finish(): the change is lost.
    var persister: StorePersister<Board>? = try StorePersister(store, to: file, clock: TestClock())
    store.send(.rename("lost"))
    persister = nil
    // Finished: nothing to say.
    let finished = try StorePersister(store, to: file, clock: TestClock())
    store.send(.rename("kept"))
    await finished.finish()

    let reported = messages.withLock { $0 }
    #if DEBUG
      #expect(reported.count == 2)
      #expect(reported.first?.contains("released before finish() and saves nothing more") == true)
      #expect(reported.last?.contains("with changes not yet saved, which are lost") == true)
      #expect(reported.allSatisfy { $0.contains("StorePersister<Board>") })
    #else
      #expect(reported.isEmpty)
    #endif
    #expect(persister == nil)
    #expect(try file.load()?.title == "kept")
  }

  // MARK: Size

  /// A list of numbers: a state whose size a test chooses.
  final class Numbers: ReplayableModel {
    enum Action: Codable, Sendable { case fill(count: Int), bump(index: Int) }
    let registrar = TrackingRegistrar()
    @Tracked private(set) var entries: [Int] = []
    init() {}
    init(snapshot: [Int]) { entries = snapshot }
    var snapshot: [Int] { entries }
    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .fill(let count): entries = Array(0..<count)
      case .bump(let index): entries[index] += 1
      }
      return .none
    }
  }

  @Test func aMillionElementStateIsSavedWholeAndLoadsBackEqual() async throws {
    let temporary = try TemporaryFile("numbers.json")
    let file = PersistedFile<Numbers>(path: temporary.path)
    let clock = TestClock()
    let store = Store(state: Numbers(), environment: ())
    let persister = try StorePersister(store, to: file, clock: clock)
    store.send(.fill(count: 1_000_000))
    for index in stride(from: 0, to: 1_000_000, by: 100_000) { store.send(.bump(index: index)) }
    await clock.advance(by: .milliseconds(500))
    #expect(try file.load() == store.state.entries, "the edits join one save")
    store.send(.bump(index: 999_999))
    await persister.finish()
    let loaded = try #require(try file.load())
    #expect(loaded.count == 1_000_000 && loaded[999_999] == 1_000_000 && loaded[100_000] == 100_001)
  }
}
