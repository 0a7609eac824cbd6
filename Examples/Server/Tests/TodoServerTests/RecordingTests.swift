import Arboreal
import ArborealDevtools
import Foundation
import NIOHTTP1
import Testing

@testable import TodoServer

/// `GET /sessions/{id}/recording`: a recording the library reads, replays and shows.
@Suite struct RecordingTests {
  @Test(arguments: SessionIsolation.allCases)
  func theRecordingReplaysToTheSessionsList(isolation: SessionIsolation) async throws {
    try await TestServer.run({ $0.sessionIsolation = isolation }) { server in
      let id = try await server.createSession()
      for action in [TodoList.Action.add(title: "milk"), .add(title: "eggs"), .toggle(id: 1)] {
        _ = try await server.send(action, to: id)
      }
      let list = try await server.send(.save, to: id)

      let answer = try await server.request(.GET, "/sessions/\(id)/recording")
      #expect(answer.status == 200)
      #expect(answer.contentType?.hasPrefix("application/x-ndjson") == true)
      let recording = try Recording<TodoList>(data: answer.body)
      // Four sent actions, and the save effect's answer, named as the effect of step 4.
      #expect(recording.steps.map(\.sequence) == [1, 2, 3, 4, 5])
      #expect(recording.steps[4].cause == .effect(startedBy: 4))
      #expect(recording.start == TodoList.Snapshot())
      let replayed = await Self.replay(recording)
      #expect(replayed == list)
    }
  }

  @Test func theRecordingOpensInTheViewer() async throws {
    try await TestServer.run { server in
      let id = try await server.createSession()
      _ = try await server.send(.add(title: "milk"), to: id)
      let answer = try await server.request(.GET, "/sessions/\(id)/recording?format=html")
      #expect(answer.status == 200)
      #expect(answer.contentType?.hasPrefix("text/html") == true)
      #expect(answer.text.contains("<html"))
      #expect(answer.text.contains("todo-server session \(id)"))
    }
  }

  @Test func anEndedSessionLeavesNoFile() async throws {
    try await TestServer.run { server in
      let directory = try #require(server.app.recordingDirectory)
      let id = try await server.createSession()
      _ = try await server.send(.add(title: "milk"), to: id)
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["\(id).jsonl"])
      #expect(try await server.request(.DELETE, "/sessions/\(id)").status == 204)
      #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }
  }

  @Test func aServerThatDoesNotRecordSaysSo() async throws {
    try await TestServer.run({ $0.recordsSessions = false }) { server in
      #expect(server.app.recordingDirectory == nil)
      let id = try await server.createSession()
      let answer = try await server.request(.GET, "/sessions/\(id)/recording")
      #expect(answer.status == 404)
      #expect(answer.errorMessage == APIError.notRecorded.message)
    }
  }

  /// The list the recording replays to.
  @MainActor
  static func replay(_ recording: Recording<TodoList>) -> TodoList.Snapshot {
    recording.replay(environment: TodoList.Environment()).snapshot
  }
}
