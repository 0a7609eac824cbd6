import Arboreal
import Foundation

/// Records the actions a store handles, with where they came from and what they changed, to
/// a JSON Lines file that ``Recording`` reads back: for replaying a bug report, jumping
/// through a session (``Timeline``), and asking why a property has its value.
///
/// ```swift
/// let store = Store(state: TodoList(), environment: .live)
/// let recorder = try StoreRecorder(store, to: "session.jsonl")
/// store.send(.add("milk"))  // written as step 1, off the main actor
/// await recorder.finish()
/// let recording = try Recording<TodoList>(contentsOf: "session.jsonl")
/// ```
///
/// The recorder installs itself as the store's `Store.logHandler` (calling the handler
/// that was there first), so it sees every action, sent or delivered by an effect, with the
/// properties its update changed. On the main actor, recording an action costs the log
/// handler's change recording plus a lock and an append; the JSON is encoded and written by
/// a writer on a queue of its own, one `write` call per line, in order. If the process
/// stops, the file holds every line written so far and at most one partial last line, which
/// ``Recording`` reports by its number (and can replay the lines before it); the lines still
/// queued are lost, which is normally none: the writer starts as soon as a line is queued.
/// Lines are not synced to the disk one by one.
///
/// The first line holds the model's snapshot when recording started, so a recording replays
/// on its own. Actions must be `Codable`; so must the model's snapshot (``ReplayableModel``).
///
/// The recorder also keeps the steps in memory (``steps``), for a program's own history
/// and `why` commands; pass `keepingSteps: false` for long recordings that only go to disk.
public final class StoreRecorder<Model: ReplayableModel>: Sendable where Model.Action: Codable {
  private let core: RecorderCore<Model.Action>

  /// The model's state when recording started.
  public let start: Model.Snapshot

  /// Starts recording a store's actions.
  ///
  /// - Parameters:
  ///   - store: The store; the recorder becomes its log handler, after the one it had.
  ///   - path: The file to write (created, or emptied if it exists); nil to keep the steps in
  ///     memory only.
  ///   - keepingSteps: Whether to keep every step in memory as well (``steps``).
  /// - Throws: ``RecordingError`` when the file cannot be opened or the snapshot encoded.
  @MainActor
  public init(_ store: Store<Model>, to path: String?, keepingSteps: Bool = true)
    throws(RecordingError)
  {
    let start = store.state.snapshot
    var header: Data?
    if path != nil {
      do {
        header = try RecordingFormat.header(model: String(describing: Model.self), snapshot: start)
      } catch {
        throw RecordingError(
          .file("the snapshot does not encode: \(describe(error))"), line: 1, path: path)
      }
    }
    let core = try RecorderCore<Model.Action>(path: path, header: header, keepsSteps: keepingSteps)
    self.core = core
    self.start = start
    let previous = store.logHandler
    store.logHandler = { entry in
      previous?(entry)
      core.enqueue(entry)
    }
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

  /// Waits until every action handled so far is written.
  public func flush() async {
    await core.flush()
  }

  /// Stops recording: writes what is queued, closes the file, and waits until that is done.
  /// Actions handled afterwards are not recorded.
  public func finish() async {
    await core.finish()
  }
}
