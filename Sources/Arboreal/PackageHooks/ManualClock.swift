import ArborealTracking

/// Package hook for `ArborealTesting`'s `TestClock`, not API: a clock whose time moves only when
/// a test advances it, and which runs what falls due one wake-up at a time.
///
/// The time operators of ``Fx`` (``Fx/delay(for:clock:)`` and the others) book their wake-up
/// when the store starts the effect, synchronously in the `send`, instead of when the effect's
/// task gets round to sleeping: so a test that sends an action and then advances the clock never races
/// the effect's task. The clock fires the wake-ups that fall due in order, and waits for each to
/// be *settled* (the effect delivered its first action, ended, or was cancelled) before the
/// next, so the actions of effects due at different instants arrive in the order of their
/// instants.
package protocol ManualClock: Sendable {
  /// Books a wake-up `duration` after the clock's current time; wake-ups due at the same
  /// instant fire in the order they were booked.
  func book(after duration: Duration) -> any ManualWake
}

/// A wake-up booked on a ``ManualClock``. Releasing it (the effect was dropped, or ended) settles
/// it.
package protocol ManualWake: AnyObject, Sendable {
  /// Suspends until the clock reaches the wake-up's instant; returns at once if it has.
  ///
  /// - Throws: `CancellationError` when the task is cancelled first (the wake-up is dropped).
  func wait() async throws
  /// Says that the work the wake-up gated has done what it does at this instant. Idempotent.
  func settle()
}
