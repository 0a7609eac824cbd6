/// How the server runs: where it listens, where it keeps its sessions' stores, and how long
/// and how many it keeps.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.port = 0  // any free port
/// configuration.sessionIsolation = .mainActor
/// let server = try TodoServerApp(configuration: configuration)
/// try await server.run()
/// ```
public struct ServerConfiguration: Sendable, Equatable {
  /// The address to listen on: the loopback address by default, reachable from this machine
  /// only.
  public var host = "127.0.0.1"
  /// The port to listen on; 0 for any free one.
  public var port = 8080
  /// Where each session's store lives: on an actor of its own (the default) or all on the
  /// main actor.
  public var sessionIsolation = SessionIsolation.ownActor
  /// How long a session may go without a request before it ends.
  public var idleTimeout = Duration.seconds(30 * 60)
  /// How often the server looks for idle sessions.
  public var sweepInterval = Duration.seconds(30)
  /// The most sessions at once; `POST /sessions` answers 503 beyond it.
  public var maximumSessions = 10_000
  /// The largest action body accepted, in bytes; 413 beyond it.
  public var bodyLimit = 64 * 1024
  /// Whether each session's actions are recorded, for `GET /sessions/{id}/recording`.
  public var recordsSessions = true

  /// The defaults: port 8080 on the loopback address, an actor per session, sessions end
  /// after 30 idle minutes.
  public init() {}
}
