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
  /// outside the executor (an actor, a real clock, I/O). The actions the effects deliver are
  /// handled as they arrive, as in the app.
  ///
  /// A store whose ``effectExecutor`` is not a ``TestExecutor`` fails the test: its effects
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
  public func runEffects(
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
    _ = await step(on: executor) { self.hasNoEffects }
    return pendingEffectLines
  }

  /// Runs the jobs of `executor`, and the hops of the effects to the main actor, until `done`
  /// holds or nothing can go on; returns `done()`.
  ///
  /// Both kinds of work wait on the main dispatch queue, and the caller runs on the main actor:
  /// each `Task.yield()` puts the caller behind everything queued, so when it resumes those
  /// have run. The loop ends when no job and no hop is counted: then only something outside
  /// the executor (or the test) can make an effect go on.
  func step(on executor: TestExecutor, until done: () -> Bool) async -> Bool {
    while !done() {
      guard executor.pendingJobs > 0 || pendingDeliveries > 0 else { return false }
      await Task.yield()
    }
    return true
  }

  /// One line per running effect, oldest first, with what it waits for: a test clock's
  /// deadline when one said so, otherwise something outside the executor.
  var pendingEffectLines: [String] {
    runningEffects.map { effect in
      "\(effect.description), waiting for "
        + (effect.waitingFor
          ?? "a continuation or for work outside the test executor (an actor, a real clock, "
          + "I/O)")
    }
  }
}
