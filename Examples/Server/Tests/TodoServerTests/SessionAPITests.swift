import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing

@testable import TodoServer

/// The HTTP API, driven over real HTTP: what each route answers, and what it refuses.
@Suite struct SessionAPITests {
  @Test func createAnswers201WithTheSessionsIDAndPlace() async throws {
    try await TestServer.run { server in
      let answer = try await server.request(.POST, "/sessions")
      #expect(answer.status == 201)
      let id = try answer.decode(SessionCreatedBody.self).id
      #expect(SessionID(id) != nil)
      #expect(answer.location == "/sessions/\(id)")
      #expect(answer.contentType?.hasPrefix("application/json") == true)
    }
  }

  @Test(arguments: SessionIsolation.allCases)
  func actionAnswersTheListAfterIt(isolation: SessionIsolation) async throws {
    try await TestServer.run({ $0.sessionIsolation = isolation }) { server in
      let id = try await server.createSession()
      _ = try await server.send(.add(title: "milk"), to: id)
      _ = try await server.send(.add(title: "  eggs "), to: id)
      _ = try await server.send(.toggle(id: 1), to: id)
      let list = try await server.send(.rename(id: 2, title: "brown eggs"), to: id)
      #expect(
        list.items == [
          TodoItem(id: 1, title: "milk", done: true),
          TodoItem(id: 2, title: "brown eggs", done: false),
        ])
      #expect(list.revision == 4)
      #expect(try await server.state(of: id) == list)
    }
  }

  @Test(arguments: SessionIsolation.allCases)
  func actionAnswersOnceItsEffectsHaveFinished(isolation: SessionIsolation) async throws {
    // A save that takes a while: the answer must still carry its receipt.
    let environment = TodoList.Environment { snapshot in
      try? await Task.sleep(for: .milliseconds(50))
      return snapshot.items.count * 100
    }
    try await TestServer.run({ $0.sessionIsolation = isolation }, environment: environment) {
      server in
      let id = try await server.createSession()
      _ = try await server.send(.add(title: "milk"), to: id)
      let list = try await server.send(.save, to: id)
      #expect(list.lastSave == SaveReceipt(revision: 1, bytes: 100))
    }
  }

  @Test func badActionsAre400AndLeaveTheSessionAsItWas() async throws {
    try await TestServer.run { server in
      let id = try await server.createSession()
      let before = try await server.send(.add(title: "milk"), to: id)
      let bodies = [
        "not json", "", #"{"fly":{}}"#, #"{"add":{}}"#, #"{"toggle":{"id":"one"}}"#,
        #"{"add":{"title":"a"},"remove":{"id":1}}"#, #"{"saved":{"revision":1,"bytes":9}}"#,
      ]
      for body in bodies {
        let answer = try await server.send(json: body, to: id)
        #expect(answer.status == 400, "\(body)")
        #expect(answer.errorMessage?.hasPrefix("not an action") == true, "\(answer)")
      }
      #expect(try await server.state(of: id) == before)
    }
  }

  @Test func badActionMessagesSayWhatIsWrong() async throws {
    try await TestServer.run { server in
      let id = try await server.createSession()
      let expected = [
        "not json": "The given data was not valid JSON.",
        #"{"fly":{}}"#: "unknown action 'fly'",
        #"{}"#: "an action is an object with one key, the action's name (found 0)",
        #"{"add":{}}"#: "at 'add': missing 'title'",
        #"{"toggle":{"id":"one"}}"#: "at 'toggle.id': expected a whole number",
      ]
      for (body, problem) in expected {
        let answer = try await server.send(json: body, to: id)
        #expect(answer.errorMessage == "not an action: \(problem); \(ActionBody.hint)")
      }
      #expect(ActionBody.hint.hasPrefix(#"an action is one of {"add":{"title":"milk"}}, "#))
    }
  }

  @Test func unknownSessionsAre404() async throws {
    try await TestServer.run { server in
      let stranger = SessionID.random().rawValue
      let answers = [
        try await server.request(.GET, "/sessions/\(stranger)"),
        try await server.request(.GET, "/sessions/not-an-id"),
        try await server.send(json: #"{"save":{}}"#, to: stranger),
        try await server.request(.GET, "/sessions/\(stranger)/recording"),
        try await server.request(.DELETE, "/sessions/\(stranger)"),
      ]
      for answer in answers {
        #expect(answer.status == 404)
        #expect(answer.errorMessage == APIError.unknownSession.message)
      }
    }
  }

  @Test func unknownRoutesAnswerJSONErrors() async throws {
    try await TestServer.run { server in
      let answer = try await server.request(.GET, "/nothing/here")
      #expect(answer.status == 404)
      #expect(answer.errorMessage != nil)
    }
  }

  @Test func bodiesOverTheLimitAre413AndLeaveTheSessionAsItWas() async throws {
    try await TestServer.run({ $0.bodyLimit = 64 * 1024 }) { server in
      let id = try await server.createSession()
      let before = try await server.send(.add(title: "milk"), to: id)
      // A declared length over the limit: refused before the body is read.
      let declared = try await server.request(
        .POST, "/sessions/\(id)/actions", body: .bytes(Data(repeating: 32, count: 1 << 20)))
      #expect(declared.status == 413)
      #expect(declared.errorMessage == APIError.tooLarge(limit: 64 * 1024).message)
      // No declared length: refused once the chunks pass the limit.
      let chunks = AsyncStream<ByteBuffer> { continuation in
        for _ in 0..<6 { continuation.yield(ByteBuffer(repeating: 32, count: 16 * 1024)) }
        continuation.finish()
      }
      let streamed = try await server.request(
        .POST, "/sessions/\(id)/actions", body: .stream(chunks, length: .unknown))
      #expect(streamed.status == 413)
      #expect(try await server.state(of: id) == before)
    }
  }

  @Test func deleteEndsTheSession() async throws {
    try await TestServer.run { server in
      let id = try await server.createSession()
      _ = try await server.send(.add(title: "milk"), to: id)
      #expect(server.app.sessions.count == 1)
      let deleted = try await server.request(.DELETE, "/sessions/\(id)")
      #expect(deleted.status == 204)
      #expect(deleted.body.isEmpty)
      #expect(server.app.sessions.count == 0)
      #expect(try await server.request(.GET, "/sessions/\(id)").status == 404)
      #expect(try await server.send(json: #"{"save":{}}"#, to: id).status == 404)
      #expect(try await server.request(.DELETE, "/sessions/\(id)").status == 404)
    }
  }

  @Test func aFullServerAnswers503() async throws {
    try await TestServer.run({ $0.maximumSessions = 2 }) { server in
      _ = try await server.createSession()
      let second = try await server.createSession()
      let refused = try await server.request(.POST, "/sessions")
      #expect(refused.status == 503)
      #expect(refused.errorMessage == APIError.tooManySessions.message)
      #expect(try await server.request(.DELETE, "/sessions/\(second)").status == 204)
      #expect(try await server.request(.POST, "/sessions").status == 201)
    }
  }
}
