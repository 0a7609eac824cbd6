import Arboreal
import ArborealTracking

/// A clock whose time moves only when a test advances it: effects that wait on it run when the
/// test says so, in the order of their deadlines, without the test sleeping.
///
/// Give it to the model's environment in place of `ContinuousClock`, then advance it:
///
/// ```swift
/// let clock = TestClock()
/// let store = TestStore(state: Search(), environment: .init(clock: clock, search: { [$0] }))
/// await store.send(.queryChanged("sw")) { #expect($0.query == "sw") }
/// await store.send(.queryChanged("swift")) { #expect($0.query == "swift") }
/// await clock.advance(by: .milliseconds(300))
/// await store.receive(.resultsLoaded(["swift"])) { #expect($0.results == ["swift"]) }
/// ```
///
/// ## What advancing runs
/// ``advance(by:fileID:filePath:line:column:)`` moves the time forward to each deadline that
/// falls due, in order (ties in the order the waits began), wakes what waits for it, and goes
/// on to the next deadline only once the woken work has *settled*:
/// - a wait booked by `Fx`'s time operators (`delay`, `debounce`, `throttle`) settles when its
///   effect has delivered its first action (to a `TestStore`: the action waits to be received),
///   has ended, or was cancelled. Those operators book their wait when the update returns them,
///   so advancing right after a `send` never misses it.
/// - a plain ``sleep(until:tolerance:)`` (an effect calling `clock.sleep(for:)` itself) settles
///   as soon as it is woken, and is booked only when the effect's task reaches it.
///
/// Before it fires each deadline, and after, advancing also lets the effects that run on a
/// ``TestExecutor`` (every effect of a ``TestStore``) and have waited on this clock go as far
/// as they can: so an effect woken by one deadline has booked its next wait before the clock
/// moves on, and a loop of plain sleeps ticks once per second of advanced time, as it would
/// in real time. Effects on other executors are not waited for: with a plain `Store` without
/// a test executor, prefer the operators.
///
/// Work that falls due while advancing (an action's new delay) runs in the same advance if its
/// deadline is not past the target. Time never moves backward.
///
/// - Note: Only a test's code should advance the clock; advancing it from two tasks at once
///   is allowed but interleaves their wake-ups.
public final class TestClock: Clock, Sendable {
  /// A point in a test clock's time: a duration since the clock's start.
  public struct Instant: InstantProtocol, Sendable, Hashable, Comparable {
    /// The time since the clock's start.
    public var offset: Duration

    /// Creates an instant `offset` after the clock's start.
    ///
    /// - Parameter offset: The time since the start.
    public init(offset: Duration = .zero) {
      self.offset = offset
    }

