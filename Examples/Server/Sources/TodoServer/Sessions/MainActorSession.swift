/// A session whose store lives on the main actor: with this host, every session of the
/// server handles its actions on the one main actor, one at a time. The comparison for
/// ``SessionActor`` under load (`todo-server --main-actor`).
///
/// ## Data
/// - `core`: the store and its recorder; nil once the session has ended (which releases the
///   store).
///
/// ## Invariants
/// - `core` is made on the main actor, so its store is the main actor's.
@MainActor
final class MainActorSession: SessionHost {
  private var core: SessionCore?

  /// A session with an empty list.
  ///
  /// - Throws: ``RecordingError`` when the recording file cannot be made.
  init(environment: TodoList.Environment, recordingPath: String?) throws {
    core = try SessionCore(environment: environment, recordingPath: recordingPath)
  }

  func state() -> TodoList.Snapshot? {
    core?.state
  }

  func handle(_ action: TodoList.Action) async -> TodoList.Snapshot? {
    await core?.handle(action)
  }

  func recordingPath() async -> String? {
    await core?.recordingPath()
  }

  func end() async {
    let core = self.core
    self.core = nil
    await core?.finish()
  }
}
