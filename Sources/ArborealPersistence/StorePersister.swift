import Arboreal
import Foundation
import Synchronization

/// Keeps a store's model saved in a file: after each action that changes it, a while later,
/// off the store's actor, atomically, and once more at ``finish()``.
///
/// ```swift
/// let file = PersistedFile<TodoList>(path: "todos.json")
/// let list = try file.load().map(TodoList.init(snapshot:)) ?? TodoList()
/// let store = Store(state: list, environment: environment)
/// let persister = try StorePersister(store, to: file, clock: environment.clock)
/// store.send(.add("milk"))  // saved about half a second later
/// await persister.finish()  // the last state is on the disk
/// ```
///
/// ## When it saves
/// The persister reads the model's `snapshot` (`ReplayableModel`) inside a tracking scope, so it
/// hears of the first change to any tracked property the snapshot reads (one notification; the
/// actions after it cost nothing until the save). That change books a save `debounce` later on
/// `clock`: every change in between goes into the same save, which takes a fresh snapshot in the
/// store's isolation when it falls due and watches for the next change. A steady stream of actions
/// therefore saves once per `debounce`, never later (where a pure debounce would wait for a
/// quiet moment that may never come). A snapshot equal to the last one saved is not written, so
/// an action that sets a value and another that sets it back write nothing. A change to an
/// untracked property alone is not heard; it is saved with the next tracked change, or by
/// ``flush()`` or ``finish()``, which always compare the snapshot with the last one saved.
///
/// ## How it writes
/// ``PersistedFile/save(_:)`` encodes and writes off the store's actor, through a temporary file
/// renamed over the old one, so a killed process leaves a complete file. Writes are chained,
/// each waiting for the one before: two never overlap, and the file always ends with the latest
/// state handed over. A write that fails is reported through ``problem`` and `onProblem`; the
/// next save (or ``finish()``) tries again.
///
/// ## What is never lost
/// ``finish()`` writes the state as it is when called and waits for the disk. Call it before the
/// program ends, and keep the persister until then: one released before `finish()` (not kept at
/// all, or released with changes not yet saved) says so in debug builds, through
/// ``PersistenceDiagnostics/releasedPersisterHandler``. The
/// persister refuses to start on a file that does not load (``PersistenceError``), so a file
/// the program cannot read is never written over; move it aside first
/// (``PersistedFile/moveAside(now:)``) if starting afresh is right.
///
/// ## Where it lives
/// A persister lives where its store does, and is made and used there as the store is: on the
/// main actor, or in an actor's methods (a server's session). It is not `Sendable`. A booked
/// save waits in a task of its own and then hops back to the actor the persister was made on
/// (held weakly: a persister does not keep its actor alive) to take the snapshot, so it needs
/// an actor: made where none is known (a nonisolated function, an actor's synchronous
/// initialiser), the initialiser does not compile; make it in an actor's method instead.
///
/// Invariants, in the persister's isolation: until ``finish()``, either a tracking scope over
/// the last snapshot is armed or a save is booked (`scheduled`), so no tracked change goes
/// unheard; at most one save is booked; `lastSaved` is the snapshot of the last write handed to
/// the chain that has not failed (nil when the file must be written); `writing` is the last
/// write of the chain, which every new write waits for. The tracking scope's `onChange` runs on
/// the thread that changes the model: the store's isolation, the persister's, since the store
/// and its models are not `Sendable`.
public final class StorePersister<Model: ReplayableModel> {
  /// The file the model is saved to.
  public let file: PersistedFile<Model>
  /// How long after a change the save happens.
  public let debounce: Duration
  /// Why the last write failed, or nil if it succeeded (or none ran yet).
  public private(set) var problem: PersistenceError?

  private let model: Model
  private let clock: any Clock<Duration>
  private let onProblem: (PersistenceError?) -> Void
  /// How a booked save reaches this persister, in its isolation.
  private let home: PersisterHome<Model>
  /// The snapshot last handed to the writer, or found in the file at start; nil when the next
  /// save must write whatever the state is.
  private var lastSaved: Model.Snapshot?
  /// The booked save: waits on the clock, then saves; nil when none is booked.
  private var scheduled: Task<Void, Never>?
  /// The last write of the chain.
  private var writing: Task<PersistenceError?, Never>?
  private var isFinished = false
  /// What `deinit`, on any thread, reports: whether ``finish()`` ran, and whether a change was
  /// heard that no snapshot has taken yet (or a write failed).
  private let finishedFlag = Atomic<Bool>(false)
  private let hasUnsavedChanges = Atomic<Bool>(false)

  /// Starts saving a store's model.
  ///
  /// - Parameters:
  ///   - store: The store whose model is saved.
  ///   - file: The file. It must be missing or load (``PersistedFile/load()``): a file that
  ///     does not load is never written over.
  ///   - debounce: How long after a change to save; every change in between joins the save.
  ///     Half a second by default.
  ///   - clock: The clock the wait runs on: the environment's, so that a test can pass
  ///     `ArborealTesting`'s `TestClock` and move time itself.
  ///   - onProblem: Called in the persister's isolation when ``problem`` changes: when a
  ///     write fails other than the one before it (with the error), and when a write succeeds
  ///     after one failed (with nil).
  ///   - isolation: The actor the store and the persister live on: the caller's, left out.
  /// - Throws: ``PersistenceError`` when the file exists and does not load.
  public init(
    _ store: Store<Model>, to file: PersistedFile<Model>,
    debounce: Duration = .milliseconds(500), clock: any Clock<Duration> = ContinuousClock(),
    onProblem: @escaping (PersistenceError?) -> Void = { _ in },
    isolation: isolated any Actor = #isolation
  ) throws(PersistenceError) {
    let found = try file.read()
    self.file = file
    self.debounce = debounce
    self.model = store.state
    self.clock = clock
    self.onProblem = onProblem
    self.home = PersisterHome(isolation: isolation)
    home.persister = self
    let now = snapshot(watching: true)
    switch found {
    case nil: lastSaved = now  // No file: it is written with the first change.
    case let found? where found.migrated: lastSaved = nil  // Written in the new version.
    case let found?: lastSaved = found.snapshot
    }
    if lastSaved != now { changed() }
  }

