import Arboreal

extension Store {
  /// Runs the store's effects on its ``TestExecutor`` until none can go on, and returns those
  /// still running, each named with what it waits for: the way to step through a plain
  /// `Store`'s effects in a test, as a ``TestStore`` does.
  ///
  /// ```swift
  /// let store = Store(state: Feed(), environment: .mock)
  /// store.effectExecutor = TestExecutor()
  /// store.send(.refresh)
  /// let pending = await store.runEffects()
  /// #expect(pending.isEmpty)
  /// ```
  ///
  /// It never waits on the wall clock: it returns as soon as every effect has ended or waits
  /// for something only the test can do (advance a `TestClock`, send an action) or for work
  /// outside the executor (a detached task, a real clock, I/O). The actions the effects
  /// deliver are handled as they arrive, as in the app.
  ///
  /// A store whose `effectExecutor` is not a ``TestExecutor`` fails the test: its effects
  /// run on their own, and nothing tells when they can go on.
  ///
  /// - Parameters:
  ///   - fileID: Where a failure is reported; the caller's by default.
  ///   - filePath: Where a failure is reported; the caller's by default.
  ///   - line: Where a failure is reported; the caller's by default.
  ///   - column: Where a failure is reported; the caller's by default.
  /// - Returns: One line per effect still running, oldest first:
  ///   `effect #3 (cancellable by "timer"), waiting for a TestClock deadline at 1.0 seconds`.
  @discardableResult
  nonisolated(nonsending) public func runEffects(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> [String] {
    guard let executor = effectExecutor as? TestExecutor else {
      reportFailure(
        "runEffects() needs a store whose effects run on a test executor: set "
          + "`store.effectExecutor = TestExecutor()` before sending.",
        at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
      return pendingEffectLines
    }
    let location = CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    switch await step(on: executor, until: { self.hasNoEffects }) {
    case .busy:
      reportFailure(StepOutcome.busyMessage("runEffects()"), at: location)
    case .flooded:
      reportFailure(
        StepOutcome.floodMessage("runEffects()", effects: pendingEffectLines), at: location)
    case .done, .idle:
      break
    }
    return pendingEffectLines
  }

  /// Runs the jobs of `executor`, and the hops of the effects to the main actor, until `done`
  /// holds, nothing can go on, the effects have run ``StepOutcome/busyTurns`` turns in a row
  /// without delivering anything (an effect that loops without waiting), or they have
  /// delivered ``StepOutcome/floodLimit`` actions in this step (an effect that loops on a
  /// clock that does not wait): each of which would otherwise hang the test.
  ///
  /// The caller runs in the store's isolation. On the main actor, both kinds of work wait on
  /// the main dispatch queue, and each `Task.yield()` puts the caller behind everything queued,
  /// so when it resumes those have run. On another actor the executor's jobs run on the main
  /// thread meanwhile, and its counts include a job while it runs, so that a count of zero
  /// means no job is queued or running; the hops to the store's actor queue behind the caller.
  /// A store made outside any actor has no hops: what its effects deliver waits in its mailbox,
  /// which each turn empties and which counts as work until it is empty. Nothing can go on
  /// once they have settled (see ``Settling``): then only something outside the executor (or
  /// the test) can make an effect go on.
  nonisolated(nonsending) func step(
    on executor: TestExecutor, until done: () -> Bool
  ) async -> StepOutcome {
    var quietTurns = 0
    let firstArrival = deliveryArrivals
    var arrivals = firstArrival
    var settling = Settling()
    while true {
      handleDelivered()
      if done() { break }
      // In this order: a job posts its mail before it ends, so once no job is counted, the
      // mail it posted is seen.
      let quiet = executor.pendingJobs == 0 && pendingDeliveries == 0 && !hasPendingMail
      if settling.hasSettled(quiet: quiet) {
        return .idle
      }
      await turn()
      if deliveryArrivals != arrivals {
        arrivals = deliveryArrivals
        quietTurns = 0
        if arrivals - firstArrival >= StepOutcome.floodLimit { return .flooded }
      } else {
        quietTurns += 1
        if quietTurns >= StepOutcome.busyTurns { return .busy }
      }
    }
    return .done
  }

  /// One turn of the work a step waits for. On the main actor, a `Task.yield()`: the effects'
  /// jobs and their hops share the main queue with the caller, which resumes behind them. In
  /// any other isolation a yield would come back at once while the jobs wait their turn on the
  /// main queue (behind other tests' work), and ten thousand such turns would pass for an
  /// effect that never delivers: so a turn goes once round the main queue (`MainActor.run`),
  /// behind every job queued there, and back, behind every hop queued to the caller's actor.
  nonisolated(nonsending) func turn() async {
    if isOnTheMainActor {
      await Task.yield()
    } else {
      await MainActor.run {}
    }
  }

  /// One line per running effect, oldest first, with what it waits for: a test clock's
  /// deadline when one said so, otherwise something outside the executor.
  var pendingEffectLines: [String] {
    pendingEffectLines { _ in "" }
  }

  /// `pendingEffectLines`, each effect's description followed by what `note` adds for it
  /// (by its number).
  func pendingEffectLines(noting note: (UInt64) -> String) -> [String] {
    runningEffects.map { effect in
      "\(effect.description)\(note(effect.number)), waiting for "
        + (effect.waitingFor
          ?? "a continuation or for work outside the test executor (a detached task, an "
          + "actor with work from elsewhere, a real clock, I/O)")
    }
  }
}

/// When effects on a test executor can go no further: nothing counted (no job of the executor,
/// no hop of theirs to the main actor) at the start of three turns of the main actor in a row.
/// Both `Store.step(on:until:)` and `TestClock.advance` stop on it.
///
/// One quiet turn is not enough. Two more confirm it: an effect may have hopped to the main
/// actor for a reason of its own (`MainActor.run`), which no count sees; that hop is queued
/// before the first turn, and its way back to the executor is a counted job. The third covers
/// an await of a continuation on the main actor: in a task that prefers an executor (every
/// effect's on a test executor), it goes once more round the main queue before its body runs.
struct Settling {
  private var quietTurns = 0

  /// Notes whether nothing was counted at the start of this turn, and answers whether that
  /// makes three turns in a row.
  mutating func hasSettled(quiet: Bool) -> Bool {
    guard quiet else {
      quietTurns = 0
      return false
    }
    quietTurns += 1
    return quietTurns == 3
  }
}

/// How a run of the effects on a test executor ended.
enum StepOutcome: Equatable {
  /// What the caller waited for happened.
  case done
  /// No job and no hop is left: only the test, or work outside the executor, can make an
  /// effect go on.
  case idle
  /// The effects ran ``busyTurns`` turns in a row without delivering an action or ending.
  case busy
  /// The effects delivered ``floodLimit`` actions (or ends) in one step, and could go on.
  case flooded

  /// How many turns in a row without a delivery make the effects busy: far more than any
  /// chain of hops a test makes between two deliveries.
  static var busyTurns: Int { limits.busyTurns }

  /// How many of the effects' hops to the main actor (actions and ends) in one step make a
  /// flood: far more than a test receives in one step, few enough that an effect looping on
  /// a clock that does not wait fails the step in a second or two, even under a sanitizer.
  static var floodLimit: Int { limits.floodLimit }

  /// The two budgets, 10,000 each. The package's own tests of them bind smaller ones (a turn
  /// of the main actor can take tens of milliseconds on a loaded machine under a sanitizer),
  /// so that proving a budget holds does not cost minutes; the logic is the same.
  @TaskLocal static var limits = Limits(busyTurns: 10_000, floodLimit: 10_000)

  /// The budgets of a step: see ``busyTurns`` and ``floodLimit``.
  struct Limits: Sendable {
    /// See ``StepOutcome/busyTurns``.
    var busyTurns: Int
    /// See ``StepOutcome/floodLimit``.
    var floodLimit: Int
  }

  /// The failure for `.busy`, for the call named `call`.
  static func busyMessage(_ call: String) -> String {
    "\(call): the effects ran \(busyTurns) turns on the test executor without delivering an "
      + "action or ending: an effect loops without waiting for anything (a busy loop around "
      + "`Task.yield()`?). Make it wait on a clock from the environment."
  }

  /// The failure for `.flooded`, for the call named `call`, with a line for each effect that
  /// delivered (or for each effect still running).
  static func floodMessage(_ call: String, effects: [String]) -> String {
    "\(call): the effects delivered \(floodLimit) actions in one step, and go on delivering: "
      + "an effect loops without waiting for anything the test controls (a loop on a clock "
      + "that does not wait, such as a sleep that only yields). Give it a `TestClock` and "
      + "advance it, or end the loop in the test.\n"
      + effects.map { "  \($0)" }.joined(separator: "\n")
  }
}
