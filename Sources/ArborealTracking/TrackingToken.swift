/// Keeps a continuous observation alive; cancelling or releasing it ends the observation.
///
/// ```swift
/// let token = observe { print(counter.count) }
/// // ...
/// token.cancel()  // or let the token go
/// ```
///
/// After ``cancel()`` returns, the observer is not called again, except that a run another
/// thread had already begun may finish. Every registration the observer held is removed.
public final class TrackingToken: Sendable {
  private let observer: ObserverCore

  init(observer: ObserverCore) {
    self.observer = observer
  }

  /// Ends the observation. Calling it again does nothing.
  ///
  /// - Complexity: O(*d*) for the *d* properties the observer depends on.
  public func cancel() {
    observer.cancel()
  }

  /// Whether ``cancel()`` was called.
  public var isCancelled: Bool { observer.isCancelled }

  deinit {
    observer.cancel()
  }
}
