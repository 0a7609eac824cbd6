import Arboreal

/// Mistakes with persisted models that debug builds report instead of letting pass in silence.
///
/// ```swift
/// PersistenceDiagnostics.releasedPersisterHandler = { message in logger.warning("\(message)") }
/// ```
public enum PersistenceDiagnostics: Sendable {
  // The shape of every diagnostics handler of the library (`TrackingDiagnostics`,
  // `ArborealDiagnostics`): a public property over a `DiagnosticChannel`, which holds the logic.
  private static let releasedPersister = DiagnosticChannel()

  /// Receives the message for a ``StorePersister`` released before its
  /// ``StorePersister/finish()``: a persister that is not kept stops saving when it goes
  /// (`_ = try StorePersister(…)` saves nothing), and one released with changes not yet
  /// written loses them. Each message names the model and the file, and says whether changes
  /// were lost. When nil (the default), the message is written to standard error. Reported in
  /// debug builds only.
  public static var releasedPersisterHandler: (@Sendable (String) -> Void)? {
    get { releasedPersister.handler }
    set { releasedPersister.handler = newValue }
  }

  static func reportReleasedPersister(_ message: String) {
    releasedPersister.report(message)
  }
}
