/// Where one session's store lives, and what the routes ask of it.
///
/// A host owns its store: the store is made in the host's isolation and never leaves it, and
/// only `Sendable` values (actions, snapshots, a file's path) cross. Two hosts, chosen by
/// ``SessionIsolation``:
/// - ``SessionActor``: an actor of its own per session, so sessions run in parallel;
/// - ``MainActorSession``: every session's store on the main actor, one action at a time for
///   the whole server (the comparison for a load test).
///
/// Every answer is nil once ``end()`` has run: a request that found the session just before
/// it ended gets a 404, not a list that is gone.
protocol SessionHost: AnyObject, Sendable {
  /// The list now.
  func state() async -> TodoList.Snapshot?

  /// Sends `action` to the store, waits until its effects (and the actions they delivered)
  /// have finished, and returns the list then.
  func handle(_ action: TodoList.Action) async -> TodoList.Snapshot?

  /// The path of the session's recording file, once every action handled so far is in it;
  /// nil when the session does not record.
  func recordingPath() async -> String?

  /// Ends the session: finishes its recording, removes the file, releases the store (which
  /// cancels its effects). Later calls do nothing.
  func end() async
}
