/// A session whose store lives on an actor of its own: sessions handle their actions in
/// parallel, each one at a time.
///
/// ## Data
/// - `core`: the store and its recorder; nil once the session has ended (which releases the
///   store).
///
/// ## Invariants
/// - `core` is made in this actor's isolation, so its store is this actor's.
actor SessionActor: SessionHost {
  private var core: SessionCore?

  /// A session with an empty list.
  ///
  /// - Throws: ``RecordingError`` when the recording file cannot be made.
  init(environment: TodoList.Environment, recordingPath: String?) async throws {
    // In an actor's initialiser `#isolation` is nil until every stored property has a value;
    // `core` gets one first, so that the store is made in this actor's isolation, not in none.
    core = nil
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
