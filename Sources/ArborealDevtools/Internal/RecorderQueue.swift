import Synchronization

/// The queue between a recorder's producer (the store's step handler, in the store's
/// isolation) and its consumer (the writer, on the recorder's serial dispatch queue): in order,
/// bounded by `limit` waiting steps, and used by the producer without a lock.
///
/// It only says what to do: ``push(_:)`` says when to start a writer and
/// ``producerMustWait()`` when to block until the writer makes room; the caller
/// (`RecorderCore`) starts writers and blocks on a semaphore, a lock-free hand-off on the
/// store's side and a wait only when the store outruns the disk by `limit` steps.
///
/// ## Layout
/// Steps are numbered by position from 0, counting up for the queue's lifetime. They live in
/// rings of slots whose capacity is a power of two; position `p` of a ring is in slot
/// `p & (capacity - 1)`. The producer writes into the newest ring, the consumer reads the
/// oldest. When the producer's ring holds `capacity` steps the consumer has not taken (fewer
/// than `limit` wait in all, see "Invariants"), the producer starts a ring twice as long at the
/// next position, records where the full one ends (`end`) and links it (`next`); the consumer
/// takes the old ring's steps up to `end`, follows the link and lets the old ring go. So the
/// rings grow to the longest backlog the writer ever had (at most the power of two at or above
/// `limit`) and then stay: a steady recording initialises slots the consumer emptied, and the
/// producer neither allocates nor releases anything per step.
///
/// ## Who writes what
/// - The producer alone: the slots at positions from `produced` on (it initialises them), its
///   ring and that ring's first position (`producerStart`), its last view of `consumed`
///   (`seenConsumed`), a full ring's `end` and `next`, and `closed`.
/// - The consumer alone: the slots at positions from `consumed` up to `produced` (it moves the
///   steps out), its ring, its copy of `consumed` (`taken`), and `next` when it follows it.
/// - Each side stores its own position (`produced`, `consumed`) and reads the other's; the
///   flags `writerActive` and `producerWaits` are set by one side and cleared by either.
///
/// ## Memory ordering (`Synchronization.Atomic`)
/// - A step: the producer initialises the slot, then stores `produced` (at least releasing);
///   the consumer loads `produced` (acquiring) before it moves the step out. A slot given back:
///   the consumer moves the step out, then stores `consumed` (releasing); the producer loads
///   `consumed` (acquiring) before it initialises the slot again.
/// - A new ring: the producer sets the full ring's `end`, then stores its `next` (releasing),
///   then puts the step in the new ring and stores `produced`. The consumer loads `produced`,
///   then `next` (acquiring): if a step it saw lies in the new ring, it sees `next`, and `end`.
/// - Starting the writer (a Dekker pair, both sides sequentially consistent): the producer
///   stores `produced`, then loads `writerActive`; a writer that found nothing to take stores
///   `writerActive = false`, then loads `produced`. At least one sees the other's store, so a
///   step is never left without a writer; whichever then finds the flag false sets it with a
///   compare-and-exchange, so one writer at a time holds it.
/// - Back-pressure (the same pattern): a producer that left `limit` steps waiting stores
///   `producerWaits = true`, then loads `consumed`; the consumer stores `consumed`, then loads
///   `producerWaits`. The side that clears the flag (exchange) decides: the consumer wakes the
///   producer once, or the producer goes on without waiting.
///
/// ## Invariants
/// - At most `limit` steps wait once ``producerMustWait()`` returns false, so a push starts
///   with fewer than `limit` waiting and finds room: in its ring, or in a new ring of at most
///   `maxCapacity` (a full ring holds fewer than `limit` steps, so it is shorter than that).
/// - Steps are taken in the order they were pushed, each once; none is dropped, except those
///   pushed after ``close()``.
/// - One consumer at a time (the caller's serial queue), one producer at a time (the store's
///   isolation).
///
/// Invariant (why `@unchecked Sendable` holds): the plain stored properties are each used by
/// one side only, as listed under "Who writes what"; the slots change hands only through the
/// release/acquire pairs above; everything else is an `Atomic`.
final class RecorderQueue<Element>: @unchecked Sendable {
  /// A ring of slots; see the queue's "Layout".
  ///
  /// Invariant (why `@unchecked Sendable` holds): `end` is written by the producer before it
  /// stores `next` and read by the consumer after it loads `next`; the slots follow the
  /// queue's rules.
  final class Ring: @unchecked Sendable {
    let slots: UnsafeMutablePointer<Element>
    let capacity: Int
    /// The position after the ring's last step, once the producer moved to `next`.
    var end = Int.max
    /// The next ring, retained for the consumer, which takes it.
    let next = Atomic<Unmanaged<Ring>?>(nil)

