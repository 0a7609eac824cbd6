/// How the registry makes sessions and how long it keeps them: the part of the server's
/// configuration that the sessions need, with the folder their recordings go to.
struct SessionSettings: Sendable {
  /// Where each session's store lives.
  var isolation: SessionIsolation
  /// The most sessions at once.
  var capacity: Int
  /// How long a session may go without a request before it ends.
  var idleTimeout: Duration
  /// The services each list's effects use.
  var environment: TodoList.Environment
  /// The folder for the sessions' recording files; nil when sessions are not recorded.
  var recordingDirectory: String?

  /// Where the session with this id records its actions; nil when sessions are not recorded.
  func recordingPath(for id: SessionID) -> String? {
    recordingDirectory.map { "\($0)/\(id).jsonl" }
  }
}
