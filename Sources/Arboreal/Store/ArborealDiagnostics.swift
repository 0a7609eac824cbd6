import ArborealTracking

/// Mistakes the store reports instead of failing: in debug builds, a message for each.
///
/// ```swift
/// ArborealDiagnostics.droppedActionHandler = { message in logger.warning("\(message)") }
/// ```
public enum ArborealDiagnostics: Sendable {
  private static let handler = Locked<(@Sendable (String) -> Void)?>.make(nil)

  /// Receives the message for an action dropped because its child is no longer in its parent:
  /// one sent to a keyed or presented ``ViewStore`` whose child is gone (a removed row), or
  /// forwarded with ``ArborealModel/forward(_:to:id:environment:tag:)`` (or another `forward`)
  /// to a child that is not there; and for an ``Fx/dismiss`` that no presentation or stack
  /// handles. Each message names the action and the child's type and place. When nil (the
  /// default), the message is written to standard error.
  ///
  /// Reported in debug builds only; release builds drop such actions silently, as documented
  /// in ``ViewStore``.
  public static var droppedActionHandler: (@Sendable (String) -> Void)? {
    get { handler.withLock { $0 } }
    set { handler.withLock { $0 = newValue } }
  }

  static func reportDroppedAction(_ message: String) {
    if let handler = droppedActionHandler {
      handler(message)
      return
    }
    writeToStandardError(message)
  }
}