    init(capacity: Int) {
      self.capacity = capacity
      slots = .allocate(capacity: capacity)
    }

    /// The slot of a position.
    @inline(__always)
    func slot(_ position: Int) -> UnsafeMutablePointer<Element> {
      slots + (position & (capacity &- 1))
    }

    deinit {
      // The steps are deinitialised by the queue; a link the consumer never took is let go.
      next.load(ordering: .acquiring)?.release()
      slots.deallocate()
    }
  }

  /// The most steps that wait before the producer is made to wait (at least 1).
  let limit: Int
  /// The longest a ring gets: the power of two at or above `limit`.
  let maxCapacity: Int

  // Shared.
  /// The number of steps pushed: the producer's position.
  private let produced = Atomic<Int>(0)
  /// The number of steps taken: the consumer's position.
  private let consumed = Atomic<Int>(0)
  /// Whether a writer holds the queue: set by whoever starts one, cleared by that writer when
  /// it finds nothing to take.
  private let writerActive = Atomic<Bool>(false)
  /// Whether the producer waits to be woken (it left `limit` steps waiting).
  private let producerWaits = Atomic<Bool>(false)
  /// Whether pushes are dropped (``close()``).
  private let closed = Atomic<Bool>(false)

  // The producer's.
  private var producerRing: Ring
  private var producerStart = 0
  private var pushed = 0
  private var seenConsumed = 0

  // The consumer's.
  private var consumerRing: Ring
  private var taken = 0

  /// Creates an empty queue in which `limit` steps may wait (at least 1).
  ///
  /// - Parameter firstCapacity: The first ring's capacity (rounded up to a power of two, at
  ///   most `maxCapacity`): it grows as needed.
  init(limit: Int, firstCapacity: Int = 64) {
    self.limit = max(1, limit)
    maxCapacity = Self.powerOfTwo(atLeast: self.limit)
    let ring = Ring(capacity: min(Self.powerOfTwo(atLeast: max(1, firstCapacity)), maxCapacity))
    producerRing = ring
    consumerRing = ring
  }

  deinit {
    // The steps nobody took. Nothing else runs: this is the last reference.
    let end = produced.load(ordering: .acquiring)
    var position = taken
    var ring = consumerRing
    while position < end {
      if position == ring.end, let next = ring.next.exchange(nil, ordering: .acquiring) {
        ring = next.takeRetainedValue()
        continue
      }
      ring.slot(position).deinitialize(count: 1)
      position &+= 1
    }
  }

  /// The power of two at or above `value`, at most 2⁶².
  private static func powerOfTwo(atLeast value: Int) -> Int {
    var power = 1
    while power < value, power < 1 << 62 { power &<<= 1 }
    return power
  }

  // MARK: The producer

  /// Adds a step, unless the queue is closed. Called by the producer, with fewer than `limit`
  /// steps waiting (after ``producerMustWait()`` returned false).
  ///
  /// - Returns: Whether the caller must start a writer: none held the queue, and this call
  ///   took it for the new one.
  @inline(__always)
  func push(_ element: consuming Element) -> Bool {
    guard !closed.load(ordering: .relaxed) else { return false }
    let position = pushed
    if position &- max(seenConsumed, producerStart) == producerRing.capacity {
      seenConsumed = consumed.load(ordering: .acquiring)
      if position &- max(seenConsumed, producerStart) == producerRing.capacity { grow() }
    }
    producerRing.slot(position).initialize(to: element)
    pushed = position &+ 1
    produced.store(position &+ 1, ordering: .sequentiallyConsistent)
    guard !writerActive.load(ordering: .sequentiallyConsistent) else { return false }
    return writerActive.compareExchange(
      expected: false, desired: true, ordering: .sequentiallyConsistent
    ).exchanged
  }

