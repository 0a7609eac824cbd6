import Synchronization

/// Package hook for `ArborealTesting`, not API: what a store whose effects run on a chosen
/// executor (``Store/effectExecutor``) tells a test about them, so that the test can run them
/// step by step and know when nothing more can happen.
///
/// ## Data
/// - `deliveries`: how many round trips from an effect's task to the store's actor are under
///   way (an action the effect sends, or its end), counted up on the effect's task before the
///   hop and down on the effect's task once it is back (`deliveryReturned()`), or on the actor
///   while a test store holds the delivery (quiet while held; counted up again when let go).
///   Not down on arrival: the way back can take more than one job of the actor (the runtime
///   re-enqueues a task that prefers a task executor at each switch inside an actor's
///   methods), and each of those would otherwise pass for quiet.
/// - `arrivals`: how many hops have arrived, ever: a test that sees it unchanged over many
///   turns knows that the effects run without delivering anything.
/// - `notes`: for each running effect (by its number) that is suspended on something the test
///   can name, what it waits for (a `TestClock` deadline); removed when the wait ends.
///
/// ## Invariants
/// - `deliveries` is never negative, and is zero whenever no round trip is under way: each
///   counts up once before the hop is enqueued and down once when the effect is back on its
///   own executor (or while held), even when the store is gone by then.
/// - `arrivals` counts up once each time a delivery reaches the store (or its mailbox, or is
///   held), whatever became of the store.
/// - An effect's note is present only while its task is suspended in the wait it names.
package final class EffectTrace: Sendable {
  private let deliveries = Atomic<Int>(0)
  private let arrived = Atomic<Int>(0)
  private let notes = Locked<[UInt64: String]>.make([:])
  /// The store's effect executor, when it counts its jobs.
  private let executor: (any JobCountingExecutor)?

  /// Creates the trace of a store whose effects run on `executor`.
  package init(executor: (any TaskExecutor)?) {
    self.executor = executor as? any JobCountingExecutor
  }

  /// Whether no hop is under way and the executor, if it counts its jobs, has none: the
  /// effects have gone as far as they can for now (see `Store.step(on:until:)` in
  /// `ArborealTesting` for the turn that confirms it).
  package var isQuiet: Bool {
    pendingDeliveries == 0 && (executor?.pendingJobs ?? 0) == 0
  }

  /// How many round trips to the store's actor are under way.
  package var pendingDeliveries: Int { deliveries.load(ordering: .acquiring) }

  /// How many deliveries have reached the store since the trace was made.
  package var arrivals: Int { arrived.load(ordering: .relaxed) }

  /// Counts up a hop about to be enqueued on the main actor (package: a test store counts the
  /// delivery it lets go on after holding it).
  package func deliveryBegan() {
    deliveries.add(1, ordering: .releasing)
  }

  /// Counts a delivery that reached the store's actor (or its mailbox): the round trip goes on
  /// until ``deliveryReturned()``.
  func deliveryArrived() {
    arrived.add(1, ordering: .relaxed)
  }

  /// Counts a delivery that arrived and that a test store holds: quiet until the hold lets it
  /// go on (and counts it up again with ``deliveryBegan()``).
  func deliveryHeld() {
    arrived.add(1, ordering: .relaxed)
    countDown()
  }

  /// Counts down a round trip: the effect's task is back from its hop, on its own executor
  /// (whose job count covers it from here).
  func deliveryReturned() {
    countDown()
  }

  private func countDown() {
    let left = deliveries.subtract(1, ordering: .releasing).newValue
    #if ARBOREAL_INTERNAL_CHECKS
      precondition(left >= 0, "EffectTrace: more deliveries ended than began")
    #else
      _ = left
    #endif
  }

  /// Notes that a `TestClock` advance runs the effects, until the matching ``endStepping()``
  /// (see ``JobCountingExecutor/beginStepping()``); nothing for an executor that does not
  /// count its jobs.
  package func beginStepping() {
    executor?.beginStepping()
  }

  /// Ends a step begun with ``beginStepping()``.
  package func endStepping() {
    executor?.endStepping()
  }

  /// What effect `effect` waits for, if a test clock said so.
  package func note(of effect: UInt64) -> String? {
    notes.withLock { $0[effect] }
  }

  fileprivate func setNote(_ note: String?, of effect: UInt64) {
    notes.withLock { $0[effect] = note }
  }
}

/// The effect whose task is running, as seen from inside it: a test clock names what the
/// effect waits for through it (``EffectWait/current``). Set only for the effects of a store
/// with a trace (see ``EffectTrace``).
package struct EffectWait: Sendable {
  /// The trace of the effect's store.
  package let trace: EffectTrace
  let effect: UInt64

  /// The running effect of the current task, in a store with a trace.
  @TaskLocal package static var current: EffectWait?

  /// Runs `body` (a suspension) with `note` as what the current effect waits for, then
  /// forgets it; runs `body` alone outside a traced effect.
  ///
  /// - Parameters:
  ///   - note: What the effect waits for: "a `TestClock` deadline at 2 seconds".
  ///   - body: The wait.
  package static func waiting<T, E: Error>(
    for note: @autoclosure () -> String,
    _ body: () async throws(E) -> T
  ) async throws(E) -> T {
    guard let current else { return try await body() }
    current.trace.setNote(note(), of: current.effect)
    defer { current.trace.setNote(nil, of: current.effect) }
    return try await body()
  }
}

/// Package hook for `ArborealTesting`'s `TestExecutor`, not API: an executor that tells how many
/// jobs it has received and not yet finished running.
package protocol JobCountingExecutor: TaskExecutor {
  /// How many jobs were received and have not finished running.
  var pendingJobs: Int { get }

  /// Notes that a `TestClock` advance runs the executor's effects, until the matching
  /// ``endStepping()``.
  func beginStepping()

  /// Ends a step begun with ``beginStepping()``.
  func endStepping()
}
