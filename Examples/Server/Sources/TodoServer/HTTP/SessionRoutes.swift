import ArborealDevtools
import Foundation
import Hummingbird

/// The HTTP API over the sessions: one handler per route, each a thin front that finds the
/// session, asks its host, and answers with JSON.
///
/// | Route | Answer |
/// | --- | --- |
/// | `POST /sessions` | 201 `{"id": "…"}` |
/// | `GET /sessions/{id}` | 200 the list |
/// | `POST /sessions/{id}/actions` | 200 the list once the action's effects have finished |
/// | `GET /sessions/{id}/recording` | 200 the recording, JSON Lines |
/// | `GET /sessions/{id}/recording?format=html` | 200 the recording viewer's page |
/// | `DELETE /sessions/{id}` | 204 |
///
/// Errors are ``APIError``s, written as `{"error": "…"}` by ``JSONErrorMiddleware``.
struct SessionRoutes: Sendable {
  let sessions: SessionRegistry
  /// The largest action body accepted, in bytes.
  let bodyLimit: Int
  /// Whether sessions are recorded, so that `recording` has something to serve.
  let recordsSessions: Bool

  /// Adds the routes to `router`.
  func add(to router: Router<TodoRequestContext>) {
    router.post("sessions", use: create)
    router.get("sessions/:id", use: state)
    router.post("sessions/:id/actions", use: send)
    router.get("sessions/:id/recording", use: recording)
    router.delete("sessions/:id", use: end)
  }

  /// `POST /sessions`: a new session with an empty list.
  @Sendable func create(
    _ request: Request, context: TodoRequestContext
  ) async throws -> EditedResponse<SessionCreated> {
    let id = try await sessions.create()
    return EditedResponse(
      status: .created, headers: [.location: "/sessions/\(id)"],
      response: SessionCreated(id: id.rawValue))
  }

  /// `GET /sessions/{id}`: the list.
  @Sendable func state(
    _ request: Request, context: TodoRequestContext
  ) async throws -> TodoList.Snapshot {
    guard let state = try await host(context).state() else { throw APIError.unknownSession }
    return state
  }

  /// `POST /sessions/{id}/actions`: the list after the action and its effects. The body is
  /// read and decoded before the session is asked anything, so a refused one changes nothing.
  @Sendable func send(
    _ request: Request, context: TodoRequestContext
  ) async throws -> TodoList.Snapshot {
    let host = try host(context)
    let action = try await ActionBody.decode(request, limit: bodyLimit)
    guard let state = await host.handle(action) else { throw APIError.unknownSession }
    return state
  }

  /// The session's recording: the JSON Lines file that `Recording(contentsOf:)` reads and
  /// `todos --inspect` turns into a page; with `?format=html`, that page itself.
  @Sendable func recording(
    _ request: Request, context: TodoRequestContext
  ) async throws -> EditedResponse<String> {
    guard recordsSessions else { throw APIError.notRecorded }
    let id = try sessionID(context)
    // Read here, off the session's isolation: the host only says where the file is, once
    // every action it handled is in it. A session deleted meanwhile has no file: a 404.
    guard let path = try await host(context).recordingPath(),
      let data = FileManager.default.contents(atPath: path)
    else { throw APIError.unknownSession }
    guard request.uri.queryParameters["format"] == "html" else {
      return EditedResponse(
        headers: [
          .contentType: "application/x-ndjson; charset=utf-8",
          .contentDisposition: "attachment; filename=\"todo-session-\(id).jsonl\"",
        ],
        response: String(decoding: data, as: UTF8.self))
    }
    return EditedResponse(
      headers: [.contentType: "text/html; charset=utf-8"],
      response: try Self.viewerPage(data, title: "todo-server session \(id)"))
  }

  /// `DELETE /sessions/{id}`: ends the session and releases its store.
  @Sendable func end(
    _ request: Request, context: TodoRequestContext
  ) async throws -> HTTPResponse.Status {
    guard await sessions.end(try sessionID(context)) else { throw APIError.unknownSession }
    return .noContent
  }

  // MARK: Helpers

  /// The id in the path; a path that cannot be an id names no session.
  private func sessionID(_ context: TodoRequestContext) throws(APIError) -> SessionID {
    guard let text = context.parameters.get("id"), let id = SessionID(text) else {
      throw .unknownSession
    }
    return id
  }

  /// The host of the session in the path, marked as used.
  private func host(_ context: TodoRequestContext) throws(APIError) -> any SessionHost {
    guard let host = sessions.host(try sessionID(context)) else { throw .unknownSession }
    return host
  }

  /// The recording viewer's page for a recording file's contents: the viewer replays the
  /// recording into a fresh list, in the request's own task (no store, no actor needed).
  private static func viewerPage(_ data: Data, title: String) throws -> String {
    let recording = try Recording<TodoList>(data: data, keepingValidPrefix: true)
    return RecordingViewer(recording, environment: TodoList.Environment(), title: title).html
  }
}
