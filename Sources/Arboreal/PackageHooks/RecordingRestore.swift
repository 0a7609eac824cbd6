/// Package hook for `ArborealDevtools`, not API: rebuilds a model from a recording's snapshot
/// (the start of a replay, a time-travel checkpoint). In debug builds, a ``ModelStack`` that a
/// screen is pushed on while it runs is reported once per screen type: its screens get
/// identifiers numbered afresh, not the ones they had when recorded, and the recording's
/// actions, which name screens by identifier, may reach the wrong screen, silently.
/// (`ModelStack(_:)` pushes; `ModelStack(restoring:nextElementID:)` does not.)
package enum RecordingRestore {
  /// Creates a model in the state `snapshot` describes, watching for stacks filled by `push`.
  ///
  /// - Parameter snapshot: A snapshot from a recording.
  /// - Returns: The model.
  package static func model<Model: ReplayableModel>(from snapshot: Model.Snapshot) -> Model {
    #if DEBUG
      return $isRebuilding.withValue(true) { Model(snapshot: snapshot) }
    #else
      return Model(snapshot: snapshot)
    #endif
  }

  #if DEBUG
    /// Whether a model is being rebuilt from a recording's snapshot on this task.
    @TaskLocal static var isRebuilding = false

    /// Reports, once per screen type, a push on a stack of `screen` while a model is rebuilt
    /// from a recording's snapshot.
    static func reportPush<Screen>(of screen: Screen.Type, id: StackElementID) {
      guard ArborealDiagnostics.isFirstAsk("restored stack", about: screen) else { return }
      ArborealDiagnostics.reportDroppedAction(
        "Arboreal: a screen was pushed on a ModelStack<\(screen)> (as \(id)) while a model was "
          + "rebuilt from a recording's snapshot, so its screens are numbered afresh, not as "
          + "they were when recorded, and the recording's actions that name a screen may "
          + "reach another one. Keep the identifiers in the snapshot (`elementIDs`, "
          + "`nextElementID`) and restore the stack with "
          + "`ModelStack(restoring:nextElementID:)` instead of `ModelStack(_:)` or `push`.")
    }
  #endif
}
