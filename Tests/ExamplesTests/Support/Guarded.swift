import Foundation

/// State behind an `NSLock`: a pthread mutex, which ThreadSanitizer sees. The Synchronization
/// module's `Mutex` is a futex on Linux, which it does not, so every contended `Mutex` was
/// reported as a race when the whole suite ran under ThreadSanitizer.
///
/// Invariant (why `@unchecked Sendable` holds): `value` is only read or written inside
/// `withLock`, under `lock`.
final class Guarded<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with the state, under the lock.
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
