// Package hook, not API: the one shape of every diagnostics handler of the library
// (`TrackingDiagnostics`, `ArborealDiagnostics`, `PersistenceDiagnostics`).

/// One kind of diagnostic message: delivered to the handler a program sets, or written to
/// standard error when it sets none.
///
/// Thread-safe: the handler is read and replaced under a lock, and a message is delivered
/// outside it (a handler may set another handler).
package final class DiagnosticChannel: Sendable {
  private let receiver = Locked<(@Sendable (String) -> Void)?>.make(nil)

  package init() {}

  /// The program's handler; nil for standard error.
  package var handler: (@Sendable (String) -> Void)? {
    get { receiver.withLock { $0 } }
    set { receiver.withLock { $0 = newValue } }
  }

  /// Delivers `message` to the handler, or writes it to standard error.
  package func report(_ message: String) {
    if let handler {
      handler(message)
    } else {
      writeToStandardError(message)
    }
  }
}
