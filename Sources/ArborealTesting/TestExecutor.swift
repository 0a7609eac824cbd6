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
/// An actor with no executor of its own (a plain `actor`) runs an effect's call on this
/// executor, as Swift runs such an actor's work on the calling task's preferred executor:
/// counted like the effect's own jobs. An effect that waits for a detached task, an actor
/// with an executor of its own (other than the main actor), an actor busy with work from
/// outside the test (one the app's other tasks or another test also call), a real clock or
/// I/O leaves this executor for that wait: its next job arrives whenever the outside work
/// ends, which no test controls.
/// The test store reports such an effect as waiting on work outside the test, unless the test
/// opted into waiting for it (``TestStore/timeout``).
public final class TestExecutor: TaskExecutor, JobCountingExecutor {
  /// How many jobs were received and have not finished running.
  private let queued = Atomic<Int>(0)

  /// Creates an executor with no job.
  public init() {}

  /// Receives a job: it runs on the main thread after every job enqueued there before it.
  ///
  /// - Parameter job: The job.
  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queued.add(1, ordering: .releasing)
    DispatchQueue.main.async {
      job.runSynchronously(on: self.asUnownedTaskExecutor())
      self.queued.subtract(1, ordering: .releasing)
    }
  }

  /// How many jobs were received and have not finished running: zero when no effect on this
  /// executor can go on without something else happening first.
  public var pendingJobs: Int { queued.load(ordering: .acquiring) }

  /// How many `TestClock` advances are running this executor's effects now.
  private let advances = Atomic<Int>(0)

  /// Whether a `TestClock` advance is running this executor's effects now: then a test
  /// store lets them deliver as many actions as fall due (see `TestStore`'s holds).
  var isAdvancing: Bool { advances.load(ordering: .acquiring) > 0 }

  /// Notes that a `TestClock` advance runs this executor's effects, until the matching
  /// ``endStepping()``.
  package func beginStepping() {
    advances.add(1, ordering: .releasing)
  }

  /// Ends a step begun with ``beginStepping()``.
  package func endStepping() {
    advances.subtract(1, ordering: .releasing)
  }
}
