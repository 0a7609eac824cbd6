/// The bookkeeping of a recorder's writer, without locks or threads: what is waiting to be
/// written, whether a writer is at work, who waits for it to catch up, whether the recording
/// is closed. Its `mutating` methods say what the caller must do next; the caller does it
/// after releasing the lock that guards the state.
///
/// Invariants:
/// - `isDraining` is true from the enqueue that found the writer idle until the writer, finding
///   nothing pending, stops: at most one writer runs, and an item enqueued is always written
///   by the running writer or by the one this enqueue starts.
/// - Waiters are resumed only when nothing is pending and no writer runs, so a resumed
///   ``StoreRecorder/flush()`` has every item enqueued before it on disk.
/// - After ``close()``, items are dropped, and the file is closed exactly once, by the writer
///   that finds nothing pending.
/// - `pending` holds at most `limit` items once an enqueue returns: an enqueue that fills it
///   sets `producerWaits` (the writer is running, since items are pending) and the producer
///   blocks until the writer takes the batch, which clears it and says to wake the producer.
///   So at most `limit` items wait and `limit` more are being written: memory stays bounded
///   and nothing is dropped.
/// - Two arrays take turns: the writer takes `pending` whole and gives it back emptied
///   (``giveBack(_:)``), to be the next `pending` but one, so a steady recording appends
///   without allocating. `spare` is empty, with its capacity.
struct RecorderState<Item, Waiter> {
  private(set) var pending: [Item] = []
  /// An emptied batch the writer gave back, kept for its storage.
  private var spare: [Item] = []
  /// The most items that wait for the writer before a producer is made to wait.
  let limit: Int
  /// Whether the producer waits for the writer to take the pending items.
  private(set) var producerWaits = false
  private(set) var isDraining = false
  private(set) var isClosed = false
  private var isFileClosed = false
  private var waiters: [Waiter] = []

  /// What to do after ``enqueue(_:)`` or ``close()``.
  enum Start: Equatable {
    /// Start a writer.
    case startWriter
    /// Nothing: a writer is running, or the recording is closed.
    case none
  }

  /// What the writer does next.
  enum Next {
    /// Write these items, in order, then ask again; first wake the producer if it waits.
    case write([Item], wakeProducer: Bool)
    /// Stop; resume the waiters, and close the file if asked.
    case stop(resume: [Waiter], closeFile: Bool)
  }

  /// Adds an item to write.
  /// Creates the state of a recorder that lets `limit` items wait (at least one).
  init(limit: Int = .max) {
    self.limit = max(1, limit)
  }

  mutating func enqueue(_ item: Item) -> Start {
    guard !isClosed else { return .none }
    pending.append(item)
    return startWriterIfIdle()
  }

  /// Whether the producer must wait for the writer before it goes on: the pending items
  /// reached the limit. Marks the producer as waiting.
  mutating func producerMustWait() -> Bool {
    guard pending.count >= limit, isDraining else { return false }
    producerWaits = true
    return true
  }

  /// Takes everything pending for the writer, or stops it when nothing is.
  mutating func next() -> Next {
    if !pending.isEmpty {
      // Handed over whole, O(1) under the caller's lock: the next enqueue appends to the spare
      // storage (or starts a new array).
      let batch = pending
      pending = spare
      spare = []
      let wake = producerWaits
      producerWaits = false
      return .write(batch, wakeProducer: wake)
    }
    isDraining = false
    let resume = waiters
    waiters = []
    let closeFile = isClosed && !isFileClosed
    if closeFile { isFileClosed = true }
    return .stop(resume: resume, closeFile: closeFile)
  }

  /// Takes back a batch the writer has written, emptied, for its storage: unless it is larger
  /// than `limit` items' worth (a rare burst must not hold its memory for the recording's
  /// lifetime) or a spare is kept already.
  mutating func giveBack(_ batch: consuming [Item]) {
    guard spare.capacity == 0, batch.isEmpty, batch.capacity <= Swift.min(limit, 65_536) else {
      return
    }
    spare = batch
  }

  /// Registers a waiter for everything enqueued so far to be written; false when it already
  /// is (resume it at once).
  mutating func wait(_ waiter: Waiter) -> Bool {
    guard isDraining || !pending.isEmpty else { return false }
    waiters.append(waiter)
    return true
  }

  /// Accepts no more items; the writer closes the file once the pending items are written.
  mutating func close() -> Start {
    guard !isClosed else { return .none }
    isClosed = true
    return startWriterIfIdle()
  }

  private mutating func startWriterIfIdle() -> Start {
    if isDraining { return .none }
    isDraining = true
    return .startWriter
  }
}
