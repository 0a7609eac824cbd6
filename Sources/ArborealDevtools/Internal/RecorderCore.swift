import Arboreal
import ArborealPersistence
import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The shared part of a ``StoreRecorder``: the queue of steps to write, the writer that turns
/// them into lines off the store's actor, and the steps written so far.
///
/// The store's side hands each step over through a `RecorderQueue`, without a lock: it
/// initialises a slot and publishes it, starts a writer when none runs (once per burst), and
/// blocks on `room` only when `limit` steps wait. Nothing generic is on that side: the queue
/// holds `LoggedStep`s as the store made them, and the writer renumbers them and casts the
/// actions back.
///
/// The writer runs on a serial dispatch queue, never on the store's actor or the concurrency
/// pool (it blocks on `write`). Every job that takes steps from the queue (a writer, a flush,
/// the finish) runs there, so the queue has one consumer at a time; a writer holds the queue's
/// `writerActive` flag from its start until it finds nothing to take.
final class RecorderCore<Action: Encodable & Sendable>: Sendable {
  /// What the writer keeps, read by the recorder's owner.
  private struct Written {
    /// The steps written, when kept.
    var steps: [RecordedStep<Action>] = []
    /// The first write that failed; the file gets nothing after it.
    var writeError: RecordingError?
  }

  /// The steps on their way from the store's side to the writer.
  private let pending: RecorderQueue<LoggedStep>
  /// The writer's results, under a lock: the store's side never takes it.
  private let written = Locked<Written>.make(Written())
  private let queue = DispatchQueue(label: "org.arboreal.recorder")
  private let output: Output
  /// Where the producer (the store's step handler, in the store's isolation) waits while
  /// `limit` steps wait for the writer; signalled by the writer that takes them.
  private let room = DispatchSemaphore(value: 0)
  let path: String?
  let keepsSteps: Bool
  /// Whether the writer syncs the file to the disk after each batch.
  let syncsEachBatch: Bool
  /// How long the producer waits for room before it says what it waits for, and then again
  /// between its checks; 10 seconds but in this package's tests.
  private let stallInterval: Duration
  /// Where those messages go: `RecordingDiagnostics.reportStalledWriter`, or a test's closure.
  private let reportStall: @Sendable (String) -> Void
  /// Names the store's model in those messages (`Store<Counter>`).
  let storeName: String

  /// What the jobs on `queue` use: the file, the encoder, the batch being written and the
  /// numbering of steps.
  ///
  /// Invariant (why `@unchecked Sendable` holds): every property is used only on the serial
  /// `queue`, one job at a time; `header` is written once, there, before any step.
  private final class Output: @unchecked Sendable {
    var descriptor: Int32
    let encoder: JSONEncoder = {
      let encoder = JSONEncoder()
      encoder.outputFormatting = .sortedKeys
      return encoder
    }()
    var header: Data?
    /// The steps taken from the queue, being written; emptied after each batch, keeping its
    /// storage unless a burst made it large.
    var batch: [LoggedStep] = []
    /// The store's number of its last action before the recording started: steps are
    /// numbered from 1 after it. Set by the first step.
    var base: Int?

    init(descriptor: Int32, header: Data?) {
      self.descriptor = descriptor
      self.header = header
    }
  }

  /// Opens (or creates, or empties) the file at `path` and schedules the header; with no
  /// path, keeps the steps in memory only.
  init(
    path: String?, header: Data?, keepsSteps: Bool, limit: Int = .max,
    syncsEachBatch: Bool = false, storeName: String = "a store",
    stallInterval: Duration = .seconds(10),
    reportStall: @escaping @Sendable (String) -> Void = RecordingDiagnostics.reportStalledWriter
  ) throws(RecordingError) {
    var descriptor: Int32 = -1
    if let path {
      descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
      guard descriptor >= 0 else {
        throw RecordingError(.file(String(cString: strerror(errno))), line: 0, path: path)
      }
    }
    self.path = path
    self.keepsSteps = keepsSteps
    self.syncsEachBatch = syncsEachBatch
    self.storeName = storeName
    self.stallInterval = stallInterval
    self.reportStall = reportStall
    self.pending = RecorderQueue(limit: limit)
    self.output = Output(descriptor: descriptor, header: header)
    if path != nil { queue.async { [self] in writeHeader() } }
  }

