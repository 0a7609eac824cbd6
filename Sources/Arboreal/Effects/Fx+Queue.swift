extension Fx {
  /// The same effects, run in the queue `id` with `policy`: how many of the queue's effects
  /// run at once, and what happens to one more.
  ///
  /// ```swift
  /// case .upload(let photo):
  ///   return Fx { .uploaded(await environment.upload(photo)) }
  ///     .queue(UploadQueue(), .oldest(2, whenFull: .suspend))  // two at a time, in order
  /// ```
  ///
  /// - ``EffectQueuePolicy/newest(_:)``: starting an effect when `n` run cancels the oldest.
  /// - ``EffectQueuePolicy/oldest(_:whenFull:)`` with ``EffectQueueOverflow/drop``: an effect
  ///   that arrives when `n` run never starts.
  /// - ``EffectQueuePolicy/oldest(_:whenFull:)`` with ``EffectQueueOverflow/suspend``: it waits,
  ///   first in first out, until one of them ends; its send's handle waits for it, and
  ///   cancelling it by identifier or handle takes it out of the queue.
  ///
  /// Queue identifiers are scoped like cancellation identifiers: the queue of a child its parent
  /// forwards to is that child instance's own (see ``cancellable(id:cancelInFlight:)``). Every effect returned with the same `id` must use the same policy.
  ///
  /// - Parameters:
  ///   - id: The queue's identity.
  ///   - policy: How many effects run at once, and what happens to one more.
  /// - Returns: The queued effects.
  /// - Complexity: O(*n*) for *n* effects.
  public func queue(_ id: some Hashable & Sendable, _ policy: EffectQueuePolicy) -> Fx {
    queued(QueueSpec(id: CancelID(QueueKey(id: id)), policy: policy, spacing: nil))
  }

  /// The same effects, run in the queue `id` with `policy`, each starting at least `spacing`
  /// after the previous start in the queue, on `clock`.
  ///
  /// ```swift
  /// return Fx { .sent(await environment.send(message)) }
  ///   .queue(SendQueue(), .oldest(1, whenFull: .suspend), spacing: .seconds(1),
  ///     clock: environment.clock)  // one message at a time, at most one a second
  /// ```
  ///
  /// An effect that must wait counts as running in the queue while it waits.
  ///
  /// - Parameters:
  ///   - id: The queue's identity.
  ///   - policy: How many effects run at once, and what happens to one more.
  ///   - spacing: The least time between two starts.
  ///   - clock: The clock the spacing is measured on; take it from the environment.
  /// - Returns: The queued effects.
  /// - Complexity: O(*n*) for *n* effects.
  public func queue(
    _ id: some Hashable & Sendable, _ policy: EffectQueuePolicy, spacing: Duration,
    clock: any Clock<Duration>
  ) -> Fx {
    queued(
      QueueSpec(
        id: CancelID(QueueKey(id: id)), policy: policy,
        spacing: DelayStep(duration: spacing, clock: clock)))
  }

  private func queued(_ queue: QueueSpec) -> Fx {
    switch queue.policy {
    case .newest(let count), .oldest(let count, _):
      precondition(count > 0, "An effect queue runs at least one effect at a time.")
    }
    return Fx(
      effects: effects.map { effect in
        guard case .run(var work) = effect else { return effect }
        work.queue = queue
        work.cancelIDs.append(queue.id)
        return .run(work)
      })
  }
}
