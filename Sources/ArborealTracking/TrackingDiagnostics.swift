/// Diagnostics the registrar reports instead of failing.
public enum TrackingDiagnostics {
  /// How many times in a row a continuous observer re-runs because a property it read changed
  /// while it ran (typically: its body writes what it reads) before it is stopped.
  ///
  /// When the limit is reached the observer stops re-running, stays registered for what its
  /// last run read, and the runaway is reported to ``runawayHandler``. The next change of one
  /// of those properties starts it again.
  public static let rerunLimit = 100

  private static let runaway = DiagnosticChannel()

  /// Receives the message for a runaway observer. When nil (the default), the message is
  /// written to standard error.
  public static var runawayHandler: (@Sendable (String) -> Void)? {
    get { runaway.handler }
    set { runaway.handler = newValue }
  }

  private static let releasedToken = DiagnosticChannel()

  /// Receives the message for an observation whose token was released before any change
  /// reached it (`_ = observe { _ in }`), which debug builds report. When nil (the default), the
  /// message is written to standard error.
  public static var releasedTokenHandler: (@Sendable (String) -> Void)? {
    get { releasedToken.handler }
    set { releasedToken.handler = newValue }
  }

  static func reportRunaway(_ origin: ObserverOrigin?) {
    let observer = origin.map { "the observer registered at \($0)" } ?? "an observer"
    let message =
      "ArborealTracking: \(observer) re-ran \(rerunLimit) times in a row because it changes "
      + "what it reads; it was stopped until its next change."
    runaway.report(message)
  }

  static func reportReleasedEarly(_ origin: ObserverOrigin?) {
    let observer = origin.map { "The observation registered at \($0)" } ?? "An observation"
    let message =
      "ArborealTracking: \(observer) ended before any change reached it: its token was "
      + "released. Keep the token (`let token = observe { _ in … }`) for as long as it should run; "
      + "cancel it to end it on purpose."
    releasedToken.report(message)
  }
}
