import ArborealTracking

/// One wait before an effect starts: `Fx.delay(for:clock:)` and the operators built on it.
@usableFromInline
struct DelayStep: Sendable {
  let duration: Duration
  let clock: any Clock<Duration>

  /// `operation`, after waiting for each of `steps` in turn, and what settles the last wait.
  ///
  /// The first wait is booked now: the store calls this when it starts the effect, during the
  /// `send` that returned it, so a test that advances a manual clock after the `send` never
  /// races the effect's task. Each later wait is booked before the one before it settles, so
  /// the clock sees it before it moves on. The last wait settles once the operation has
  /// delivered its first action (the store has handled it) or when the store calls `settle`,
  /// after it recorded the effect's end, so that a test that advanced the clock sees the
  /// store without the effect.
  static func delaying<Action>(
    _ operation: @escaping @Sendable (_ send: @escaping FxEntry<Action>.Send) async -> Void,
    by steps: [DelayStep]
  ) -> (
    operation: @Sendable (_ send: @escaping FxEntry<Action>.Send) async -> Void,
    settle: @Sendable () -> Void
  ) {
    let current = Current(Sleep(for: steps[0].duration, on: steps[0].clock))
    let delayed: @Sendable (_ send: @escaping FxEntry<Action>.Send) async -> Void = { send in
      do {
        try await current.sleep()
        for step in steps.dropFirst() {
          current.replace(with: Sleep(for: step.duration, on: step.clock))
          try await current.sleep()
        }
      } catch {
        return
      }
      await operation { action in
        await send(action)
        current.settle()
      }
    }
    return (delayed, { current.settle() })
  }

  /// The wait an effect is at; replacing it books the next one, then settles the previous one.
  private final class Current: Sendable {
    private let wait: Locked<Sleep>

    init(_ sleep: Sleep) {
      wait = Locked.make(sleep)
    }

    func sleep() async throws {
      try await wait.withLock { $0 }()
    }

    func replace(with next: Sleep) {
      let previous = wait.withLock { current in
        defer { current = next }
        return current
      }
      previous.settle()
    }

    func settle() {
      wait.withLock { $0 }.settle()
    }
  }
}

/// A sleep whose deadline was fixed when it was made. `package`, for `ArborealDevtools`'
/// `StorePersister`, whose debounced saves a `TestClock` moves the same way.
package struct Sleep: Sendable {
  private let body: @Sendable () async throws -> Void
  /// Says that the work the sleep gated has done what it does at the deadline.
  package let settle: @Sendable () -> Void

  /// A sleep of `duration` from now on `clock`: booked now on a ``ManualClock``.
  package init(for duration: Duration, on clock: any Clock<Duration>) {
    if let manual = clock as? any ManualClock {
      let wake = manual.book(after: duration)
      body = { try await wake.wait() }
      settle = { wake.settle() }
    } else {
      body = Self.deadline(after: duration, on: clock)
      settle = {}
    }
  }

  /// Sleeps until the deadline.
  ///
  /// - Throws: `CancellationError` when the task is cancelled first.
  package func callAsFunction() async throws {
    try await body()
  }

  private static func deadline<C: Clock<Duration>>(
    after duration: Duration, on clock: C
  ) -> @Sendable () async throws -> Void {
    let deadline = clock.now.advanced(by: duration)
    return { try await clock.sleep(until: deadline, tolerance: nil) }
  }
}
