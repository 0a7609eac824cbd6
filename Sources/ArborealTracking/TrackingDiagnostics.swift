import Synchronization

/// Diagnostics the registrar reports instead of failing.
public enum TrackingDiagnostics {
  /// How many times in a row a continuous observer re-runs because a property it read changed
  /// while it ran (typically: its body writes what it reads) before it is stopped.
  ///
  /// When the limit is reached the observer stops re-running, stays registered for what its
  /// last run read, and the runaway is reported to ``runawayHandler``. The next change of one
  /// of those properties starts it again.
  public static let rerunLimit = 100

  private static let handler = Locked<(@Sendable (String) -> Void)?>.make(nil)

  /// Receives the message for a runaway observer. When nil (the default), the message is
  /// written to standard error.
  public static var runawayHandler: (@Sendable (String) -> Void)? {
    get { handler.withLock { $0 } }
    set { handler.withLock { $0 = newValue } }
  }

  static func reportRunaway() {
    let message =
      "ArborealTracking: an observer re-ran \(rerunLimit) times in a row because it changes "
      + "what it reads; it was stopped until its next change."
    if let handler = runawayHandler {
      handler(message)
    } else {
      Platform.printError(message)
    }
  }
}
