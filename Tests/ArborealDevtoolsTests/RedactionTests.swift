import Arboreal
import ArborealDevtools
import ArborealPersistence
import ArborealTestSupport
import Foundation
import Testing

/// A login form whose token is a secret: `Redacted` in the model, in the action that sets it
/// and in the snapshot. `leak` carries a secret in the open, the mistake debug builds report.
final class TokenForm: ReplayableModel {
  enum Action: Codable, Sendable {
    case setUser(String)
    case setToken(Redacted<String>)
    /// The mistake: the token as a plain string.
    case leak(String)
  }

  struct Snapshot: Codable, Equatable, Sendable {
    var user: String
    var token: Redacted<String>
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var user = ""
  @Tracked private(set) var token = Redacted("")

  init() {}

  convenience init(snapshot: Snapshot) {
    self.init()
    user = snapshot.user
    token = snapshot.token
  }

  var snapshot: Snapshot { Snapshot(user: user, token: token) }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .setUser(let name): user = name
    case .setToken(let secret): token = secret
    case .leak(let secret): token = Redacted(secret)
    }
    return .none
  }
}

/// Redaction: a `Redacted` value never reaches a recording, a persisted file, a change report
/// or a description, and what is read back in its place replays.
@Suite(.serialized) actor RedactionTests {
  let secret = "s3cret-token-4711"

  @Test func aRedactedValueDescribesAndDumpsAsThePlaceholder() {
    let token = Redacted(secret)
    #expect("\(token)" == "<redacted>")
    #expect(String(reflecting: token) == "<redacted>")
    var dumped = ""
    dump(token, to: &dumped)
    #expect(!dumped.contains(secret))
    #expect(Mirror(reflecting: token).children.isEmpty)
    #expect(token.value == secret)
    #expect(Redacted(secret) == token)
    #expect(Redacted("other") != token)
  }

  @Test func itEncodesAsThePlaceholderAndDecodesAsTheTypesPlaceholderOrAnOlderPlainValue()
    throws
  {
    let encoded = try JSONEncoder().encode(TokenForm.Snapshot(user: "ada", token: Redacted(secret)))
    let text = String(decoding: encoded, as: UTF8.self)
    #expect(!text.contains(secret))
    #expect(text.contains(#""token":"<redacted>""#))
    let decoded = try JSONDecoder().decode(TokenForm.Snapshot.self, from: encoded)
    #expect(decoded == TokenForm.Snapshot(user: "ada", token: Redacted("")))
    // A file written before the property was marked still reads.
    let older = try JSONDecoder().decode(
      TokenForm.Snapshot.self, from: Data(#"{"user":"ada","token":"plain"}"#.utf8))
    #expect(older.token.value == "plain")
    let count = try JSONDecoder().decode(
      [Redacted<Int>].self, from: Data(#"["<redacted>", 7]"#.utf8))
    #expect(count.map(\.value) == [0, 7])
  }

  @Test func aRecordingHoldsNoTraceOfTheSecretAndReplaysWithThePlaceholder() async throws {
    let file = try TemporaryFile("login.jsonl")
    let store = Store(state: TokenForm(), environment: ())
    let recorder = try StoreRecorder(store, to: file.path)
    store.send(.setUser("ada"))
    store.send(.setToken(Redacted(secret)))
    await recorder.finish()

    let written = try String(contentsOfFile: file.path, encoding: .utf8)
    #expect(!written.contains(secret))
    #expect(written.contains(#"{"setToken":{"_0":"<redacted>"}}"#))
    let recording = try Recording<TokenForm>(contentsOf: file.path)
    #expect(recording.steps.map { $0.changes.map(\.name) } == [["user"], ["token"]])
    let replayed = recording.replay(environment: ())
    #expect(replayed.user == "ada")
    #expect(replayed.token.value == "", "a replayed model holds the type's placeholder")
  }

  /// The viewer's page, made from the recording in memory (whose actions still hold the
  /// secret, wrapped): the state and the actions show the placeholder.
  @Test func theViewersPageHoldsNoTraceOfTheSecret() async throws {
    let store = Store(state: TokenForm(), environment: ())
    let recorder = try StoreRecorder(store, to: nil)
    store.send(.setUser("ada"))
    store.send(.setToken(Redacted(secret)))
    await recorder.flush()
    let page = RecordingViewer(recorder.recording, environment: ()).html
    await recorder.finish()
    #expect(!page.contains(secret))
    #expect(page.contains("redacted"))
    #expect(page.contains("ada"))
  }

  @Test func changeReportsShowThePlaceholder() async {
    let store = Store(state: TokenForm(), environment: ())
    var output: [String] = []
    store.printChanges { output.append($0) }
    store.send(.setToken(Redacted(secret)))
    // The instance's number depends on the other tests that run: not compared.
    let lines = output.first?.split(separator: "\n").map(String.init) ?? []
    #expect(lines.first == "#1 setToken(<redacted>)")
    #expect(lines.count == 2 && lines[1].hasSuffix(".token: <redacted> → <redacted>"), "\(lines)")
  }

  @Test func aPersistedFileHoldsThePlaceholderAndLoadsBack() throws {
    let temporary = try TemporaryFile("login.json")
    let file = PersistedFile<TokenForm>(path: temporary.path)
    let login = TokenForm()
    _ = login.update(action: .setToken(Redacted(secret)), environment: ())
    _ = login.update(action: .setUser("ada"), environment: ())
    try file.save(login.snapshot)
    let written = try String(contentsOfFile: temporary.path, encoding: .utf8)
    #expect(!written.contains(secret))
    #expect(written.contains("<redacted>"))
    #expect(try file.load() == TokenForm.Snapshot(user: "ada", token: Redacted("")))
  }

  /// Secrets made on many threads at once (every isolation: detached tasks, the main actor,
  /// another actor) are described and encoded as the placeholder on each.
  @Test func secretsMadeOnManyThreadsAtOnceStayRedacted() async throws {
    actor Vault {
      func describe(_ secret: String) -> String { "\(Redacted(secret))" }
    }
    let vault = Vault()
    let described = await withTaskGroup(of: [String].self) { group in
      for thread in 0..<8 {
        group.addTask {
          var texts: [String] = []
          for index in 0..<200 {
            let secret = Redacted("secret-\(thread)-\(index)")
            texts.append("\(secret)")
            texts.append(String(decoding: try! JSONEncoder().encode([secret]), as: UTF8.self))
          }
          texts.append(await vault.describe("actor-secret-\(thread)"))
          return texts
        }
      }
      var all: [String] = []
      for await texts in group { all += texts }
      return all
    }
    #expect(described.count == 8 * 401)
    #expect(described.allSatisfy { $0 == "<redacted>" || $0 == #"["<redacted>"]"# })
    #expect("\(Redacted("main-actor-secret"))" == "<redacted>")
  }

  #if DEBUG
    /// Debug builds look for the last 64 secrets only, however many are made: a long session
    /// that types a million of them holds 64.
    @MainActor
    @Test func onlyTheLast64SecretsAreLookedFor() {
      let reports = Locked.make(0)
      TrackingDiagnostics.unredactedSecretHandler = { _ in reports.withLock { $0 += 1 } }
      defer { TrackingDiagnostics.unredactedSecretHandler = nil }
      let store = Store(state: TokenForm(), environment: ())
      store.printChanges { _ in }
      _ = Redacted("first-of-many-secrets")
      for index in 0..<1_000 { _ = Redacted("later-secret-\(index)") }
      // `setUser` carries its text in the open and makes no `Redacted` of it.
      store.send(.setUser("first-of-many-secrets"))
      #expect(reports.withLock { $0 } == 0, "forgotten after 64 newer ones")
      store.send(.setUser("later-secret-999"))
      #expect(reports.withLock { $0 } == 1)
    }

    /// The secret carried in the open by an action is reported (in debug builds) when the
    /// recording and the change report would write it, naming the step and the action's
    /// case, never the secret.
    @MainActor
    @Test func aSecretCarriedInTheOpenIsReportedWhereItWouldBeWritten() async throws {
      let reports = Locked.make([String]())
      TrackingDiagnostics.unredactedSecretHandler = { message in
        reports.withLock { $0.append(message) }
      }
      defer { TrackingDiagnostics.unredactedSecretHandler = nil }
      let file = try TemporaryFile("leak.jsonl")
      let store = Store(state: TokenForm(), environment: ())
      let recorder = try StoreRecorder(store, to: file.path)
      store.printChanges { _ in }
      store.send(.setUser("ada"))
      store.send(.leak("open-secret-42"))
      await recorder.finish()
      let messages = reports.withLock { $0 }
      #expect(messages.count == 2, "\(messages)")
      #expect(messages.contains { $0.contains("the change report of step 2 (`leak`)") })
      #expect(messages.contains { $0.contains("step 2 of the recording at \(file.path)") })
      #expect(messages.allSatisfy { !$0.contains("open-secret-42") })
      // Wrapped where it is carried, the same secret is reported nowhere.
      reports.withLock { $0 = [] }
      let again = Store(state: TokenForm(), environment: ())
      again.printChanges { _ in }
      again.send(.setToken(Redacted("open-secret-42")))
      #expect(reports.withLock { $0 } == [])
    }
  #endif
}
