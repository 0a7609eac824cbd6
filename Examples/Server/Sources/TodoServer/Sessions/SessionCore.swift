import Arboreal
import ArborealDevtools
import Foundation

/// One session's store and the recorder that keeps its actions: the part of a session that
/// lives in one isolation, the host's (see ``SessionHost``).
///
/// Not `Sendable`: it is made by a host, in the host's isolation (which the store takes as
/// its own), and only that host calls it. Its `async` methods run in the caller's isolation
/// (`nonisolated(nonsending)`), so they never take the store anywhere else.
///
/// ## Data
/// - `store`: the session's store.
/// - `recorder`: writes each action the store handles to `recorder.path`; nil when the server
///   does not record.
///
/// ## Invariants
/// - `store` is used only in the isolation it was made in.
final class SessionCore {
  private let store: Store<TodoList>
  private let recorder: StoreRecorder<TodoList>?

  /// A new, empty list in a store of the caller's isolation, recorded to `recordingPath`.
  ///
  /// - Throws: ``RecordingError`` when the recording file cannot be made.
  init(
    environment: TodoList.Environment, recordingPath: String?,
    isolation: isolated (any Actor)? = #isolation
  ) throws(RecordingError) {
    store = Store(state: TodoList(), environment: environment, isolation: isolation)
    if let recordingPath {
      // Steps go to the file only: a long session must not grow in memory.
      recorder = try StoreRecorder(store, to: recordingPath, keepingSteps: false)
    } else {
      recorder = nil
    }
  }

  /// The list now.
  var state: TodoList.Snapshot { store.state.snapshot }

  /// Sends `action` and returns the list once its effects have settled.
  nonisolated(nonsending) func handle(_ action: TodoList.Action) async -> TodoList.Snapshot {
    await store.send(action).value
    return store.state.snapshot
  }

  /// The recording file's path once every action handled so far is written to it.
  nonisolated(nonsending) func recordingPath() async -> String? {
    guard let recorder else { return nil }
    await recorder.flush()
    return recorder.path
  }

  /// Finishes the recording and removes its file; the store goes with the core.
  nonisolated(nonsending) func finish() async {
    guard let recorder else { return }
    await recorder.finish()
    if let path = recorder.path { try? FileManager.default.removeItem(atPath: path) }
  }
}

@available(*, unavailable)
extension SessionCore: Sendable {}
