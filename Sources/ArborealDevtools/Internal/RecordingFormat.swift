import Arboreal
import Foundation

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
}

/// The first line.
struct RecordingHeader<Snapshot: Codable>: Codable {
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

/// A step as written.
struct StepLine<Action: Encodable>: Encodable {
  var seq: Int
  var cause: String
  var startedBy: Int?
  var action: Action
  var changes: [RecordedProperty]

  private enum CodingKeys: String, CodingKey {
    case seq, cause, startedBy, action, changes
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(seq, forKey: .seq)
    try container.encode(cause, forKey: .cause)
    try container.encodeIfPresent(startedBy, forKey: .startedBy)
    try container.encode(action, forKey: .action)
    try container.encode(changes, forKey: .changes)
  }
}

/// A step as read: the action is decoded apart, so that an action that no longer decodes is
/// told from a line that is not a step.
struct StepLineRead<Action: Decodable>: Decodable {
  var seq: Int
  var cause: String
  var startedBy: Int?
  var changes: [RecordedProperty]
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
    changes = try container.decode([RecordedProperty].self, forKey: .changes)
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

/// A decoding error in one line of words: `no field "seq"`, `"done" is a String, not a Bool`.
func describe(_ error: any Error) -> String {
  func path(_ context: DecodingError.Context) -> String {
    let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
    return path.isEmpty ? "" : " at \(path.joined(separator: "."))"
  }
  switch error {
  case DecodingError.keyNotFound(let key, let context):
    return "no field \"\(key.stringValue)\"\(path(context))"
  case DecodingError.typeMismatch(let type, let context):
    return "expected \(type)\(path(context))"
  case DecodingError.valueNotFound(let type, let context):
    return "expected \(type)\(path(context)), found null"
  case DecodingError.dataCorrupted(let context):
    if context.codingPath.isEmpty { return "not valid JSON" }
    return "\(context.debugDescription)\(path(context))"
  default:
    return "\(error)"
  }
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