  /// Starts a ring twice as long at the next position, linked from the full one.
  @inline(never)
  private func grow() {
    precondition(
      producerRing.capacity < maxCapacity,
      "RecorderQueue: a push with \(limit) steps waiting (producerMustWait() was not asked)")
    let ring = Ring(capacity: producerRing.capacity &<< 1)
    producerRing.end = pushed
    producerRing.next.store(Unmanaged.passRetained(ring), ordering: .releasing)
    producerRing = ring
    producerStart = pushed
  }

  /// Whether the producer must wait for the consumer now: `limit` steps wait. Then the queue
  /// marks it waiting, and the consumer that takes the steps says to wake it
  /// (``take(into:)``); the caller waits for that wake-up, then asks again.
  @inline(__always)
  func producerMustWait() -> Bool {
    guard pushed &- seenConsumed >= limit else { return false }
    return producerMustWaitAfterLooking()
  }

  @inline(never)
  private func producerMustWaitAfterLooking() -> Bool {
    seenConsumed = consumed.load(ordering: .acquiring)
    guard pushed &- seenConsumed >= limit else { return false }
    producerWaits.store(true, ordering: .sequentiallyConsistent)
    seenConsumed = consumed.load(ordering: .sequentiallyConsistent)
    guard pushed &- seenConsumed < limit else { return true }
    // Room was made meanwhile. If the consumer cleared the flag, its wake-up is on the way:
    // wait for it, so that every wake-up meets one wait.
    return !producerWaits.exchange(false, ordering: .sequentiallyConsistent)
  }

  /// Drops every later push: the recording is closed.
  func close() {
    closed.store(true, ordering: .relaxed)
  }

  /// The number of steps pushed so far. The producer's.
  var pushedCount: Int { pushed }

  // MARK: The consumer

  /// Moves every step pushed so far into `batch`, in order. Called by one consumer at a time.
  ///
  /// - Returns: Whether the caller must wake the producer (it waits for room, which this made).
  func take(into batch: inout [Element]) -> Bool {
    let end = produced.load(ordering: .acquiring)
    guard taken < end else { return false }
    var position = taken
    while position < end {
      var stop = end
      if consumerRing.next.load(ordering: .acquiring) != nil {
        stop = min(end, consumerRing.end)
        if position == stop {
          // Every step of this ring is taken: on to the next, letting this one go.
          let next = consumerRing.next.exchange(nil, ordering: .acquiring)!
          consumerRing = next.takeRetainedValue()
          continue
        }
      }
      while position < stop {
        batch.append(consumerRing.slot(position).move())
        position &+= 1
      }
    }
    taken = end
    consumed.store(end, ordering: .sequentiallyConsistent)
    guard producerWaits.load(ordering: .sequentiallyConsistent) else { return false }
    return producerWaits.exchange(false, ordering: .sequentiallyConsistent)
  }

  /// Called by the writer that holds the queue when ``take(into:)`` found nothing: lets the
  /// queue go.
  ///
  /// - Returns: Whether the writer keeps the queue and goes on: a step arrived meanwhile, and
  ///   no other writer was started for it.
  func writerStops() -> Bool {
    writerActive.store(false, ordering: .sequentiallyConsistent)
    guard produced.load(ordering: .sequentiallyConsistent) != taken else { return false }
    return writerActive.compareExchange(
      expected: false, desired: true, ordering: .sequentiallyConsistent
    ).exchanged
  }

  // MARK: Checks

  /// What the queue holds, for tests: the steps waiting, the capacity of the ring the producer
  /// writes into, and whether a writer holds the queue. Read with neither side running.
  var debugState: (waiting: Int, ringCapacity: Int, writerActive: Bool) {
    (
      produced.load(ordering: .acquiring) &- consumed.load(ordering: .acquiring),
      producerRing.capacity, writerActive.load(ordering: .acquiring)
    )
  }
}
