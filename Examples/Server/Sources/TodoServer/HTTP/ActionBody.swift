import Foundation
import Hummingbird

/// Reads the action a `POST /sessions/{id}/actions` carries: one `TodoList.Action` as JSON,
/// at most a limit of bytes.
///
/// Everything here happens before the session is touched, so a refused body leaves the
/// session as it was.
enum ActionBody {
  /// The request's action.
  ///
  /// A body that declares a length over `limit` is refused before any of it is read; one
  /// sent in chunks is read until it passes `limit` and refused then. (Hummingbird discards
  /// the rest of a refused body without keeping it, to use the connection again.)
  ///
  /// - Throws: ``APIError`` 413 for a body over `limit` bytes, 400 for one that is not an
  ///   action a client may send.
  static func decode(_ request: Request, limit: Int) async throws(APIError) -> TodoList.Action {
    if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
      throw .tooLarge(limit: limit)
    }
    let data: Data
    do {
      data = Data(try await request.body.collect(upTo: limit).readableBytesView)
    } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
      throw .tooLarge(limit: limit)
    } catch {
      throw .badAction("the body could not be read (\(error))")
    }
    let action: TodoList.Action
    do {
      action = try JSONDecoder().decode(TodoList.Action.self, from: data)
    } catch {
      throw .badAction("\(problem(with: data, error)); \(hint)")
    }
    guard action.isSentByClients else {
      throw .badAction("'saved' is the save effect's answer; send {\"save\":{}} to save")
    }
    return action
  }

  /// One of each action a client may send, for the message of a 400.
  static let examples: [TodoList.Action] = [
    .add(title: "milk"), .toggle(id: 1), .rename(id: 1, title: "oat milk"), .remove(id: 1),
    .clearCompleted, .save,
  ]

  /// The examples as JSON: `an action is one of {"add":{"title":"milk"}}, …`.
  static let hint: String = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let bodies = examples.compactMap { try? encoder.encode($0) }
    let texts = bodies.map { String(decoding: $0, as: UTF8.self) }
    return "an action is one of " + texts.joined(separator: ", ")
  }()

  /// The names of the actions a client may send: the keys of the examples.
  private static let names: Set<String> = Set(
    examples.compactMap { example in
      (try? JSONEncoder().encode(example))
        .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }?.keys.first
    })

  /// What is wrong with a body that does not decode, in a few words: an unknown action, or
  /// where in the JSON and what.
  private static func problem(with data: Data, _ error: any Error) -> String {
    // Swift's decoding of an enumeration says only "Invalid number of keys found" for an
    // object whose one key is no case: tell the client which name it sent.
    if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
      guard object.count == 1, let name = object.keys.first else {
        return "an action is an object with one key, the action's name (found \(object.count))"
      }
      guard names.contains(name) || name == "saved" else { return "unknown action '\(name)'" }
    }
    guard let error = error as? DecodingError else { return "\(error)" }
    switch error {
    case .keyNotFound(let key, let context):
      return "\(place(context))missing '\(key.stringValue)'"
    case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
      return "\(place(context))expected \(description(of: type))"
    case .dataCorrupted(let context):
      return "\(place(context))\(context.debugDescription)"
    @unknown default:
      return "\(error)"
    }
  }

  /// `at 'rename.id': ` for a problem inside the JSON; nothing for one at its top.
  private static func place(_ context: DecodingError.Context) -> String {
    let path = context.codingPath.map(\.stringValue).joined(separator: ".")
    return path.isEmpty ? "" : "at '\(path)': "
  }

  /// A JSON name for a Swift type the actions hold.
  private static func description(of type: Any.Type) -> String {
    switch type {
    case is Int.Type: "a whole number"
    case is String.Type: "a string"
    default: "\(type)"
    }
  }
}
