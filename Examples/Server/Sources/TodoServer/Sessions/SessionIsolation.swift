/// Where the server keeps its sessions' stores.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.sessionIsolation = .mainActor  // todo-server --main-actor
/// ```
public enum SessionIsolation: String, Sendable, CaseIterable {
  /// Each session's store on an actor of its own: sessions run in parallel. The default.
  case ownActor
  /// Every session's store on the main actor: one action at a time for the whole server.
  /// For comparison under load, not for production.
  case mainActor

  /// A new session's host, its store made in the host's isolation.
  ///
  /// - Throws: When the session's recording file cannot be made.
  func makeHost(
    environment: TodoList.Environment, recordingPath: String?
  ) async throws -> any SessionHost {
    switch self {
    case .ownActor:
      try await SessionActor(environment: environment, recordingPath: recordingPath)
    case .mainActor:
      try await MainActorSession(environment: environment, recordingPath: recordingPath)
    }
  }
}
