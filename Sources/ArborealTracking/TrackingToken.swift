/// Keeps a continuous observation alive; cancelling or releasing it ends the observation.
///
/// ```swift
/// let token = observe { _ in print(counter.count) }
/// // ...
/// token.cancel()  // or let the token go
/// ```
///
/// After ``cancel()`` returns (or the token is released), the observer's body does not start
/// again, whatever its isolation: a run already queued on its actor finds it cancelled and
/// does nothing. A run that another thread had already begun may finish. Every registration
/// the observer held is removed.
///
/// Releasing the token ends the observation: keep it (`let token = observe { _ in }`, or in a
/// property). A token released right after its registration (within a millisecond) and
/// before any change reached its observer, as `_ = observe { _ in }` does, is reported by
/// ``TrackingDiagnostics`` in debug builds.
///
/// Cancelling drops the token's hold on the observer: a token kept after ``cancel()`` (in a
/// property of the object the body captured, say) no longer keeps the body, or what it
/// captured, alive.
///
/// Invariant (why `@unchecked Sendable` holds): `observer` is only read or written under
/// `lock`, except in `deinit`, when no other reference to the token exists.
public final class TrackingToken: @unchecked Sendable {
  private let lock = Lock()
  /// The observer until ``cancel()``, nil after it.
  private var observer: ObserverCore?
  #if DEBUG
    /// When the token was made, to tell `_ = observe { _ in }` from a token kept for a while.
    private let created = Platform.monotonicNanoseconds()
  #endif

  init(observer: ObserverCore) {
    self.observer = observer
  }

  /// Ends the observation. Calling it again does nothing.
  ///
  /// - Complexity: O(*d*) for the *d* properties the observer depends on.
  public func cancel() {
    let observer = withLock { observer -> ObserverCore? in
      defer { observer = nil }
      return observer
    }
    observer?.cancel()
  }

  /// Whether ``cancel()`` was called.
  public var isCancelled: Bool {
    withLock { observer in observer?.isCancelled ?? true }
  }

  private func withLock<R>(_ body: (inout ObserverCore?) -> R) -> R {
    lock.withLock(owner: UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())) {
      body(&observer)
    }
  }

  deinit {
    guard let observer else { return }
    #if DEBUG
      // Released within a millisecond of its registration, before any change: almost
      // certainly a discarded token rather than an observation that ended on purpose.
      if !observer.isCancelled && !observer.hasBeenNotified
        && Platform.monotonicNanoseconds() &- created < 1_000_000
      {
        TrackingDiagnostics.reportReleasedEarly(observer.origin)
      }
    #endif
    observer.cancel()
  }
}
