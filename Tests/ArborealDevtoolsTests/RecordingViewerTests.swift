import Arboreal
import Foundation
import Testing

@testable import ArborealDevtools

/// The viewer's parts without a browser: snapshot trees, their differences, the page's data
/// and what the page refers to.
@Suite actor RecordingViewerTests {
  struct Inner: Encodable {
    var flag: Bool
    var note: String?
  }

  struct Outer: Encodable {
    var zebra: Int
    var apple: [Inner]
    var middle: Double
    var big: UInt64
  }

  /// Actions read as their cases were written: a case reached through its qualified type
  /// keeps its leading dot; types, numbers and quoted strings are left as they are.
  @Test func actionsReadAsTheirCasesWereWritten() {
    let text = ViewerData<Board>.unqualifiedCases
    #expect(text("setFilter(todos.TodoFilter.active)") == "setFilter(.active)")
    #expect(
      text("card(id: 1, ArborealDevtoolsTests.Card.Action.toggle)") == "card(id: 1, .toggle)")
    #expect(text("Optional(todos.Sort.byName)") == "Optional(.byName)")
    #expect(
      text("load([ArborealDevtoolsTests.Card], 1.5)") == "load([ArborealDevtoolsTests.Card], 1.5)")
    #expect(text(#"rename("a.B.c \" x.Y.z")"#) == #"rename("a.B.c \" x.Y.z")"#)
    #expect(text(#"rename("a") x.Y.z"#) == #"rename("a") .z"#)
    #expect(text("set(é.Été.ça)") == "set(.ça)")
    #expect(text("noop") == "noop")
    #expect(ViewerData<Board>.actionText(.card(id: 2, .toggle)) == "card(id: 2, .toggle)")
  }

  @Test func aTreeKeepsTheOrderTheValueEncodedItsKeysIn() {
    let value = Outer(
      zebra: 3, apple: [Inner(flag: true, note: nil), Inner(flag: false, note: "a\"b")],
      middle: -0.5, big: .max)
    #expect(
      SnapshotValue(of: value)
        == .object([
          SnapshotMember(key: "zebra", value: .number("3")),
          SnapshotMember(
            key: "apple",
            value: .array([
              // A nil optional is left out, as JSONEncoder leaves it out.
              .object([SnapshotMember(key: "flag", value: .bool(true))]),
              .object([
                SnapshotMember(key: "flag", value: .bool(false)),
                SnapshotMember(key: "note", value: .string("a\"b")),
              ]),
            ])),
          SnapshotMember(key: "middle", value: .number("-0.5")),
          SnapshotMember(key: "big", value: .number("18446744073709551615")),
        ]))
    #expect(
      SnapshotValue(of: [1: "one"]) == .object([SnapshotMember(key: "1", value: .string("one"))]))
    #expect(SnapshotValue(of: Optional<Int>.none) == .null)
    #expect(SnapshotValue(of: "plain") == .string("plain"))
  }

  /// A value that cannot be encoded: what a snapshot might hold by mistake.
  struct Secret: Encodable {
    struct Refused: Error {}
    func encode(to encoder: any Encoder) throws { throw Refused() }
  }

  struct Holder: Encodable {
    var before: Int
    var secret: Secret
    var secrets: [Secret]
    var ratio: Double
    var limit: Float
    var floor: Double
  }

  @Test func aValueThatCannotBeDescribedShowsItsTypeNameAndTheRestIsKept() {
    let value = Holder(
      before: 1, secret: Secret(), secrets: [Secret()], ratio: .nan, limit: .infinity,
      floor: -.infinity)
    #expect(
      SnapshotValue(of: value)
        == .object([
          SnapshotMember(key: "before", value: .number("1")),
          SnapshotMember(key: "secret", value: .opaque("{Secret}")),
          SnapshotMember(key: "secrets", value: .array([.opaque("{Secret}")])),
          SnapshotMember(key: "ratio", value: .opaque("nan")),
          SnapshotMember(key: "limit", value: .opaque("inf")),
          SnapshotMember(key: "floor", value: .opaque("-inf")),
        ]))
    #expect(SnapshotValue(of: Secret()) == .opaque("{Secret}"))

    // And the page shows it: the data holds the type's name as text to show.
    let viewer = ViewerData(
      Recording<Vault>(start: Vault.Snapshot(secret: Secret(), count: 1), steps: []),
      environment: (), title: "vault")
    #expect(viewer.json.contains(#""start":{"o":["secret",{"x":"{Secret}"},"count",1]}"#))
  }

  @Test func changesNameWhatDifferedAndApplyingThemGivesTheNewTree() {
    func object(_ members: KeyValuePairs<String, SnapshotValue>) -> SnapshotValue {
      .object(members.map { SnapshotMember(key: $0.key, value: $0.value) })
    }
    func cards(_ numbers: Int...) -> SnapshotValue { .array(numbers.map { .number("\($0)") }) }
    let old = object(["title": .string("a"), "cards": cards(1, 2, 3, 4), "total": .number("0")])
    // One card removed from the middle: one change, not one per card after it.
    let removed = object(["title": .string("a"), "cards": cards(1, 3, 4), "total": .number("0")])
    #expect(
      SnapshotValue.changes(from: old, to: removed)
        == [.remove(path: [.key("cards"), .index(1)], old: .number("2"))])
    // A key that appears in the middle, and a value that changed.
    let grown = object([
      "title": .string("b"), "problem": .string("disk full"), "cards": cards(1, 2, 3, 4),
      "total": .number("0"),
    ])
    #expect(
      SnapshotValue.changes(from: old, to: grown) == [
        .set(path: [.key("title")], old: .string("a"), new: .string("b")),
        .insert(path: [.key("problem")], new: .string("disk full"), position: 1),
      ])
    #expect(SnapshotValue.changes(from: old, to: old).isEmpty)
    // A leaf that became a tree is set whole.
    #expect(
      SnapshotValue.changes(from: .number("1"), to: .array([]))
        == [.set(path: [], old: .number("1"), new: .array([]))])

    // Over a long random recording, each step's changes take the tree before it to the tree
    // after it.
    let recording = Board.longRecording(3_000, seed: 11)
    let model = Board(snapshot: recording.start)
    var previous = SnapshotValue(of: model.snapshot)
    for step in recording.steps {
      _ = model.update(action: step.action, environment: ())
      let next = SnapshotValue(of: model.snapshot)
      var applied = previous
      for change in SnapshotValue.changes(from: previous, to: next) { applied.apply(change) }
      #expect(applied == next, "step \(step.sequence)")
      previous = next
    }
  }

  @Test func aTruncatedRecordingShowsItsValidPrefixAndTheErrorWithItsLine() async throws {
    let (file, recording) = try await Board.truncatedRecording()
    let problem = try #require(recording.problem)
    #expect(problem.line == 5)
    let data = ViewerData(recording, environment: (), title: "cut")
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(data.json.utf8)) as? [String: Any])
    #expect((object["steps"] as? [Any])?.count == 3)
    #expect(object["problem"] as? String == problem.description)
    #expect(problem.description.hasPrefix("\(file.path):5: the line is cut short"))
    #expect(RecordingViewer(recording, environment: ()).html.contains(problem.description))
  }

  @Test func thePageRefersToNothingOutsideItselfAndItsDataCannotEndItsScript() {
    let recording = Recording<Board>(
      start: Board().snapshot,
      steps: [
        RecordedStep(
          sequence: 1, action: .rename("</script><script>alert(1)</script> & <!--"), cause: .sent,
          changes: [RecordedProperty(owner: "Board#board", name: "title")])
      ])
    let html = RecordingViewer(recording, environment: (), title: "<b>board</b>").html
    for reference in ["http://", "https://", "src=", "<link", "@import", "url("] {
      #expect(!html.contains(reference), "\(reference)")
    }
    // Two script elements: the data and the program; the title is text, not markup.
    #expect(html.components(separatedBy: "</script>").count == 3)
    #expect(html.components(separatedBy: "<script").count == 3)
    #expect(!html.contains("<!--"))
    #expect(html.contains("<title>&lt;b&gt;board&lt;/b&gt;</title>"))
    #expect(html.contains(#"\u003c/script\u003e\u003cscript\u003ealert(1)"#))
  }

  @Test func anEffectStartedByALaterOrMissingStepIsShownAsStartedBefore() {
    // A recording made in memory is not checked as a file is.
    let recording = Recording<Board>(
      start: Board().snapshot,
      steps: [
        RecordedStep(sequence: 1, action: .noop, cause: .effect(startedBy: 1), changes: []),
        RecordedStep(sequence: 2, action: .load(1), cause: .sent, changes: []),
        RecordedStep(sequence: 3, action: .loaded(1), cause: .effect(startedBy: 2), changes: []),
        RecordedStep(sequence: 4, action: .noop, cause: .effect(startedBy: 9), changes: []),
      ])
    let json = ViewerData(recording, environment: (), title: "board").json
    #expect(json.contains(#""steps":[["noop",-1,[],[]],["load(1)",0,[],[]],["loaded(1)",2,[],"#))
    #expect(json.hasSuffix(#"["noop",-1,[],[]]]}"#))
  }

  @Test func aPageMadeInBatchesIsThePageMadeAtOnce() async {
    let recording = Board.longRecording(2_500, seed: 4)
    let atOnce = RecordingViewer(recording, environment: (), title: "board")
    for interval in [1_000, 7, 0] {
      let inBatches = await RecordingViewer(
        recording, environment: (), title: "board", yieldingEvery: interval)
      #expect(inBatches.html == atOnce.html, "every \(interval)")
    }
    #expect(atOnce.html.contains(#"["rename(\"title"#))
  }

  @Test func writingToAFolderThatDoesNotExistNamesTheFile() throws {
    let viewer = RecordingViewer(
      Recording<Board>(start: Board().snapshot, steps: []), environment: ())
    let path = "/nonexistent-\(UUID().uuidString)/page.html"
    let error = try #require(throws: RecordingError.self) { try viewer.write(to: path) }
    #expect(error.path == path)
    #expect(error.line == 0)
    #expect(error.description == "\(path): cannot use the file: No such file or directory")

    let file = try TemporaryFile("page.html")
    try viewer.write(to: file.path)
    #expect(try String(contentsOfFile: file.path, encoding: .utf8) == viewer.html)
  }
}

