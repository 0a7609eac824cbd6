import Arboreal

/// Mistakes with persisted models that debug builds report instead of letting pass in silence.
///
/// ```swift
/// PersistenceDiagnostics.releasedPersisterHandler = { message in logger.warning("\(message)") }
/// ```
public enum PersistenceDiagnostics: Sendable {
  private static let handler = Locked<(@Sendable (String) -> Void)?>.make(nil)

  /// Receives the message for a ``StorePersister`` released before its
  /// ``StorePersister/finish()``: a persister that is not kept stops saving when it goes
  /// (`_ = try StorePersister(…)` saves nothing), and one released with changes not yet
  /// written loses them. Each message names the model and the file, and says whether changes
  /// were lost. When nil (the default), the message is written to standard error. Reported in
  /// debug builds only.
  public static var releasedPersisterHandler: (@Sendable (String) -> Void)? {
    get { handler.withLock { $0 } }
    set { handler.withLock { $0 = newValue } }
  }

  static func reportReleasedPersister(_ message: String) {
    if let handler = releasedPersisterHandler {
      handler(message)
    } else {
      writeToStandardError(message)
    }
  }
}
