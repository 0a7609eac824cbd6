import Arboreal
import ArborealPersistence
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// The file format of a recording, JSON Lines (one JSON object per line, each ended by "\n"):
//
//   {"format":"arboreal-recording","version":1,"model":"TodoList","snapshot":{...}}
//   {"seq":1,"cause":"sent","action":{"add":{"_0":"milk"}},"changes":[{"owner":"TodoList#1","property":"items"}]}
//   {"seq":2,"cause":"effect","startedBy":1,"action":{"saveFinished":{}},"changes":[]}
//
// Line 1 is the header: the model's starting state. Every other line is one step, numbered
// from 1 without gaps. `startedBy` is absent when the effect was started before the recording.
// Each line is written with one `write` call after the previous one completed, so an
// interrupted recording ends with at most one partial line, which the reader reports by its
// number.

/// The recording format's name and version, in the header.
enum RecordingFormat {
  static let name = "arboreal-recording"
  static let version = 1

  /// The header line without its newline:
  /// `{"format":"arboreal-recording","version":1,"model":"TodoList","snapshot":{…}}`, the
  /// identifying fields first (the snapshot's keys sorted).
  static func header(model: String, snapshot: some Encodable) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    var data = Data(
      "{\"format\":\(jsonString(name)),\"version\":\(version),\"model\":\(jsonString(model)),\"snapshot\":"
        .utf8)
    data.append(try encoder.encode(snapshot))
    data.append(UInt8(ascii: "}"))
    return data
  }
}

/// The first line, as read.
struct RecordingHeader<Snapshot: Decodable>: Decodable {
  var format: String
  var version: Int
  var model: String
  var snapshot: Snapshot
}

/// The first line's identifying fields alone, to tell a wrong file from a wrong snapshot.
struct RecordingHeaderFields: Decodable {
  var format: String
  var version: Int
}

/// A step as written: `{"seq":1,"cause":"sent","action":…,"changes":[…]}`, fields in that
/// order so that a reader sees the number and the cause first.
struct StepLine<Action: Encodable> {
  var seq: Int
  var cause: String
  var startedBy: Int?
  var action: Action
  var changes: [RecordedProperty]

  /// The line's JSON, without its newline. The action is encoded by `encoder` (keys sorted,
  /// so that equal actions give equal lines); the rest is written here.
  func encoded(with encoder: JSONEncoder) throws -> Data {
    var line = "{\"seq\":\(seq),\"cause\":\(jsonString(cause))"
    if let startedBy { line += ",\"startedBy\":\(startedBy)" }
    line += ",\"action\":"
    var data = Data(line.utf8)
    data.append(try encoder.encode(action))
    var rest = ",\"changes\":["
    for (index, change) in changes.enumerated() {
      if index > 0 { rest += "," }
      rest += "{"
      if let owner = change.owner { rest += "\"owner\":\(jsonString(owner))," }
      rest += "\"property\":\(jsonString(change.name))}"
    }
    rest += "]}"
    data.append(contentsOf: rest.utf8)
    return data
  }
}

/// A step as read: the action is decoded apart, so that an action that no longer decodes is
/// told from a line that is not a step.
struct StepLineRead<Action: Decodable>: Decodable {
  var seq: Int
  var cause: String
  var startedBy: Int?
  var changes: [PropertyLine]
  /// The action, or the decoder's reason for failing.
  var action: Result<Action, DecodingFailure>

  struct DecodingFailure: Error {
    var reason: String
  }

  private enum CodingKeys: String, CodingKey {
    case seq, cause, startedBy, action, changes
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    seq = try container.decode(Int.self, forKey: .seq)
    cause = try container.decode(String.self, forKey: .cause)
    startedBy = try container.decodeIfPresent(Int.self, forKey: .startedBy)
    changes = try container.decode([PropertyLine].self, forKey: .changes)
    guard container.contains(.action) else {
      throw DecodingError.keyNotFound(
        CodingKeys.action, .init(codingPath: [], debugDescription: "no action"))
    }
    do {
      action = .success(try container.decode(Action.self, forKey: .action))
    } catch {
      action = .failure(DecodingFailure(reason: describe(error)))
    }
  }
}

/// A changed property as a line holds it: `{"owner":"Todo#3","property":"isDone"}`.
struct PropertyLine: Decodable {
  var owner: String?
  var property: String
}

/// The name of a recorded action as its JSON shows it: the key of a one-key object (how a
/// Swift enum case encodes: `{"addItem":{"_0":"milk"}}` is `addItem`), a string's value, or
/// else the JSON itself, shortened.
func actionName(inLine line: Data) -> String {
  guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
    let action = object["action"]
  else { return "?" }
  if let keyed = action as? [String: Any], keyed.count == 1, let name = keyed.keys.first {
    return name
  }
  if let string = action as? String { return string }
  let data = try? JSONSerialization.data(withJSONObject: action, options: [.fragmentsAllowed])
  let text = data.map { String(decoding: $0, as: UTF8.self) } ?? "?"
  return text.count > 40 ? String(text.prefix(40)) + "…" : text
}
