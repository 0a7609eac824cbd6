import Arboreal
import ArborealDevtools
import ArborealPersistence
import ArborealTesting
import Foundation
import Testing

/// Recording, replay, time travel, the viewer and persistence with the store in each isolation
/// it can live in: the main actor, an actor of its own, a nonisolated test, a detached task.
/// The same calls everywhere, and the same results.
@Suite struct DevtoolsIsolationTests {
  @Test func recordingOnTheMainActor() async throws {
    let file = try TemporaryFile()
    let report = try await MainActorDevtoolsHost().record(to: file.path)
    #expect(report == .expected)
  }

  @Test func recordingOnAnActorOfItsOwn() async throws {
    let file = try TemporaryFile()
    let report = try await DevtoolsHost().record(to: file.path)
    #expect(report == .expected)
  }

  @Test func recordingInANonisolatedTest() async throws {
    let file = try TemporaryFile()
    let report = try await DevtoolsScenario.record(to: file.path)
    #expect(report == .expected)
  }

  @Test func recordingInADetachedTask() async throws {
    let file = try TemporaryFile()
    let path = file.path
    let report = try await Task.detached { try await DevtoolsScenario.record(to: path) }.value
    #expect(report == .expected)
  }

  @Test func persistingOnTheMainActor() async throws {
    let file = try TemporaryFile("board.json")
    let titles = try await MainActorDevtoolsHost().persist(to: file.path)
    #expect(titles == DevtoolsScenario.expectedTitles)
  }

  @Test func persistingOnAnActorOfItsOwn() async throws {
    let file = try TemporaryFile("board.json")
    let titles = try await DevtoolsHost().persist(to: file.path)
    #expect(titles == DevtoolsScenario.expectedTitles)
  }

  /// A booked save of a persister whose actor is gone does nothing, and frees what it held.
  @Test func aPersisterOnAnActorThatIsGoneSavesNothingMore() async throws {
    let file = try TemporaryFile("board.json")
    let clock = TestClock()
    weak var weakHost: DevtoolsHost?
    do {
      let host = DevtoolsHost()
      weakHost = host
      try await host.startPersisting(to: file.path, clock: clock)
    }
    #expect(weakHost == nil, "the host, its store and its persister are freed")
    await clock.advance(by: .seconds(1))
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }
}

/// What one run of the scenario saw, compared whole.
struct DevtoolsReport: Equatable, Sendable {
  var final: Board.Snapshot?
  var replayed: Board.Snapshot?
  var steps = 0
  var titleAtStep1 = ""
  var cardsAtStep2 = 0
  var viewerNamesTheModel = false

  static let expected = DevtoolsReport(
    final: Board.Snapshot(
      title: "groceries", cards: [Card.Snapshot(id: 2, text: "bread", done: true, count: 0)],
      total: 6, nextID: 3),
    replayed: Board.Snapshot(
      title: "groceries", cards: [Card.Snapshot(id: 2, text: "bread", done: true, count: 0)],
      total: 6, nextID: 3),
    // rename, add, add, load(3), loaded(3), loaded(2), loaded(1), loaded(0), toggle, remove
    steps: 10, titleAtStep1: "groceries", cardsAtStep2: 1, viewerNamesTheModel: true)
}

/// The same calls in every isolation: `isolation` is the caller's, which is the store's.
enum DevtoolsScenario {
  static func record(
    to path: String, isolation: isolated (any Actor)? = #isolation
  ) async throws -> DevtoolsReport {
    var report = DevtoolsReport()
    let store = Store(state: Board(), environment: ())
    let recorder = try StoreRecorder(store, to: path)
    store.send(.rename("groceries"))
    store.send(.add("milk"))
    store.send(.add("bread"))
    await store.send(.load(3)).value
    store.send(.card(id: 2, .toggle))
    store.send(.remove(id: 1))  // a child goes
    await store.finish()
    await recorder.finish()
    report.final = store.state.snapshot

    let recording = try Recording<Board>(contentsOf: path)
    report.steps = recording.steps.count
    report.replayed = recording.replay(environment: ()).snapshot
    let timeline = Timeline(recording, environment: ())
    timeline.jump(to: 2)
    report.cardsAtStep2 = timeline.state.cards.count
    timeline.jump(to: 1)
    report.titleAtStep1 = timeline.state.title
    let viewer = RecordingViewer(recording, environment: ())
    let paced = await RecordingViewer(recording, environment: (), yieldingEvery: 3)
    report.viewerNamesTheModel =
      viewer.html.contains("Recording of Board") && paced.html == viewer.html
    return report
  }

  static let expectedTitles = ["first", "second", "third"]

  /// Saves through a persister on a test clock: a booked save, a flush and the finish; returns
  /// the title found in the file after each.
  static func persist(
    to path: String, isolation: isolated any Actor = #isolation
  ) async throws -> [String] {
    let clock = TestClock()
    let file = PersistedFile<Board>(path: path)
    let store = Store(state: Board(), environment: ())
    var problems: [PersistenceError?] = []
    let persister = try StorePersister(store, to: file, clock: clock) { problems.append($0) }
    var titles: [String] = []
    store.send(.rename("first"))
    await clock.advance(by: .milliseconds(500))
    titles.append(try file.load()?.title ?? "")
    store.send(.rename("second"))
    await persister.flush()
    titles.append(try file.load()?.title ?? "")
    store.send(.rename("third"))
    await persister.finish()
    titles.append(try file.load()?.title ?? "")
    #expect(problems.isEmpty && persister.problem == nil)
    return titles
  }
}

@MainActor final class MainActorDevtoolsHost {
  func record(to path: String) async throws -> DevtoolsReport {
    try await DevtoolsScenario.record(to: path)
  }

  func persist(to path: String) async throws -> [String] {
    try await DevtoolsScenario.persist(to: path)
  }
}

actor DevtoolsHost {
  private var kept: (Store<Board>, StorePersister<Board>)?

  func record(to path: String) async throws -> DevtoolsReport {
    try await DevtoolsScenario.record(to: path)
  }

  func persist(to path: String) async throws -> [String] {
    try await DevtoolsScenario.persist(to: path)
  }

  /// Keeps a store and its persister with a save booked, and returns: the actor then goes.
  func startPersisting(to path: String, clock: TestClock) throws {
    let store = Store(state: Board(), environment: ())
    let persister = try StorePersister(
      store, to: PersistedFile<Board>(path: path), clock: clock)
    store.send(.rename("never saved"))
    kept = (store, persister)
  }
}
