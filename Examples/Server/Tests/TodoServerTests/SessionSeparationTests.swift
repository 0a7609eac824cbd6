import Foundation
import Testing

@testable import TodoServer

/// One session never reads or changes another's list, however their requests interleave.
@Suite struct SessionSeparationTests {
  @Test(arguments: SessionIsolation.allCases)
  func sessionsNeverSeeEachOthersLists(isolation: SessionIsolation) async throws {
    try await TestServer.run({ $0.sessionIsolation = isolation }) { server in
      let first = try await server.createSession()
      let second = try await server.createSession()
      // Both sessions' actions at once, interleaved as the server pleases.
      try await withThrowingTaskGroup { group in
        for number in 1...20 {
          group.addTask { _ = try await server.send(.add(title: "first \(number)"), to: first) }
          group.addTask { _ = try await server.send(.add(title: "second \(number)"), to: second) }
        }
        try await group.waitForAll()
      }
      _ = try await server.send(.toggle(id: 1), to: first)
      _ = try await server.send(.save, to: first)
      _ = try await server.send(.remove(id: 2), to: second)

      let one = try await server.state(of: first)
      let two = try await server.state(of: second)
      #expect(one.items.count == 20)
      #expect(one.items.allSatisfy { $0.title.hasPrefix("first ") })
      #expect(one.items.first { $0.id == 1 }?.done == true)
      #expect(one.lastSave?.revision == 21)
      #expect(two.items.count == 19)
      #expect(two.items.allSatisfy { $0.title.hasPrefix("second ") && !$0.done })
      #expect(two.items.contains { $0.id == 1 })
      #expect(two.lastSave == nil)
    }
  }

  @Test(arguments: SessionIsolation.allCases)
  func eachSessionHasAHostOfTheChosenKind(isolation: SessionIsolation) async throws {
    let host = try await isolation.makeHost(
      environment: TodoList.Environment(), recordingPath: nil)
    switch isolation {
    case .ownActor: #expect(host is SessionActor)
    case .mainActor: #expect(host is MainActorSession)
    }
    await host.end()
  }
}
