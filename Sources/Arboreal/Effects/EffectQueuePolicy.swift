/// How an effect queue (``Fx/queue(_:_:)``) treats an effect that arrives when it is full.
///
/// ```swift
/// .queue(UploadQueue(), .oldest(2, whenFull: .suspend))  // two uploads at a time, in order
/// .queue(SearchQueue(), .newest(1))  // the latest search replaces the one in flight
/// ```
public enum EffectQueuePolicy: Sendable, Hashable {
  /// Runs the newest `n` effects: starting one more cancels the oldest running one.
  case newest(Int)
  /// Runs the oldest `n` effects: one that arrives while `n` run is dropped, or suspended
  /// until one of them ends (see ``EffectQueueOverflow``).
  case oldest(Int, whenFull: EffectQueueOverflow)
}

/// What an ``EffectQueuePolicy/oldest(_:whenFull:)`` queue does with an effect that arrives
/// while it is full.
public enum EffectQueueOverflow: Sendable, Hashable {
  /// The effect never starts; the send's handle does not wait for it.
  case drop
  /// The effect waits, first in first out, and starts when a running one ends; the send's
  /// handle waits for it, and cancelling it (by identifier or handle) removes it from the
  /// queue.
  case suspend
}
