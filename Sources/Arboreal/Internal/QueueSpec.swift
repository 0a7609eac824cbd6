/// The queue an effect runs in: see `Fx.queue(_:_:)`.
@usableFromInline
struct QueueSpec: Sendable {
  /// The identifier every effect of the queue is tagged with, scoped like any other.
  private(set) var id: CancelID
  let policy: EffectQueuePolicy
  /// The least time between two starts, and the clock it is measured on.
  let spacing: DelayStep?

  init(id: CancelID, policy: EffectQueuePolicy, spacing: DelayStep?) {
    self.id = id
    self.policy = policy
    self.spacing = spacing
  }

  /// The same queue, seen from the parent that tagged it for `child`.
  @usableFromInline
  func scoped(in child: EffectScope) -> QueueSpec {
    var copy = self
    copy.id = id.scoped(in: child)
    return copy
  }
}

/// The base of a queue's identifier: a type of its own, so that it never equals an identifier
/// given to `cancellable(id:)`.
struct QueueKey<ID: Hashable & Sendable>: Hashable, Sendable, CustomDebugStringConvertible {
  let id: ID

  /// `queue "uploads"`, for the list of running effects in a test failure.
  var debugDescription: String { "queue \(String(reflecting: id))" }
}

/// When a queue with spacing may start its next effect: the start instant of the last one, on
/// the queue's clock.
struct QueueStart: Sendable {
  /// How long to wait, from now, before starting the next effect, and the record of that
  /// start; `previous` is the record of the last start, if any.
  static func next(
    after previous: QueueStart?, spacing: DelayStep
  ) -> (wait: Duration, record: QueueStart) {
    opened(spacing.clock, previous: previous, spacing: spacing.duration)
  }

  private let instant: any Sendable

  private static func opened<C: Clock<Duration>>(
    _ clock: C, previous: QueueStart?, spacing: Duration
  ) -> (wait: Duration, record: QueueStart) {
    let now = clock.now
    guard let last = previous?.instant as? C.Instant else {
      return (.zero, QueueStart(instant: now))
    }
    let earliest = last.advanced(by: spacing)
    let wait = earliest > now ? now.duration(to: earliest) : .zero
    return (wait, QueueStart(instant: now.advanced(by: wait)))
  }
}