  deinit {
    // The last job closed it unless the recording was never finished.
    if output.descriptor >= 0 { close(output.descriptor) }
  }

  /// Queues a handled action for the writer. Called in the store's isolation: a slot filled
  /// and published, with nothing generic (`LoggedStep`) and no lock.
  func enqueue(_ step: consuming LoggedStep) {
    let sequence = step.sequence
    if pending.push(consume step) { startWriter() }
    // Back-pressure: the writer is `limit` steps behind; wait until it takes them. It runs on
    // a queue of its own and never waits for the producer, so this wait ends as soon as its
    // `write` returns.
    while pending.producerMustWait() { waitForRoom(after: sequence) }
  }

  /// Waits for the one wake-up the queue promised (`producerMustWait()` answered true), and
  /// says what it waits for when the writer takes nothing for `stallInterval`: then the
  /// writer's `write` is blocked, and only the system can end the wait. Nothing is dropped:
  /// the store waits on, and hears again when the writer moves.
  @inline(never)
  private func waitForRoom(after sequence: Int) {
    let interval = stallInterval.components
    let nanoseconds =
      Int(interval.seconds) * 1_000_000_000 + Int(interval.attoseconds / 1_000_000_000)
    guard room.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .timedOut else { return }
    let clock = ContinuousClock()
    let began = clock.now - stallInterval
    let place = path.map { "writing to \($0)" } ?? "keeping its steps in memory"
    reportStall(
      "Arboreal: the recorder of \(storeName), \(place), has taken no step for "
        + "\(stallInterval): the store waits, in its isolation, after handling its action "
        + "\(sequence), because the steps waiting for the writer reached the recorder's `limit` "
        + "(\(pending.limit)) and the writer's last `write` has not returned (a full disk, a pipe "
        + "nobody reads, a stalled network file system?). Nothing is dropped; the store goes on "
        + "when the writer does.")
    while room.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .timedOut {}
    reportStall(
      "Arboreal: the recorder of \(storeName) took steps again; the store waited "
        + "\(clock.now - began) after its action \(sequence).")
  }

