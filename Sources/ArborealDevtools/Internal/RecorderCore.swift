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

/// One handled action waiting to be written: what the store's isolation hands the writer. Taking
/// it costs a lock and an append; the JSON is made by the writer.
///
/// Not generic: the action is kept as `any Sendable` (the writer casts it back), so that the
/// store's side (this step, the queue's state, the lock around it) is concrete code. Generic
/// types there were looked up at run time on every step (their metadata), which cost more than
/// the rest of the step.
struct PendingStep: Sendable {
  let sequence: Int
  let action: any Sendable
  /// nil for a sent action; for an effect's, the step that started it (0 if not recorded).
  let startedBy: Int?
  let changes: TrackingChanges
}

/// What the store's side and the writer share to hand steps over: the queue's state, and the
/// sequence number of the store's last action before the recording started (steps are
/// numbered from 1 after it; set by the first step).
struct RecorderQueue {
  var state: RecorderState<PendingStep, CheckedContinuation<Void, Never>>
  var base: Int?
}

extension RecorderQueue {
  /// Queues the step of the store's action number `sequence`, numbered from the first step;
  /// `effectStartedBy` is nil for a sent action, and for an effect's, the store's number of the
  /// action that started it (nil if unknown). Returns what to do next and whether the producer
  /// must wait for the writer.
  mutating func enqueue(
    sequence: Int, action: any Sendable, effectStartedBy: Int??, changes: TrackingChanges
  ) -> (RecorderState<PendingStep, CheckedContinuation<Void, Never>>.Start, Bool) {
    let base = self.base ?? sequence - 1
    self.base = base
    let startedBy: Int? =
      switch effectStartedBy {
      case nil: nil
      case .some(let startedBy?) where startedBy > base: startedBy - base
      case .some: 0
      }
    let start = state.enqueue(
      PendingStep(
        sequence: sequence - base, action: action, startedBy: startedBy, changes: changes))
    return (start, state.producerMustWait())
  }
}

/// The shared part of a ``StoreRecorder``: the queue of steps to write (guarded by a lock),
/// the writer that turns them into lines off the store's actor, and the steps written so far.
///
/// The writer runs on a serial dispatch queue, never on the store's actor or the concurrency
/// pool (it blocks on `write`). `RecorderState` guarantees at most one writer at a time.
final class RecorderCore<Action: Encodable & Sendable>: Sendable {
  typealias State = RecorderState<PendingStep, CheckedContinuation<Void, Never>>

  /// What the writer keeps, read by the recorder's owner.
  private struct Written {
    /// The steps written, when kept.
    var steps: [RecordedStep<Action>] = []
    /// The first write that failed; the file gets nothing after it.
    var writeError: RecordingError?
  }

  // The package's lock (`Locked`, from ArborealTracking): a `Mutex` that ThreadSanitizer is
  // told about, since it cannot see a futex hand-off on Linux by itself.
  private let shared: Locked<RecorderQueue>
  /// The writer's results, under a lock of their own: the store's side never takes it.
  private let written = Locked<Written>.make(Written())
  private let queue = DispatchQueue(label: "org.arboreal.recorder")
  private let output: Output
  /// Where the producer (the store's log handler, in the store's isolation) waits while the writer
  /// is `limit` steps behind; signalled when the writer takes the waiting steps.
  private let room = DispatchSemaphore(value: 0)
  let path: String?
  let keepsSteps: Bool
  /// Whether the writer syncs the file to the disk after each batch.
  let syncsEachBatch: Bool

  /// The file and the encoder, used only by the writer (on `queue`, one at a time).
  ///
  /// Invariant (why `@unchecked Sendable` holds): `descriptor` and `encoder` are used only on
  /// the serial `queue`, by one writer at a time (see `RecorderState`), and `header` is
  /// written once, there, before any step.
  private final class Output: @unchecked Sendable {
    var descriptor: Int32
    let encoder: JSONEncoder = {
      let encoder = JSONEncoder()
      encoder.outputFormatting = .sortedKeys
      return encoder
    }()
    var header: Data?

