import Arboreal
import ArborealDevtools
import ArborealPersistence
import ArborealTesting
import Foundation
import Testing

// The code of the "Persisting models" article
// (Sources/ArborealPersistence/ArborealPersistence.docc/PersistingModels.md), verbatim between the
// `article begins` and `article ends` markers, so that it keeps compiling and doing what it
// says. `.ci/check-article-code.py` checks that the article still shows it.

enum DocsPersistence {
  // article begins: model
  final class Notes: ReplayableModel {
    enum Action: Codable, Sendable {
      case add(String)
      case pin(Int)
    }

    struct Environment: Sendable {
      var clock: any Clock<Duration> = ContinuousClock()
    }

    struct Snapshot: Codable, Equatable, Sendable {
      var notes: [String]
      var pinned: Int?
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var notes: [String] = []
    @Tracked private(set) var pinned: Int?

    init() {}

    init(snapshot: Snapshot) {
      notes = snapshot.notes
      pinned = snapshot.pinned
    }

    var snapshot: Snapshot { Snapshot(notes: notes, pinned: pinned) }

    func update(action: Action, environment: Environment) -> Fx<Action> {
      switch action {
      case .add(let text): notes.append(text)
      case .pin(let index): pinned = notes.indices.contains(index) ? index : nil
      }
      return .none
    }
  }
  // article ends: model

  // article begins: migration
  /// Version 1 saved the notes alone, as `{"notes": [...]}`; version 2 added `pinned`.
  static let file = PersistedFile<Notes>(path: "notes.json", version: 2) { old in
    struct Version1: Decodable { var notes: [String] }
    guard old.version == 1 else { throw MigrationError(version: old.version) }
    let notes = try JSONDecoder().decode(Version1.self, from: old.data).notes
    return Notes.Snapshot(notes: notes, pinned: nil)
  }

  struct MigrationError: Error, CustomStringConvertible {
    var version: Int
    var description: String { "notes.json was never written in version \(version)" }
  }
  // article ends: migration

  /// The article's start-up, with the file and clock as parameters, returning what it made.
  static func start(
    file: PersistedFile<Notes>, environment: Notes.Environment,
    isolation: isolated any Actor = #isolation
  ) throws -> (Store<Notes>, StorePersister<Notes>) {
    // article begins: start
    let notes = try file.load().map(Notes.init(snapshot:)) ?? Notes()
    let store = Store(state: notes, environment: environment)
    let persister = try StorePersister(store, to: file, clock: environment.clock) { problem in
      if let problem { print("not saved: \(problem)") }
    }
    // article ends: start
    return (store, persister)
  }
}

@Suite actor DocsPersistenceTests {
  @Test func theArticlesModelStartsSavesAndFinishes() async throws {
    let temporary = try TemporaryFile("notes.json")
    let file = PersistedFile<DocsPersistence.Notes>(
      path: temporary.path, version: 2, migrate: DocsPersistence.file.migrate)
    let clock = TestClock()
    let (store, persister) = try DocsPersistence.start(
      file: file, environment: DocsPersistence.Notes.Environment(clock: clock))
    // article begins: debounce
    store.send(.add("milk"))
    store.send(.add("eggs"))  // the same save: it is booked half a second after the first
    await clock.advance(by: .milliseconds(500))
    #expect(try file.load()?.notes == ["milk", "eggs"])
    // article ends: debounce
    // article begins: finish
    store.send(.pin(1))
    await persister.finish()  // written now, without waiting for the clock
    #expect(try file.load()?.pinned == 1)
    // article ends: finish
  }

  @Test func theArticlesMigrationReadsVersion1() throws {
    let temporary = try TemporaryFile("notes.json")
    try temporary.write(#"{"format":"arboreal-snapshot","version":1,"snapshot":{"notes":["tea"]}}"#)
    let file = PersistedFile<DocsPersistence.Notes>(
      path: temporary.path, version: 2, migrate: DocsPersistence.file.migrate)
    #expect(try file.load() == DocsPersistence.Notes.Snapshot(notes: ["tea"], pinned: nil))
    try temporary.write(#"{"notes":["tea"]}"#)
    #expect(
      throws: PersistenceError(
        .migrationFailed(from: 0, reason: "notes.json was never written in version 0"),
        path: temporary.path)
    ) { try file.load() }
  }
}