    /// The instant `duration` later.
    ///
    /// - Parameter duration: The time to add (negative for earlier).
    /// - Returns: The later instant.
    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    /// The time from this instant to `other`.
    ///
    /// - Parameter other: The other instant.
    /// - Returns: `other` minus this instant.
    public func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    /// Whether `lhs` comes before `rhs`.
    ///
    /// - Parameters:
    ///   - lhs: An instant.
    ///   - rhs: Another instant.
    /// - Returns: True when `lhs` is earlier.
    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }
  }

  private let state: Locked<ClockState>

  /// Creates a clock at `now`.
  ///
  /// - Parameter now: The starting time; the clock's start by default.
  public init(now: Instant = Instant()) {
    state = Locked.make(ClockState(now: now))
  }

  /// The current time; it changes only through ``advance(by:fileID:filePath:line:column:)``
  /// and ``advance(to:fileID:filePath:line:column:)``.
  public var now: Instant { state.withLock { $0.now } }

  /// The smallest step the clock tells apart: any, it is exact.
  public var minimumResolution: Duration { .zero }

  /// How many waits are booked and not yet due: what the next advances can run.
  public var pendingCount: Int { state.withLock { $0.wakes.count { !$0.value.isFired } } }

  /// Suspends until the clock has been advanced to `deadline`; returns at once when it is
  /// there already.
  ///
  /// - Parameters:
  ///   - deadline: The instant to wait for.
  ///   - tolerance: Ignored: the clock is exact.
  /// - Throws: `CancellationError` when the task is cancelled first.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = state.withLock { $0.book(at: deadline, settlesWhenFired: true) }
    noteWaiter()
    try await EffectWait.waiting(for: describe(deadline, waitedBy: "`sleep`")) {
      try await wait(for: id)
    }
  }

  /// `a TestClock deadline at 2.0 seconds (by a `delay`; the clock is at 0.0 seconds)`: what a
  /// test store says an effect waits for.
  fileprivate func describe(_ deadline: Instant, waitedBy waiter: String) -> String {
    "a TestClock deadline at \(deadline.offset) (\(waiter); the clock is at \(now.offset))"
  }

  /// The deadline of wait `id`, if it is booked.
  fileprivate func deadline(of id: UInt64) -> Instant? {
    state.withLock { $0.wakes[id]?.deadline }
  }

  // The two `advance` forms are deliberate twins: a public call's caller location is four
  // parameters, repeated by every form; `advance(by:)` only computes the deadline.
  /// Moves the time forward by `duration`, running in order everything that falls due.
  ///
  /// See "What advancing runs". Returns once every wait due by the new time has been woken and
  /// has settled.
  ///
  /// Fails the test, rather than hang it, when the effects never settle: an effect that loops
  /// without waiting on this clock.
  ///
  /// - Parameters:
  ///   - duration: How far to move; not negative.
  ///   - fileID: Where a failure is reported; the caller's by default.
  ///   - filePath: Where a failure is reported; the caller's by default.
  ///   - line: Where a failure is reported; the caller's by default.
  ///   - column: Where a failure is reported; the caller's by default.
  /// - Complexity: O(*w* log *w*) per wait woken, for *w* waits booked.
  public func advance(
    by duration: Duration,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    precondition(duration >= .zero, "TestClock.advance(by:) cannot move time backward.")
    await advance(
      to: now.advanced(by: duration), fileID: fileID, filePath: filePath, line: line,
      column: column)
  }

  /// Moves the time forward to `deadline`, running in order everything that falls due; does
  /// nothing to the time when `deadline` is not later than ``now``.
  ///
  /// Fails the test, rather than hang it, when the effects never settle: an effect that loops
  /// without waiting on this clock.
  ///
  /// - Parameters:
  ///   - deadline: The new time.
  ///   - fileID: Where a failure is reported; the caller's by default.
  ///   - filePath: Where a failure is reported; the caller's by default.
  ///   - line: Where a failure is reported; the caller's by default.
  ///   - column: Where a failure is reported; the caller's by default.
  /// - Complexity: O(*w* log *w*) per wait woken, for *w* waits booked.
  public func advance(
    to deadline: Instant,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await advance(
      to: deadline,
      at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// `advance(to:)`, failing at `location`.
  ///
  /// - Returns: False when the effects never settled (the test failed).
  @discardableResult
  private func advance(to deadline: Instant, at location: CallerLocation) async -> Bool {
    // While it advances, a test store lets the effects that wait on this clock deliver all
    // that falls due, without holding any of them behind an action still to receive.
    var stepping = Stepping()
    defer { stepping.end() }
    guard await settleEffects(stepping: &stepping, at: location) else { return false }
    while let (id, waiter) = state.withLock({ $0.fireNext(dueBy: deadline) }) {
      waiter?.resume()
      await settled(id)
      guard await settleEffects(stepping: &stepping, at: location) else { return false }
    }
    state.withLock { $0.now = max($0.now, deadline) }
    return true
  }

  /// The stores whose effects an advance runs (see `JobCountingExecutor.beginStepping()`):
  /// each one that waits on the clock, from the first time the advance sees it.
  private struct Stepping {
    private var traces: [ObjectIdentifier: EffectTrace] = [:]

    /// Begins a step for each of `traces` not stepped yet.
    mutating func include(_ traces: [EffectTrace]) {
      for trace in traces where self.traces[ObjectIdentifier(trace)] == nil {
        self.traces[ObjectIdentifier(trace)] = trace
        trace.beginStepping()
      }
    }

    /// Ends every step begun.
    func end() {
      for trace in traces.values { trace.endStepping() }
    }
  }

  /// Runs the main actor until the effects on a test executor that ever waited on this clock
  /// have gone as far as they can (see `Settling`). Gives up after `StepOutcome.busyTurns`
  /// turns (an effect that never waits), failing the test at `location`.
  ///
  /// - Returns: Whether the effects settled.
  private func settleEffects(
    stepping: inout Stepping, at location: CallerLocation
  ) async -> Bool {
    var settling = Settling()
    for _ in 0..<StepOutcome.busyTurns {
      let traces = state.withLock { $0.liveTraces() }
      stepping.include(traces)
      if traces.isEmpty || settling.hasSettled(quiet: traces.allSatisfy(\.isQuiet)) {
        return true
      }
      await MainActor.run {}
    }
    reportFailure(
      "TestClock.advance: the effects ran \(StepOutcome.busyTurns) turns on the test executor "
        + "without settling: an effect loops without waiting on this clock (a loop on a clock "
        + "that does not wait, or around `Task.yield()`). The clock stays at \(now.offset).",
      at: location)
    return false
  }

  /// Remembers the store of the effect that is about to wait on this clock.
  fileprivate func noteWaiter() {
    guard let trace = EffectWait.current?.trace else { return }
    state.withLock { $0.addTrace(trace) }
  }

  /// Runs every booked wait, advancing the time to the last deadline.
  ///
  /// Fails the test, rather than hang it, when the effects never settle.
  ///
  /// - Parameters:
  ///   - fileID: Where a failure is reported; the caller's by default.
  ///   - filePath: Where a failure is reported; the caller's by default.
  ///   - line: Where a failure is reported; the caller's by default.
  ///   - column: Where a failure is reported; the caller's by default.
  public func run(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    while let last = state.withLock({ $0.wakes.values.filter { !$0.isFired }.map(\.deadline).max() }
    ) {
      guard await advance(to: last, at: location) else { return }
    }
  }

  // MARK: Waits

  /// Suspends until wait `id` is fired, or throws when the task is cancelled first.
  fileprivate func wait(for id: UInt64) async throws {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let outcome = state.withLock { $0.suspend(id, continuation) }
        switch outcome {
        case .suspended: break
        case .fired: continuation.resume()
        case .cancelled: continuation.resume(throwing: CancellationError())
        }
      }
    } onCancel: {
      let waiter = state.withLock { $0.cancel(id) }
      waiter?.resume(throwing: CancellationError())
    }
  }

  /// Marks wait `id` settled, resuming the advance waiting for it.
  fileprivate func settle(_ id: UInt64) {
    state.withLock { $0.settle(id) }?.resume()
  }

  /// Suspends until wait `id` has settled.
  private func settled(_ id: UInt64) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      if state.withLock({ $0.awaitSettling(id, continuation) }) { continuation.resume() }
    }
  }
}

