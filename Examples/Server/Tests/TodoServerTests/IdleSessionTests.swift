import NIOHTTP1
import Testing

@testable import TodoServer

/// Sessions without a request for the idle timeout end and free their store; the tests move
/// time by passing the sweep an instant, and never sleep.
@Suite struct IdleSessionTests {
  static func registry(timeout: Duration = .seconds(60)) -> SessionRegistry {
    SessionRegistry(
      settings: SessionSettings(
        isolation: .ownActor, capacity: 10, idleTimeout: timeout,
        environment: TodoList.Environment(), recordingDirectory: nil))
  }

  @Test func anIdleSessionEndsAndIsFreed() async throws {
    let registry = Self.registry()
    let start = ContinuousClock.now
    let id = try await registry.create(at: start)
    weak let host = registry.host(id, at: start)
    #expect(host != nil)

    #expect(await registry.sweep(at: start + .seconds(59)) == 0)
    #expect(registry.host(id, at: start) != nil)
    #expect(await registry.sweep(at: start + .seconds(60)) == 1)
    #expect(registry.host(id) == nil)
    #expect(registry.count == 0)
    // Nothing holds the host, and with it the store, any more.
    #expect(host == nil)
  }

  @Test func aRequestKeepsASessionAlive() async throws {
    let registry = Self.registry()
    let start = ContinuousClock.now
    let used = try await registry.create(at: start)
    let unused = try await registry.create(at: start)
    _ = registry.host(used, at: start + .seconds(30))

    #expect(await registry.sweep(at: start + .seconds(70)) == 1)
    #expect(registry.host(unused) == nil)
    #expect(registry.host(used) != nil)
  }

  @Test func anEndedHostAnswersNothing() async throws {
    let registry = Self.registry()
    let id = try await registry.create()
    let host = try #require(registry.host(id))
    #expect(await registry.end(id))
    // A request that found the host just before the session ended.
    #expect(await host.state() == nil)
    #expect(await host.handle(.add(title: "milk")) == nil)
  }

  @Test func anIdleSessionAnswers404OverHTTP() async throws {
    try await TestServer.run({ $0.idleTimeout = .seconds(60) }) { server in
      let idle = try await server.createSession()
      _ = try await server.send(.add(title: "milk"), to: idle)
      #expect(await server.app.sessions.sweep(at: .now + .seconds(61)) == 1)
      #expect(try await server.request(.GET, "/sessions/\(idle)").status == 404)
      #expect(try await server.request(.POST, "/sessions").status == 201)
    }
  }
}
