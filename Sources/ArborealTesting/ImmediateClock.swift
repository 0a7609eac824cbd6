import ArborealTracking

/// A clock on which every wait ends at once: effects that wait on it run without delay, so a
/// test that does not care about timing needs no advancing.
///
/// ```swift
/// let store = TestStore(state: Toast(), environment: .init(clock: ImmediateClock()))
/// await store.send(.show("Saved")) { #expect($0.text == "Saved") }
/// await store.receive(.hide) { #expect($0.text == nil) }
/// ```
///
/// Its time still moves: each sleep moves ``now`` to the sleep's deadline (never backward), so
/// code that measures time on it sees the durations it waited.
public final class ImmediateClock: Clock, Sendable {
  /// A point in an immediate clock's time: a duration since the clock's start.
  public typealias Instant = TestClock.Instant

  private let current: Locked<Instant>

  /// Creates a clock at `now`.
  ///
  /// - Parameter now: The starting time; the clock's start by default.
  public init(now: Instant = Instant()) {
    current = Locked.make(now)
  }

  /// The current time: the latest deadline slept until, or the starting time.
  public var now: Instant { current.withLock { $0 } }

  /// The smallest step the clock tells apart: any, it is exact.
  public var minimumResolution: Duration { .zero }

  /// Moves ``now`` to `deadline` (if later) and returns at once.
  ///
  /// - Parameters:
  ///   - deadline: The instant slept until.
  ///   - tolerance: Ignored.
  /// - Throws: `CancellationError` when the task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    current.withLock { $0 = max($0, deadline) }
  }
}
