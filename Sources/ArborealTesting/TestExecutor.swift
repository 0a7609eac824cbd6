import Arboreal
import Dispatch
import Synchronization

/// An executor for effects under test: it runs each job it receives on the main thread, one at
/// a time, in the order it received them, so that the same test runs its effects in the same
/// order every time, however loaded the machine is.
///
/// A ``TestStore`` runs its effects on one of its own. Give one to a plain `Store` to step
/// through its effects in a test the same way, with ``Arboreal/Store/runEffects(fileID:filePath:line:column:)``:
///
/// ```swift
/// let store = Store(state: Feed(), environment: .mock)
/// store.effectExecutor = TestExecutor()
/// store.send(.refresh)
/// let pending = await store.runEffects()  // runs the effects until none can go on
/// #expect(pending.isEmpty)
/// #expect(store.state.items.count == 3)
/// ```
///
/// ## How it runs jobs
/// A job is a stretch of an effect's code between two suspensions. Each one this executor
/// receives goes to the main dispatch queue, the queue that also runs the main actor's jobs,
/// behind every job already there. The effects' code is not isolated to the main actor; it
/// only shares its thread, so an effect never runs while the test's own main-actor code does,
/// and two effects never run at once.
///
/// The executor of a ``TestStore`` goes further: it holds its jobs back between the test's
/// steps, and hands them to the main queue only while a step (a `send`, a `receive`, a
/// `TestClock` advance) runs the effects. An effect therefore never gets ahead of the test
/// while the test's own code waits on something else.
///
/// An effect that calls an actor, sleeps on a real clock or waits for I/O leaves this executor
/// for that wait: its next job arrives whenever the outside work ends, which no test controls.
/// The test store reports such an effect as waiting on work outside the test, unless the test
/// opted into waiting for it (``TestStore/timeout``).
public final class TestExecutor: TaskExecutor, JobCountingExecutor {
  /// How many jobs were received and have not finished running.
  private let queued = Atomic<Int>(0)
  /// The gate in front of the main queue (see `Gate`).
  private let gate: Mutex<Gate>

  /// Whether jobs go on to the main queue, and those held back while they do not.
  ///
  /// ## Data
  /// - `holdsBetweenSteps`: whether jobs are held back when no step runs (a test store's
  ///   executor); false for an executor made with ``TestExecutor/init()``.
  /// - `steps`: how many steps run the effects now (nested: a clock's advance inside a
  ///   store's step).
  /// - `paused`: whether the step that runs now has what it waited for (see
  ///   ``TestExecutor/pauseStepping()``): closed until the step ends.
  /// - `held`: the jobs held back, each with its number in the order of arrival, in that
  ///   order: those received while closed, and those that were on the main queue when it
  ///   closed (a job looks at the gate again when its turn comes).
  /// - `received`: how many jobs were received, ever; the next job's number.
  ///
  /// ## Invariants
  /// - `held` is empty whenever the gate is open, and sorted by number.
  /// - Jobs run in the order they were received: the held ones are posted under the lock,
  ///   before any job received after the gate opened, and a posted job that finds the gate
  ///   closed goes back among the held ones in its place.
  /// - No job runs while the gate is closed.
  private struct Gate {
    var holdsBetweenSteps: Bool
    var steps = 0
    var paused = false
    var held: [(number: UInt64, job: UnownedJob)] = []
    var received: UInt64 = 0

    /// Holds `job` back, in its place by number.
    mutating func hold(_ job: UnownedJob, number: UInt64) {
      var index = held.endIndex
      while index > held.startIndex, held[index - 1].number > number { index -= 1 }
      held.insert((number, job), at: index)
    }

    var isOpen: Bool { !holdsBetweenSteps || (steps > 0 && !paused) }
  }

  /// Creates an executor with no job, which hands each job to the main queue as it arrives.
  public init() {
    gate = Mutex(Gate(holdsBetweenSteps: false))
  }

  /// Creates an executor that holds its jobs back while no step runs: a test store's.
  init(holdingJobsBetweenSteps: Bool) {
    gate = Mutex(Gate(holdsBetweenSteps: holdingJobsBetweenSteps))
  }

  /// Receives a job: it runs on the main thread after every job enqueued there before it.
  ///
  /// - Parameter job: The job.
  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queued.add(1, ordering: .releasing)
    gate.withLock { gate in
      let number = gate.received
      gate.received += 1
      if gate.isOpen {
        post(job, number: number)
      } else {
        gate.hold(job, number: number)
      }
    }
  }

  /// Runs `job` on the main queue, behind everything there, unless the gate has closed by the
  /// time its turn comes: then it is held back again, in its place.
  private func post(_ job: UnownedJob, number: UInt64) {
    DispatchQueue.main.async {
      let runs = self.gate.withLock { gate in
        if gate.isOpen { return true }
        gate.hold(job, number: number)
        return false
      }
      guard runs else { return }
      job.runSynchronously(on: self.asUnownedTaskExecutor())
      self.queued.subtract(1, ordering: .releasing)
    }
  }

  /// Posts the held jobs, oldest first; called under the lock, with the gate open.
  private func release(_ gate: inout Gate) {
    for held in gate.held { post(held.job, number: held.number) }
    gate.held.removeAll()
  }

  /// How many jobs were received and have not finished running (held back ones included):
  /// zero when no effect on this executor can go on without something else happening first.
  public var pendingJobs: Int { queued.load(ordering: .acquiring) }

  /// Opens the gate for a step: the held jobs go to the main queue, in order, and so do the
  /// jobs received until the matching ``endStepping()``.
  package func beginStepping() {
    gate.withLock { gate in
      gate.steps += 1
      gate.paused = false
      release(&gate)
    }
  }

  /// Ends a step begun with ``beginStepping()``.
  package func endStepping() {
    gate.withLock { gate in
      precondition(gate.steps > 0, "TestExecutor: a step ended that did not begin")
      gate.steps -= 1
    }
  }

  /// Holds back the jobs received from now until the step ends: the step has what it waited
  /// for (a test store's action to receive), and the effects must go no further.
  ///
  /// Called where the step's condition comes true (on the main actor, as an action arrives),
  /// not where the step next looks at it: the effects run between two of its looks, and would
  /// otherwise go on as far as the scheduler lets them.
  func pauseStepping() {
    gate.withLock { $0.paused = true }
  }

  /// Opens the gate for good: what a test store does when it goes, so that its cancelled
  /// effects run to their end instead of staying held.
  func stopHolding() {
    gate.withLock { gate in
      gate.holdsBetweenSteps = false
      release(&gate)
    }
  }
}
