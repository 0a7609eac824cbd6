/// The queue policy of a store's effects (`Fx.queue(_:_:)`): whether an effect about to start
/// may start, which running effects make room for it, which effects wait for room, and when a
/// queue with spacing may start its next one.
///
/// A pure state machine, beside ``EffectTable``: no tasks, no actor. The store asks it before
/// starting an effect that runs in a queue (``admit(_:in:running:)``), after an effect of a
/// queue ends (``nextResumable(running:)``) and when effects are cancelled
/// (``removeSuspended(where:)``), and does what it answers. `Work` is what it keeps of a
/// waiting effect; tests drive it with plain values.
///
/// ## Data
/// - `suspended`: the effects waiting for room in an `.oldest(n, whenFull: .suspend)` queue,
///   first in first out, each with the group it holds.
/// - `lastStarts`: for each queue with spacing, when it last started (or will start) an
///   effect, on the queue's clock.
///
/// ## Invariants
/// 1. Every suspended effect runs in a queue whose policy is `.oldest(_, whenFull: .suspend)`.
/// 2. `hasSuspended == !suspended.isEmpty`.
/// 3. An effect arriving at a queue that has suspended effects waits behind them, even when a
///    running effect of the queue has just ended: within one queue, effects start in the order
///    they arrived.
///
/// ``checkInvariants()`` asserts 1 and 2 (built with `-DARBOREAL_INTERNAL_CHECKS`).
struct EffectQueues<Work> {
  /// An effect waiting for room, with the group whose hold it keeps.
  struct Suspended {
    let work: Work
    let queue: QueueSpec
    let group: GroupID
  }

  /// What to do with an effect about to start in a queue.
  enum Admission: Equatable {
    /// Start it, after `delay` when the queue's spacing asks for one.
    case start(delay: Duration?)
    /// Cancel these running effects of the queue (oldest first), then start it after `delay`.
    case startCancelling([EffectID], delay: Duration?)
    /// Never start it: the queue is full and drops.
    case drop
    /// It now waits in the queue (the store keeps its hold on the group).
    case suspend
  }

  private(set) var suspended: [Suspended] = []
  /// `!suspended.isEmpty`, as a plain flag the store's effect paths test without generic
  /// metadata.
  private(set) var hasSuspended = false
  private var lastStarts: [CancelID: QueueStart] = [:]

  /// Decides what happens to an effect about to start in `queue`.
  ///
  /// - Parameters:
  ///   - work: The effect, kept when it must wait.
  ///   - queue: Its queue.
  ///   - group: The group it starts in; a suspended effect keeps the caller's hold on it.
  ///   - running: The queue's running effects, oldest first.
  /// - Returns: The decision.
  mutating func admit(
    _ work: Work, in queue: QueueSpec, group: GroupID, running: [EffectID]
  ) -> Admission {
    var cancelling: [EffectID] = []
    switch queue.policy {
    case .newest(let count):
      cancelling = Array(running.prefix(max(0, running.count - count + 1)))
    case .oldest(let count, .drop):
      if running.count >= count { return .drop }
    case .oldest(let count, .suspend):
      let waiting = hasSuspended && suspended.contains { $0.queue.id == queue.id }
      if running.count >= count || waiting {
        suspended.append(Suspended(work: work, queue: queue, group: group))
        hasSuspended = true
        checkInvariants()
        return .suspend
      }
    }
    let delay = bookStart(in: queue)
    return cancelling.isEmpty ? .start(delay: delay) : .startCancelling(cancelling, delay: delay)
  }

  /// Takes the first suspended effect whose queue has room now, and books its start.
  ///
  /// - Parameter running: How many effects of a queue run now.
  /// - Returns: The effect, its group (whose hold passes to the caller) and its delay; nil
  ///   when no queue has room.
  /// - Complexity: O(*s*) for *s* suspended effects.
  mutating func nextResumable(
    running: (CancelID) -> Int
  ) -> (work: Work, group: GroupID, delay: Duration?)? {
    guard hasSuspended else { return nil }
    for index in suspended.indices {
      let next = suspended[index]
      guard case .oldest(let count, _) = next.queue.policy, running(next.queue.id) < count
      else { continue }
      suspended.remove(at: index)
      hasSuspended = !suspended.isEmpty
      checkInvariants()
      return (next.work, next.group, bookStart(in: next.queue))
    }
    return nil
  }

  /// Takes the suspended effects that match out of their queues.
  ///
  /// - Returns: The groups whose holds the caller releases.
  /// - Complexity: O(*s*) for *s* suspended effects.
  mutating func removeSuspended(where matches: (Suspended) -> Bool) -> [GroupID] {
    guard hasSuspended else { return [] }
    var released: [GroupID] = []
    suspended.removeAll { item in
      guard matches(item) else { return false }
      released.append(item.group)
      return true
    }
    hasSuspended = !suspended.isEmpty
    checkInvariants()
    return released
  }

  /// Records a start in a queue with spacing, and returns how long the start waits.
  private mutating func bookStart(in queue: QueueSpec) -> Duration? {
    guard let spacing = queue.spacing else { return nil }
    let (wait, record) = QueueStart.next(after: lastStarts[queue.id], spacing: spacing)
    lastStarts[queue.id] = record
    return wait > .zero ? wait : nil
  }

  #if ARBOREAL_INTERNAL_CHECKS
    /// Asserts invariants 1 and 2 (built with `-DARBOREAL_INTERNAL_CHECKS`). O(*s*) for *s*
    /// suspended effects.
    @inline(never)
    func checkInvariants() {
      precondition(hasSuspended == !suspended.isEmpty, "EffectQueues: hasSuspended is stale")
      for item in suspended {
        guard case .oldest(_, .suspend) = item.queue.policy else {
          preconditionFailure("EffectQueues: an effect waits in a queue that does not suspend")
        }
      }
    }
  #else
    /// Does nothing: the checks are built with `-DARBOREAL_INTERNAL_CHECKS`.
    @inline(__always)
    func checkInvariants() {}
  #endif
}
