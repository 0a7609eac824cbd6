import Hummingbird

/// A request the server refuses, with the status and the message of its JSON answer,
/// `{"error": "..."}` (written by ``JSONErrorMiddleware``).
struct APIError: Error, Equatable {
  let status: HTTPResponse.Status
  let message: String

  init(_ status: HTTPResponse.Status, _ message: String) {
    self.status = status
    self.message = message
  }

  /// 404: the id names no live session (it never did, it was deleted, or it idled out).
  static let unknownSession = APIError(.notFound, "no such session; it may have ended")

  /// 404: this server keeps no recordings (`--no-recording`).
  static let notRecorded = APIError(
    .notFound, "this server does not record its sessions (it was started with --no-recording)")

  /// 503: the server holds as many sessions as it may.
  static let tooManySessions = APIError(
    .serviceUnavailable, "too many sessions; try again when some have ended")

  /// 400: the body is not an action a client may send.
  static func badAction(_ reason: String) -> APIError {
    APIError(.badRequest, "not an action: \(reason)")
  }

  /// 413: the body is longer than `limit` bytes.
  static func tooLarge(limit: Int) -> APIError {
    APIError(.contentTooLarge, "the body is larger than \(limit) bytes")
  }

  /// 500: the server failed; `detail` is logged, not sent.
  static func serverFault(_ detail: String) -> APIError {
    APIError(.internalServerError, "the server failed: \(detail)")
  }
}
