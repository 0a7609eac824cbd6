import Foundation
import Hummingbird

/// Reads the action a `POST /sessions/{id}/actions` carries: one `TodoList.Action` as JSON,
/// at most a limit of bytes.
///
/// Everything here happens before the session is touched, so a refused body leaves the
/// session as it was.
enum ActionBody {
  /// The actions a client may send, for the message of a 400.
  static let hint =
    #"an action is one of {"add":{"title":"milk"}}, {"toggle":{"id":1}}, "#
    + #"{"rename":{"id":1,"title":"oat milk"}}, {"remove":{"id":1}}, {"clearCompleted":{}}, "#
    + #"{"save":{}}"#

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
      throw .badAction("\(describe(error)); \(hint)")
    }
    guard action.isSentByClients else {
      throw .badAction("'saved' is the save effect's answer; send {\"save\":{}} to save")
    }
    return action
  }

  /// What is wrong with a body, in a sentence: where in the JSON, and what.
  private static func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    let context: DecodingError.Context
    switch error {
    case .dataCorrupted(let found), .keyNotFound(_, let found), .typeMismatch(_, let found),
      .valueNotFound(_, let found):
      context = found
    @unknown default:
      return "\(error)"
    }
    let path = context.codingPath.map(\.stringValue).joined(separator: ".")
    return path.isEmpty ? context.debugDescription : "at '\(path)': \(context.debugDescription)"
  }
}
