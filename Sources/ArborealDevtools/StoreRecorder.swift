import Arboreal
import ArborealPersistence
import Foundation

/// Records the actions a store handles, with where they came from and what they changed, to
/// a JSON Lines file that ``Recording`` reads back: for replaying a bug report, jumping
/// through a session (``Timeline``), and asking why a property has its value.
///
/// ```swift
/// let store = Store(state: TodoList(), environment: .live)
/// let recorder = try StoreRecorder(store, to: "session.jsonl")
/// store.send(.add("milk"))  // written as step 1, off the store's actor
/// await recorder.finish()
/// let recording = try Recording<TodoList>(contentsOf: "session.jsonl")
/// ```
///
/// The recorder hooks into the store's logging beside any log handler (as one would, but
/// handed each action with nothing generic to read), so it sees every action, sent or
/// delivered by an effect, with the properties its update changed. In the store's isolation,
/// recording an action costs the log handler's change recording plus a slot filled in a queue,
/// without a lock and without allocating once the queue has grown to the writer's backlog; the
/// JSON is encoded and written by a writer on a queue of its own, one `write` call per line, in
/// order. The writer starts a millisecond after the first step of a burst and takes every step
/// logged by then as one batch, so that the store's actor does not wake a thread for each step.
///
/// ## What is kept
/// - **Memory is bounded, nothing is dropped.** At most `limit` steps wait for the writer;
///   when the store outruns the disk by that many, the action that makes them `limit` waits
///   in the store's isolation until the writer takes them (back-pressure), so no step is ever
///   dropped. A writer that takes nothing for 10 seconds (its `write` blocked) is reported
///   while the store waits, and again when it moves (``RecordingDiagnostics``).
/// - **A killed process keeps every line ``flush()`` promised.** When `flush()` or
///   ``finish()`` returns, every step logged before the call has been written to the file
///   with the system; a process killed afterwards (even with SIGKILL) leaves those lines
///   complete, then at most one partial last line, which ``Recording`` reports by its number
///   (and can replay the lines before it).
/// - **The disk:** ``finish()`` syncs the file to the disk (`fsync`) before closing it; with
///   ``Durability/afterEachBatch`` the writer also syncs after each batch, so what `flush()`
///   promised survives a power loss as well.
///
/// The first line holds the model's snapshot when recording started, so a recording replays
/// on its own. Actions must be `Codable`; so must the model's snapshot (`ReplayableModel`).
///
/// The recorder also keeps the steps in memory (``steps``), for a program's own history
/// and `why` commands; pass `keepingSteps: false` for long recordings that only go to disk.
///
/// Like the store it records, a recorder belongs to the isolation that made the store (the main
/// actor, an actor of yours): it is not `Sendable`. Only its writer runs elsewhere.
public final class StoreRecorder<Model: ReplayableModel> where Model.Action: Codable {
  private let core: RecorderCore<Model.Action>
  /// The recorder's log handler in the store, removed by ``finish()``.
  private let handler: LogHandlerToken

  /// The model's state when recording started.
  public let start: Model.Snapshot

  /// When the recorder syncs its file to the disk.
  public enum Durability: Sendable, Hashable {
    /// At ``StoreRecorder/finish()`` only: the cheapest; a killed process still keeps every
    /// line written, but a power loss may lose what the system had not yet put on the disk.
    case whenFinished
    /// After each batch the writer writes, and at ``StoreRecorder/finish()``: once
    /// ``StoreRecorder/flush()`` returns, the lines are on the disk.
    case afterEachBatch
  }

  /// Starts recording a store's actions.
  ///
  /// ```swift
  /// let recorder = try StoreRecorder(
  ///   store, to: "session.jsonl", limit: 1_000, durability: .afterEachBatch)
  /// ```
  ///
  /// - Parameters:
  ///   - store: The store; the recorder adds a log handler to it, until ``finish()``.
  ///   - path: The file to write (created, or emptied if it exists); nil to keep the steps in
  ///     memory only.
  ///   - keepingSteps: Whether to keep every step in memory as well (``steps``).
  ///   - limit: The most steps that wait for the writer (at least 1; 10,000 by default); one
  ///     more makes the store's log handler wait until the writer takes them.
  ///   - durability: When the file is synced to the disk; ``Durability/whenFinished`` by
  ///     default.
  /// - Throws: ``RecordingError`` when the file cannot be opened or the snapshot encoded.
  public init(
    _ store: Store<Model>, to path: String?, keepingSteps: Bool = true, limit: Int = 10_000,
    durability: Durability = .whenFinished
  ) throws(RecordingError) {
    let start = store.state.snapshot
    var header: Data?
    if path != nil {
      do {
        let encoded = try RecordingFormat.header(
          model: String(describing: Model.self), snapshot: start)
        reportSecrets(inJSON: encoded, "the starting snapshot of the recording at \(path ?? "")")
        header = encoded
      } catch {
        throw RecordingError(
          .file("the snapshot does not encode: \(describe(error))"), line: 1, path: path)
      }
    }
    let core = try RecorderCore<Model.Action>(
      path: path, header: header, keepsSteps: keepingSteps, limit: limit,
      syncsEachBatch: durability == .afterEachBatch, storeName: "Store<\(Model.self)>")
    self.core = core
    self.start = start
    handler = store.addStepHandler { (step: consuming LoggedStep) in core.enqueue(consume step) }
  }

  /// The file the steps go to; nil when they are kept in memory only.
  public var path: String? { core.path }

  /// The steps written so far, first to last (empty with `keepingSteps: false`). Await
  /// ``flush()`` first for every action handled so far.
  public var steps: [RecordedStep<Model.Action>] { core.steps }

  /// The steps so far as a ``Recording`` from the starting state, to replay or to ask why.
  public var recording: Recording<Model> { Recording(start: start, steps: core.steps) }

  /// The first write that failed (a full disk, a removed directory), if any; the file gets
  /// nothing after it, while ``steps`` keeps growing.
  public var writeError: RecordingError? { core.writeError }

  /// Waits until every action handled so far is written to the file (with
  /// ``Durability/afterEachBatch``, also synced to the disk).
  nonisolated(nonsending) public func flush() async {
    await core.flush()
  }

  /// Stops recording: removes the recorder's log handler from the store, writes what is
  /// queued, syncs the file to the disk, closes it, and waits until that is done. Actions
  /// handled afterwards are not recorded.
  nonisolated(nonsending) public func finish() async {
    handler.cancel()
    await core.finish()
  }
}