  deinit {
    // A booked save would otherwise wait out its debounce on the clock, holding the clock and
    // what the save captured (forever on a clock nobody advances); cancelled, it ends now.
    scheduled?.cancel()
    #if DEBUG
      guard !finishedFlag.load(ordering: .acquiring) else { return }
      let lost =
        hasUnsavedChanges.load(ordering: .acquiring)
        ? "with changes not yet saved, which are lost" : "and saves nothing more"
      PersistenceDiagnostics.reportReleasedPersister(
        "ArborealDevtools: the StorePersister<\(Model.self)> of \(file.path) was released before "
          + "finish() \(lost). Keep it for as long as the store runs, and call finish() before "
          + "the program ends.")
    #endif
  }

  /// Saves now what changed, without waiting for the debounce, and returns once every change
  /// made before the call is written.
  nonisolated(nonsending) public func flush() async {
    scheduled?.cancel()
    scheduled = nil
    await save(watching: !isFinished)
  }

  /// Stops saving: writes the state as it is now if it differs from the last one saved, and
  /// returns once it is written. Changes made afterwards are not saved. Calling it again does
  /// nothing more.
  nonisolated(nonsending) public func finish() async {
    guard !isFinished else {
      _ = await writing?.value
      return
    }
    isFinished = true
    scheduled?.cancel()
    scheduled = nil
    await save(watching: false)
    finishedFlag.store(true, ordering: .releasing)
  }

  // MARK: Saving

  /// The model's snapshot now; with `watching`, read in a tracking scope whose first change
  /// books a save.
  private func snapshot(watching: Bool) -> Model.Snapshot {
    hasUnsavedChanges.store(false, ordering: .releasing)
    guard watching else { return model.snapshot }
    // The form that ignores the changes: the registrar then skips naming the property.
    return withTrackingInStoreIsolation {
      model.snapshot
    } ignoringChanges: { [weak self] in
      self?.changed()
    }
  }

  /// A change was heard: books a save unless one is booked.
  private func changed() {
    guard !isFinished else { return }
    hasUnsavedChanges.store(true, ordering: .releasing)
    guard scheduled == nil else { return }
    // Booked now, during the change, so that a test that advances a manual clock after the
    // action never races this task.
    let sleep = Sleep(for: debounce, on: clock)
    scheduled = Task { [home] in
      do {
        try await sleep()
      } catch {
        sleep.settle()
        return
      }
      await home.saveBooked()
      sleep.settle()
    }
  }

  /// The booked save, fallen due: `PersisterHome` calls it in the persister's isolation.
  nonisolated(nonsending) fileprivate func saveBooked() async {
    scheduled = nil
    await save(watching: !isFinished)
  }

  /// Takes a snapshot and, if it differs from the last saved, writes it after the writes
  /// before it; returns once the chain is written.
  nonisolated(nonsending) private func save(watching: Bool) async {
    let snapshot = snapshot(watching: watching)
    guard snapshot != lastSaved else {
      _ = await writing?.value
      return
    }
    lastSaved = snapshot
    let previous = writing
    let file = file
    let write = Task.detached { () -> PersistenceError? in
      _ = await previous?.value
      do throws(PersistenceError) {
        try file.save(snapshot)
        return nil
      } catch {
        return error
      }
    }
    writing = write
    let error = await write.value
    if let error {
      // Written again by the next save, whatever it finds.
      if lastSaved == snapshot { lastSaved = nil }
      hasUnsavedChanges.store(true, ordering: .releasing)
      guard problem != error else { return }
      problem = error
      onProblem(error)
    } else if problem != nil, writing == write {
      problem = nil
      onProblem(nil)
    }
  }
}

/// How a booked save, which waits in a task of its own, reaches its persister: by hopping to the
/// actor the persister lives on, never elsewhere.
///
/// ## Invariants (why `@unchecked Sendable` holds)
/// - `persister` is written once, by the persister's initialiser, before any save can be
///   booked, and only loaded (and used) inside `saveBooked(on:)`, isolated to the persister's
///   actor; loading a weak reference is thread-safe in the Swift runtime.
/// - The actor is fixed by `init` and held weakly (the main actor as a flag, as a store's home
///   holds it): once it is gone, so is the persister, and a booked save does nothing.
private final class PersisterHome<Model: ReplayableModel>: @unchecked Sendable {
  weak var persister: StorePersister<Model>?
  private let isOnTheMainActor: Bool
  private weak var actor: (any Actor)?

  init(isolation: any Actor) {
    isOnTheMainActor = isolation === MainActor.shared
    if !isOnTheMainActor { actor = isolation }
  }

  /// Runs the booked save in the persister's isolation; nothing once the actor is gone.
  func saveBooked() async {
    guard let isolation = isOnTheMainActor ? MainActor.shared : actor else { return }
    await saveBooked(on: isolation)
  }

  private func saveBooked(on isolation: isolated any Actor) async {
    await persister?.saveBooked()
  }
}