  /// Waits until everything enqueued so far is written.
  func flush() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      // After the steps enqueued so far on the serial queue: it takes them all.
      queue.async { [self] in
        writePending()
        continuation.resume()
      }
    }
  }

  /// Accepts no more steps, writes those pending, syncs and closes the file, and waits until
  /// it is done.
  func finish() async {
    pending.close()
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      queue.async { [self] in
        writePending()
        if output.descriptor >= 0 {
          // What `finish()` promises: every line on the disk, not only with the system.
          fsync(output.descriptor)
          close(output.descriptor)
          output.descriptor = -1
        }
        continuation.resume()
      }
    }
  }

  var steps: [RecordedStep<Action>] { written.withLock { $0.steps } }

  var writeError: RecordingError? { written.withLock { $0.writeError } }

  /// How long a writer started by a logged action waits before it takes the pending steps:
  /// the steps of a burst go as one batch, and the store's side pays for starting the writer
  /// once per batch instead of once per step (a started writer wakes a thread). A flush does
  /// not wait for it.
  private static var batchingDelay: DispatchTimeInterval { .milliseconds(1) }

  /// Starts a writer on the queue after the batching delay; it holds the queue's writer flag,
  /// which the caller took.
  @inline(never)
  private func startWriter() {
    queue.asyncAfter(deadline: .now() + Self.batchingDelay) { [self] in
      repeat { writePending() } while pending.writerStops()
    }
  }

  /// Takes and writes batches until nothing is pending. Runs on `queue`.
  private func writePending() {
    while true {
      if pending.take(into: &output.batch) { room.signal() }
      if output.batch.isEmpty { return }
      write(output.batch)
      // A burst's storage is let go rather than held for the recording's lifetime.
      output.batch.removeAll(keepingCapacity: output.batch.capacity <= 65_536)
      if syncsEachBatch, output.descriptor >= 0 { fsync(output.descriptor) }
    }
  }

  /// Encodes and writes a batch, one line and one `write` per step, and keeps the steps.
  private func write(_ batch: [LoggedStep]) {
    // The steps are numbered from the first one recorded.
    guard let first = batch.first else { return }
    let base = output.base ?? first.sequence - 1
    output.base = base
    // Nothing to make when the steps are neither kept nor written (a failed file, no path).
    guard keepsSteps || output.descriptor >= 0 else { return }
    var failure: RecordingError?
    var written: [RecordedStep<Action>] = []
    if keepsSteps { written.reserveCapacity(batch.count) }
    for step in batch {
      let item = PendingStep(step, base: base)
      // Every step was handed over by the store of a `StoreRecorder<Model>` whose
      // `Model.Action` is `Action`.
      guard let action = step.action as? Action else {
        preconditionFailure("RecorderCore: a step whose action is not a \(Action.self)")
      }
      let changes = item.changes.map(RecordedProperty.init)
      let cause: StoreLogEntry<Action>.Cause =
        item.startedBy.map { .effect(startedBy: $0 > 0 ? $0 : nil) } ?? .sent
      if keepsSteps {
        written.append(
          RecordedStep(
            sequence: item.sequence, action: action, cause: cause, changes: changes))
      }
      guard output.descriptor >= 0, failure == nil else { continue }
      let line = StepLine(
        seq: item.sequence, cause: item.startedBy == nil ? "sent" : "effect",
        startedBy: item.startedBy.flatMap { $0 > 0 ? $0 : nil }, action: action,
        changes: changes)
      do {
        var data = try line.encoded(with: output.encoder)
        reportSecrets(
          inJSON: data,
          "step \(item.sequence) of the recording \(path.map { "at \($0) " } ?? "")"
            + "(action `\(caseName(of: action))`)")
        data.append(UInt8(ascii: "\n"))
        if let reason = writeAll(data, to: output.descriptor) {
          failure = RecordingError(.file(reason), line: item.sequence + 1, path: path)
        }
      } catch {
        failure = RecordingError(
          .file("step \(item.sequence) does not encode: \(describe(error))"),
          line: item.sequence + 1, path: path)
      }
    }
    self.written.withLock { kept in
      kept.steps.append(contentsOf: written)
      if let failure, kept.writeError == nil { kept.writeError = failure }
    }
    if failure != nil, output.descriptor >= 0 {
      // Nothing more goes to a file that lost a line: its steps would be out of sequence.
      close(output.descriptor)
      output.descriptor = -1
    }
  }

  /// Writes the header line, before any step (the queue is serial and this is its first job).
  private func writeHeader() {
    guard var header = output.header, output.descriptor >= 0 else { return }
    output.header = nil
    header.append(UInt8(ascii: "\n"))
    guard let reason = writeAll(header, to: output.descriptor) else { return }
    written.withLock { $0.writeError = RecordingError(.file(reason), line: 1, path: path) }
    close(output.descriptor)
    output.descriptor = -1
  }

}

/// A step's place in the recording: the store's numbers of a `LoggedStep`, renumbered from the
/// first step recorded.
struct PendingStep {
  /// The step's number, from 1.
  let sequence: Int
  /// nil for a sent action; for an effect's, the step that started it (0 if not recorded).
  let startedBy: Int?
  /// The properties the update changed.
  let changes: TrackingChanges

  /// Renumbers `step`; `base` is the store's number of its last action before the first
  /// step recorded.
  init(_ step: LoggedStep, base: Int) {
    sequence = step.sequence - base
    startedBy =
      switch step.startedBy {
      case nil: nil
      case .some(let startedBy?) where startedBy > base: startedBy - base
      case .some: 0
      }
    changes = step.changes
  }
}
