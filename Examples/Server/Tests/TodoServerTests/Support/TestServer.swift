import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1

@testable import TodoServer

/// A server running on a free loopback port for one test, and the HTTP calls the tests make
/// to it, through AsyncHTTPClient.
struct TestServer: Sendable {
  /// The server, for the tests that look behind the API (its registry, its folders).
  let app: TodoServerApp
  let port: Int

  /// Runs `body` against a new server, configured by `configure`, and stops it afterwards.
  ///
  /// Hummingbird's live test set-up starts the application on port 0 and reports the port
  /// the system chose; the requests go to it over real HTTP.
  static func run<Value: Sendable>(
    _ configure: (inout ServerConfiguration) -> Void = { _ in },
    environment: TodoList.Environment = TodoList.Environment(),
    _ body: @Sendable (TestServer) async throws -> Value
  ) async throws -> Value {
    var configuration = ServerConfiguration()
    configuration.port = 0
    configure(&configuration)
    let app = try TodoServerApp(configuration: configuration, environment: environment)
    do {
      let value = try await app.application().test(.live) { client in
        guard let port = client.port else { throw TestServerError.noPort }
        return try await body(TestServer(app: app, port: port))
      }
      await app.shutDown()
      return value
    } catch {
      await app.shutDown()
      throw error
    }
  }

  /// Sends a request and collects the whole answer.
  func request(
    _ method: HTTPMethod, _ path: String, body: HTTPClientRequest.Body? = nil
  ) async throws -> Answer {
    var request = HTTPClientRequest(url: "http://localhost:\(port)\(path)")
    request.method = method
    if let body {
      request.headers.add(name: "Content-Type", value: "application/json")
      request.body = body
    }
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
    let bytes = try await response.body.collect(upTo: 64 << 20)
    return Answer(
      status: Int(response.status.code), body: Data(bytes.readableBytesView),
      contentType: response.headers.first(name: "Content-Type"),
      location: response.headers.first(name: "Location"))
  }

  /// `POST /sessions`: a new session's id.
  func createSession() async throws -> String {
    let answer = try await request(.POST, "/sessions")
    guard answer.status == 201 else { throw TestServerError.unexpected(answer) }
    return try answer.decode(SessionCreatedBody.self).id
  }

  /// `POST /sessions/{id}/actions` with `json` as the body.
  func send(json: String, to id: String) async throws -> Answer {
    try await request(.POST, "/sessions/\(id)/actions", body: .bytes(Data(json.utf8)))
  }

  /// `POST /sessions/{id}/actions` with `action` encoded: the list it answers.
  func send(_ action: TodoList.Action, to id: String) async throws -> TodoList.Snapshot {
    let answer = try await request(
      .POST, "/sessions/\(id)/actions", body: .bytes(try JSONEncoder().encode(action)))
    guard answer.status == 200 else { throw TestServerError.unexpected(answer) }
    return try answer.decode(TodoList.Snapshot.self)
  }

  /// `GET /sessions/{id}`: the list.
  func state(of id: String) async throws -> TodoList.Snapshot {
    let answer = try await request(.GET, "/sessions/\(id)")
    guard answer.status == 200 else { throw TestServerError.unexpected(answer) }
    return try answer.decode(TodoList.Snapshot.self)
  }
}

/// An HTTP answer, read whole.
struct Answer: Sendable, CustomStringConvertible {
  let status: Int
  let body: Data
  let contentType: String?
  let location: String?

  /// The body as JSON of type `T`.
  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try JSONDecoder().decode(type, from: body)
  }

  /// The message of an error answer, `{"error": "..."}`; nil when the body is not one.
  var errorMessage: String? {
    (try? decode([String: String].self))?["error"]
  }

  var text: String { String(decoding: body, as: UTF8.self) }

  var description: String { "\(status) \(text.prefix(300))" }
}

/// The body of `POST /sessions`' answer, as a client reads it.
struct SessionCreatedBody: Decodable {
  var id: String
}

enum TestServerError: Error, CustomStringConvertible {
  case noPort
  case unexpected(Answer)

  var description: String {
    switch self {
    case .noPort: "the live test server reported no port"
    case .unexpected(let answer): "unexpected answer: \(answer)"
    }
  }
}