extension TestClock: ManualClock {
  package func book(after duration: Duration) -> any ManualWake {
    noteWaiter()
    let id = state.withLock { $0.book(at: $0.now.advanced(by: duration), settlesWhenFired: false) }
    return TestClockWake(clock: self, id: id)
  }
}

/// A wait booked by `Fx`'s time operators; releasing it settles it (its effect was dropped or
/// ended).
private final class TestClockWake: ManualWake {
  let clock: TestClock
  let id: UInt64

  init(clock: TestClock, id: UInt64) {
    self.clock = clock
    self.id = id
  }

  deinit {
    clock.settle(id)
  }

  func wait() async throws {
    try Task.checkCancellation()
    clock.noteWaiter()
    guard let deadline = clock.deadline(of: id) else { return try await clock.wait(for: id) }
    try await EffectWait.waiting(
      for: clock.describe(deadline, waitedBy: "a time operator of `Fx`")
    ) {
      try await clock.wait(for: id)
    }
  }

  func settle() {
    clock.settle(id)
  }
}

/// The state of a ``TestClock``, behind its lock: a pure state machine whose methods return the
/// continuations to resume after the lock is released.
///
/// ## Invariants
/// - `wakes` holds every booked wait not yet settled (a settled wait is removed).
/// - A fired wait's `waiter` is nil (it was resumed or never suspended); a wait that is not
///   fired has no `settling` continuation (nobody awaits its settling before it fires).
/// - Identifiers come from one counter and are never reused: a stale one names nothing.
/// - `cancelledEarly` holds the waits whose task was cancelled after booking them and before
///   suspending (they are no longer in `wakes`); the task's `suspend` takes its id out and
///   throws, so a cancelled sleep never returns as if it had fired.
private struct ClockState {
  struct Wake {
    let deadline: TestClock.Instant
    /// Settles as soon as it fires (a plain `sleep`, not an operator's wait).
    let settlesWhenFired: Bool
    var isFired = false
    var waiter: CheckedContinuation<Void, any Error>?
    var settling: CheckedContinuation<Void, Never>?
  }

