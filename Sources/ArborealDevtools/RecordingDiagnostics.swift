import ArborealTracking

/// What a ``StoreRecorder`` reports instead of waiting in silence.
///
/// ```swift
/// RecordingDiagnostics.stalledWriterHandler = { message in logger.warning("\(message)") }
/// ```
public enum RecordingDiagnostics: Sendable {
  // The shape of every diagnostics handler of the library (`ArborealDiagnostics`,
  // `PersistenceDiagnostics`): a public property over a `DiagnosticChannel`.
  private static let stalledWriter = DiagnosticChannel()

  /// Receives the messages of a store that waits for its recorder's writer: when `limit`
  /// steps wait and the writer has taken none for 10 seconds (its `write` is blocked: a full
  /// disk, a pipe nobody reads, a stalled network file system), a message names the file,
  /// the store's model, the action that waits and how long it has waited; when the writer
  /// takes steps again, a second says how long the store waited in all. The store goes on
  /// waiting in between: nothing is dropped. When nil (the default), the messages are
  /// written to standard error. Reported in every build: the wait is real in every build.
  public static var stalledWriterHandler: (@Sendable (String) -> Void)? {
    get { stalledWriter.handler }
    set { stalledWriter.handler = newValue }
  }

  static func reportStalledWriter(_ message: String) {
    stalledWriter.report(message)
  }
}