    init(descriptor: Int32, header: Data?) {
      self.descriptor = descriptor
      self.header = header
    }
  }

  /// Opens (or creates, or empties) the file at `path` and schedules the header; with no
  /// path, keeps the steps in memory only.
  init(
    path: String?, header: Data?, keepsSteps: Bool, limit: Int = .max,
    syncsEachBatch: Bool = false
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
    self.shared = Locked.make(RecorderQueue(state: State(limit: limit)))
    self.output = Output(descriptor: descriptor, header: header)
    if path != nil { queue.async { [self] in writeHeader() } }
  }

  deinit {
    // The last writer closed it unless the recording was never closed.
    if output.descriptor >= 0 { close(output.descriptor) }
  }

  /// Queues a handled action for the writer. Called in the store's isolation: a lock and an
  /// append, with nothing generic (`LoggedStep`).
  func enqueue(_ step: LoggedStep) {
    let (start, mustWait) = shared.withLock { queue -> (State.Start, Bool) in
      queue.enqueue(
        sequence: step.sequence, action: step.action, effectStartedBy: step.startedBy,
        changes: step.changes)
    }
    if start == .startWriter { startWriter(after: Self.batchingDelay) }
    // Back-pressure: the writer is `limit` steps behind; wait until it takes them. It runs on
    // a queue of its own and never waits for the producer, so this wait always ends.
    if mustWait { room.wait() }
  }

  /// Waits until everything enqueued so far is written.
  func flush() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let waits = shared.withLock { $0.state.wait(continuation) }
      if !waits { continuation.resume() }
    }
  }

  /// Accepts no more steps, writes those pending, closes the file and waits until it is done.
  func finish() async {
    let start = shared.withLock { $0.state.close() }
    if start == .startWriter { startWriter() }
    await flush()
  }

  var steps: [RecordedStep<Action>] { written.withLock { $0.steps } }

  var writeError: RecordingError? { written.withLock { $0.writeError } }

  /// How long a writer started by a logged action waits before it takes the pending steps:
  /// the steps of a burst go as one batch, and the store's side pays for starting the writer
  /// once per batch instead of once per step (a started writer wakes a thread). A flush waits
  /// at most this much longer.
  private static var batchingDelay: DispatchTimeInterval { .milliseconds(1) }

  /// Starts the writer on its queue, at once or after `delay`.
  private func startWriter(after delay: DispatchTimeInterval? = nil) {
    if let delay {
      queue.asyncAfter(deadline: .now() + delay) { [self] in drain() }
    } else {
      queue.async { [self] in drain() }
    }
  }

  /// The writer: writes batches until nothing is pending.
  private func drain() {
    while true {
      switch shared.withLock({ $0.state.next() }) {
      case .write(var batch, let wakeProducer):
        if wakeProducer { room.signal() }
        write(batch)
        batch.removeAll(keepingCapacity: true)
        shared.withLock { [batch] in $0.state.giveBack(batch) }
        if syncsEachBatch, output.descriptor >= 0 { fsync(output.descriptor) }
      case .stop(let resume, let closeFile):
        if closeFile, output.descriptor >= 0 {
          // What `finish()` promises: every line on the disk, not only with the system.
          fsync(output.descriptor)
          close(output.descriptor)
          output.descriptor = -1
        }
        for waiter in resume { waiter.resume() }
        return
      }
    }
  }

  /// Encodes and writes a batch, one line and one `write` per step, and keeps the steps.
  private func write(_ batch: [PendingStep]) {
    // Nothing to make when the steps are neither kept nor written (a failed file, no path).
    guard keepsSteps || output.descriptor >= 0 else { return }
    var failure: RecordingError?
    var written: [RecordedStep<Action>] = []
    if keepsSteps { written.reserveCapacity(batch.count) }
    for item in batch {
      // Every step was enqueued from a `StoreLogEntry<Action>` (see `enqueue(_:)`).
      guard let action = item.action as? Action else {
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