  enum SuspendOutcome {
    case suspended, fired, cancelled
  }

  var now: TestClock.Instant
  var wakes: [UInt64: Wake] = [:]
  private var cancelledEarly: Set<UInt64> = []
  private var nextID: UInt64 = 1
  /// The traces of the stores whose effects waited on the clock on a test executor, held
  /// weakly (a store's trace lives as long as the store).
  private var traces: [ObjectIdentifier: WeakTrace] = [:]

  struct WeakTrace {
    weak var trace: EffectTrace?
  }

  mutating func addTrace(_ trace: EffectTrace) {
    traces[ObjectIdentifier(trace)] = WeakTrace(trace: trace)
  }

  /// The traces still alive; forgets the others.
  mutating func liveTraces() -> [EffectTrace] {
    traces = traces.filter { $0.value.trace != nil }
    return traces.values.compactMap(\.trace)
  }

  init(now: TestClock.Instant) {
    self.now = now
  }

  mutating func book(at deadline: TestClock.Instant, settlesWhenFired: Bool) -> UInt64 {
    let id = nextID
    nextID += 1
    wakes[id] = Wake(
      deadline: deadline, settlesWhenFired: settlesWhenFired, isFired: deadline <= now)
    return id
  }

  /// Fires the earliest wait due by `deadline` (the first booked among equals), moving the time
  /// to its deadline; returns it and the task to resume, or nil when none is due.
  mutating func fireNext(
    dueBy deadline: TestClock.Instant
  ) -> (UInt64, CheckedContinuation<Void, any Error>?)? {
    let due = wakes.filter { !$0.value.isFired && $0.value.deadline <= deadline }
    guard
      let (id, wake) = due.min(by: { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) })
    else { return nil }
    now = max(now, wake.deadline)
    wakes[id]!.isFired = true
    wakes[id]!.waiter = nil
    if wake.settlesWhenFired { wakes[id] = nil }
    return (id, wake.waiter)
  }

  mutating func suspend(
    _ id: UInt64, _ continuation: CheckedContinuation<Void, any Error>
  ) -> SuspendOutcome {
    if cancelledEarly.remove(id) != nil { return .cancelled }
    guard let wake = wakes[id] else {
      // Settled (its owner was released) or fired-and-settled before the task got here: a
      // plain sleep fired already; an operator's wait cannot be waited on after settling.
      return .fired
    }
    if wake.isFired {
      if wake.settlesWhenFired { wakes[id] = nil }
      return .fired
    }
    wakes[id]!.waiter = continuation
    return .suspended
  }

  /// Drops a wait whose task was cancelled; returns its suspended task, if any.
  mutating func cancel(_ id: UInt64) -> CheckedContinuation<Void, any Error>? {
    guard let wake = wakes[id], !wake.isFired else { return nil }
    wakes[id] = nil
    if wake.waiter == nil { cancelledEarly.insert(id) }
    return wake.waiter
  }

  /// Removes a wait; returns the advance waiting for it to settle, if any.
  mutating func settle(_ id: UInt64) -> CheckedContinuation<Void, Never>? {
    wakes.removeValue(forKey: id)?.settling
  }

  /// Registers the advance waiting for `id` to settle; true when it has settled already.
  mutating func awaitSettling(_ id: UInt64, _ continuation: CheckedContinuation<Void, Never>)
    -> Bool
  {
    guard wakes[id] != nil else { return true }
    wakes[id]!.settling = continuation
    return false
  }
}
