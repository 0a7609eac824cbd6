import Arboreal
import ArborealDevtools
import Foundation
import Testing

// The code of the "Debugging with recordings" article
// (Sources/Arboreal/Arboreal.docc/DebuggingWithRecordings.md) and of the README's recording
// section, verbatim between the `article begins` and `article ends` markers, so that it keeps
// compiling and doing what they say. `.ci/check-article-code.py` checks that the article still
// shows it.

enum DocsRecording {
  // article begins: model
  final class Search: ReplayableModel {
    enum Action: Codable, Sendable, Equatable {
      case queryChanged(String)
      case search
      case resultsLoaded([String])
    }

    struct Environment: Sendable {
      var find: @Sendable (String) async -> [String]
    }

    struct Snapshot: Codable, Equatable, Sendable {
      var query: String
      var results: [String]
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var query = ""
    @Tracked private(set) var results: [String] = []

    init() {}

    init(snapshot: Snapshot) {
      query = snapshot.query
      results = snapshot.results
    }

    var snapshot: Snapshot { Snapshot(query: query, results: results) }

    func update(action: Action, environment: Environment) -> Fx<Action> {
      switch action {
      case .queryChanged(let query):
        self.query = query
        return .none
      case .search:
        let query = self.query
        return Fx { .resultsLoaded(await environment.find(query)) }
      case .resultsLoaded(let results):
        self.results = results
        return .none
      }
    }
  }
  // article ends: model

  // article begins: secretModel
  final class Login: ReplayableModel {
    enum Action: Codable, Sendable {
      case setUser(String)
      case setPassword(Redacted<String>)
    }

    struct Snapshot: Codable, Equatable, Sendable {
      var user: String
      var password: Redacted<String>
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var user = ""
    @Tracked private(set) var password = Redacted("")

    init() {}

    init(snapshot: Snapshot) {
      user = snapshot.user
      password = snapshot.password
    }

    var snapshot: Snapshot { Snapshot(user: user, password: password) }

    var canSignIn: Bool { password.value.count >= 8 }

    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .setUser(let user): self.user = user
      case .setPassword(let password): self.password = password
      }
      return .none
    }
  }
  // article ends: secretModel
}

@Suite actor DocsRecordingTests {
  typealias Search = DocsRecording.Search
  typealias Login = DocsRecording.Login

  /// Records the article's session to `path` and returns the store.
  private func record(to path: String) async throws -> Store<Search> {
    // article begins: record
    let store = Store(state: Search(), environment: .init(find: { query in ["\(query) milk"] }))
    let recorder = try StoreRecorder(store, to: path)
    store.send(.queryChanged("oat"))
    await store.send(.search).value
    await recorder.finish()
    // article ends: record
    return store
  }

  @Test func recordAndReplay() async throws {
    let file = try TemporaryFile("search.jsonl")
    let path = file.path
    let store = try await record(to: path)
    #expect(try file.lines().count == 4)

    // article begins: replay
    let recording = try Recording<Search>(contentsOf: path)
    let replayed = recording.replay(environment: .init(find: { _ in [] }))
    print(replayed.results)  // ["oat milk"]: the recorded result, no search ran
    print(replayed.snapshot == store.state.snapshot)  // true
    // article ends: replay
    #expect(replayed.results == ["oat milk"])
    #expect(replayed.snapshot == store.state.snapshot)
  }

  @Test func timeTravel() async throws {
    let file = try TemporaryFile("search.jsonl")
    let path = file.path
    _ = try await record(to: path)
    let recording = try Recording<Search>(contentsOf: path)

    // article begins: timeline
    let timeline = Timeline(recording, environment: .init(find: { _ in [] }))
    timeline.jump(to: 3)
    print(timeline.state.results)  // ["oat milk"]
    timeline.jump(to: 1)
    print(timeline.state.query, timeline.state.results)  // oat []
    // article ends: timeline
    #expect(timeline.step == 1)
    #expect(timeline.state.query == "oat" && timeline.state.results.isEmpty)
  }

  @Test func why() async throws {
    let file = try TemporaryFile("search.jsonl")
    let path = file.path
    _ = try await record(to: path)
    let recording = try Recording<Search>(contentsOf: path)

    // article begins: why
    let results = RecordedProperty(owner: "Search#1", name: "results")
    if let why = recording.explain(results) {
      print(why)
      // Search#1.results was last changed by #3 resultsLoaded(["oat milk"])
      //   #3 resultsLoaded(["oat milk"]) ← effect of #2
      //   #2 search
    }
    // article ends: why
    // The owner's serial number depends on how many `Search` models changed before in this
    // process: look it up rather than assume 1.
    let owner = try #require(recording.steps.first?.changes.first?.owner)
    let why = try #require(recording.explain(RecordedProperty(owner: owner, name: "results")))
    #expect(
      why.description == """
        \(owner).results was last changed by #3 resultsLoaded(["oat milk"])
          #3 resultsLoaded(["oat milk"]) ← effect of #2
          #2 search
        """)
  }

  @Test func printChanges() async throws {
    var lines: [String] = []
    let print = { (text: String) in lines.append(text) }
    // article begins: printChanges
    let store = Store(state: Search(), environment: .init(find: { query in ["\(query) milk"] }))
    store.printChanges(to: { print($0) })
    store.send(.queryChanged("oat"))
    // #1 queryChanged("oat")
    //   Search#1.query: "" → "oat"
    // article ends: printChanges
    let owner = try #require(store.state.$query.owner)
    #expect(lines == ["#1 queryChanged(\"oat\")\n  \(owner).query: \"\" → \"oat\""])
  }

  @Test func secrets() async throws {
    let file = try TemporaryFile("login.jsonl")
    let path = file.path
    var printed: [String] = []
    let print = { (value: Any) in printed.append("\(value)") }
    // article begins: secrets
    let store = Store(state: Login(), environment: ())
    let recorder = try StoreRecorder(store, to: path)
    store.send(.setUser("ada"))
    store.send(.setPassword(Redacted("lovelace1843")))
    print(store.state.password)  // <redacted>
    print(store.state.canSignIn)  // true: the model reads `value`
    await recorder.finish()
    // The file: {"seq":2,…,"action":{"setPassword":{"_0":"<redacted>"}},…}
    let replayed = try Recording<Login>(contentsOf: path).replay(environment: ())
    print(replayed.password.value.isEmpty)  // true: String's placeholder, ""
    // article ends: secrets
    #expect(printed == ["<redacted>", "true", "true"])
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains(#""action":{"setPassword":{"_0":"<redacted>"}}"#))
    #expect(!text.contains("lovelace"))
    #expect(replayed.user == "ada")
  }

  @Test func badInput() async throws {
    let file = try TemporaryFile("search.jsonl")
    let path = file.path
    _ = try await record(to: path)
    var text = try String(contentsOfFile: path, encoding: .utf8)
    text.removeLast(10)
    try file.write(text)
    // article begins: badInput
    do {
      _ = try Recording<Search>(contentsOf: path)
    } catch {
      print(error)  // …/search.jsonl:4: the line is cut short (…)
    }
    let prefix = try Recording<Search>(contentsOf: path, keepingValidPrefix: true)
    let model = prefix.replay(environment: .init(find: { _ in [] }))
    print(prefix.steps.count, prefix.problem?.line ?? 0, model.results)  // 2 4 []
    // article ends: badInput
    #expect(prefix.steps.count == 2)
    #expect(prefix.problem == RecordingError(.truncatedLine, line: 4, path: path))
    #expect(model.query == "oat" && model.results.isEmpty)
  }
}
