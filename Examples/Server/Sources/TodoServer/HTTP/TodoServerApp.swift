import Foundation
import Hummingbird

/// The to-do server: its sessions and its HTTP application.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.port = 9000
/// try await TodoServerApp(configuration: configuration).run()
/// ```
///
/// Each session has a store of its own, in the isolation the configuration chooses
/// (``SessionIsolation``); the routes reach a session through its id and only `Sendable`
/// values cross to and from its store. Idle sessions are swept every
/// ``ServerConfiguration/sweepInterval``; recordings go to a folder of the server's own in the
/// system's temporary folder, removed when the server stops.
public struct TodoServerApp: Sendable {
  /// How the server runs.
  public let configuration: ServerConfiguration
  /// The live sessions.
  let sessions: SessionRegistry
  /// The folder of the recordings; nil when sessions are not recorded.
  let recordingDirectory: String?

  /// A server with no session yet; nothing listens until ``run()``.
  ///
  /// - Parameter configuration: How the server runs.
  /// - Throws: When the folder for the recordings cannot be made.
  public init(configuration: ServerConfiguration) throws {
    try self.init(configuration: configuration, environment: TodoList.Environment())
  }

  /// A server whose lists use `environment`'s services: for tests.
  init(configuration: ServerConfiguration, environment: TodoList.Environment) throws {
    self.configuration = configuration
    recordingDirectory = configuration.recordsSessions ? try Self.makeRecordingDirectory() : nil
    sessions = SessionRegistry(
      settings: SessionSettings(
        isolation: configuration.sessionIsolation, capacity: configuration.maximumSessions,
        idleTimeout: configuration.idleTimeout, environment: environment,
        recordingDirectory: recordingDirectory))
  }

  /// The HTTP application: the routes, with every error answered as JSON. Running it does not
  /// sweep idle sessions (``run()`` does), so a test can sweep when it chooses.
  public func application() -> some ApplicationProtocol {
    let router = Router(context: TodoRequestContext.self)
    router.add(middleware: JSONErrorMiddleware())
    SessionRoutes(
      sessions: sessions, bodyLimit: configuration.bodyLimit,
      recordsSessions: configuration.recordsSessions
    ).add(to: router)
    return Application(
      router: router,
      configuration: .init(
        address: .hostname(configuration.host, port: configuration.port),
        serverName: "todo-server"))
  }

  /// Runs the server until it is stopped (SIGINT or SIGTERM), sweeping idle sessions
  /// meanwhile; then ends every session and removes the recordings.
  public func run() async throws {
    do {
      try await withThrowingDiscardingTaskGroup { group in
        group.addTask { [sessions, configuration] in
          await sessions.sweepPeriodically(every: configuration.sweepInterval)
        }
        try await application().runService()
        group.cancelAll()
      }
    } catch {
      await shutDown()
      throw error
    }
    await shutDown()
  }

  /// Ends every session and removes the recordings' folder.
  func shutDown() async {
    await sessions.endAll()
    if let recordingDirectory { try? FileManager.default.removeItem(atPath: recordingDirectory) }
  }

  /// A new folder for this server's recordings, in the system's temporary folder.
  private static func makeRecordingDirectory() throws -> String {
    let path =
      FileManager.default.temporaryDirectory.path
      + "/todo-server-\(ProcessInfo.processInfo.processIdentifier)-\(SessionID.random())"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }
}