/// A model whose snapshot holds a value that cannot be encoded.
final class Vault: ReplayableModel {
  struct Snapshot: Codable, Equatable, Sendable {
    var secret: RecordingViewerTests.Secret
    var count: Int
  }

  let registrar = TrackingRegistrar()
  var count = 0

  init(snapshot: Snapshot) { count = snapshot.count }

  var snapshot: Snapshot { Snapshot(secret: RecordingViewerTests.Secret(), count: count) }

  func update(action: Int, environment: Void) -> Fx<Int> {
    count += action
    return .none
  }
}

extension RecordingViewerTests.Secret: Decodable, Equatable, Sendable {
  init(from decoder: any Decoder) throws {}
}

extension SnapshotValue {
  /// Applies a change as the page's script does.
  mutating func apply(_ change: SnapshotChange) {
    switch change {
    case .set(let path, _, let new): update(path[...]) { $0 = new }
    case .insert(let path, let new, let position):
      update(path.dropLast()) { parent in
        switch (parent, path.last) {
        case (.array(var elements), .index(let index)?):
          elements.insert(new, at: index)
          parent = .array(elements)
        case (.object(var members), .key(let key)?):
          members.insert(SnapshotMember(key: key, value: new), at: position)
          parent = .object(members)
        default: Issue.record("no container at \(path)")
        }
      }
    case .remove(let path, _):
      update(path.dropLast()) { parent in
        switch (parent, path.last) {
        case (.array(var elements), .index(let index)?):
          elements.remove(at: index)
          parent = .array(elements)
        case (.object(var members), .key(let key)?):
          members.removeAll { $0.key == key }
          parent = .object(members)
        default: Issue.record("no container at \(path)")
        }
      }
    }
  }

  private mutating func update(
    _ path: ArraySlice<SnapshotPathComponent>, _ body: (inout SnapshotValue) -> Void
  ) {
    guard let first = path.first else { return body(&self) }
    switch (self, first) {
    case (.array(var elements), .index(let index)):
      elements[index].update(path.dropFirst(), body)
      self = .array(elements)
    case (.object(var members), .key(let key)):
      guard let at = members.firstIndex(where: { $0.key == key }) else {
        Issue.record("no key \(key)")
        return
      }
      members[at].value.update(path.dropFirst(), body)
      self = .object(members)
    default:
      Issue.record("no \(first) in \(self)")
    }
  }
}
