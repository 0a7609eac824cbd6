import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The tracking state of one thread: the innermost tracking scope that records reads, and the
/// transaction that collects notifications.
///
/// Invariant: a context is only touched by the thread that owns it. It is reached through a
/// `pthread_key_t` slot (not `@TaskLocal`, which is far slower on the read path); the slot's
/// destructor releases it when the thread exits.
final class ThreadContext {
  // Only the owning thread touches these, so dynamic exclusivity checks (which cost more than
  // the rest of a tracked read) are switched off.

  /// The innermost running tracking scope on this thread, or nil. Owned by `AccessScope.run`,
  /// which keeps the scope alive while it is installed here.
  @exclusivity(unchecked) var scope: Unmanaged<AccessScope>?
  /// Whether a transaction is open on this thread.
  @exclusivity(unchecked) var isInTransaction = false
  /// The thread's transaction, collecting notifications while `isInTransaction`; one object
  /// for the thread's lifetime, so opening a transaction allocates and retains nothing.
  let transaction = Transaction()
  /// The writes of the transaction and the change recordings open on this thread, with their
  /// net changes (see ``WriteLog``).
  @exclusivity(unchecked) var writes = WriteLog()
  /// Recently named properties, by key identity: what a change recording reads to name its
  /// changes without a trip through each registrar's lock (see ``KeyNames``).
  @exclusivity(unchecked) var keyNames = KeyNames()
  /// Consumed scopes kept for reuse: one in `spareScope` (taken and given back without an
  /// array's uniqueness checks, the usual case of one scope at a time), more in `spareScopes`.
  @exclusivity(unchecked) var spareScope: AccessScope?
  @exclusivity(unchecked) var spareScopes: [AccessScope] = []
  /// The derived values being computed on this thread.
  let derived = DerivedContext()
  /// The actor a job of this library's is running on, on this thread (see
  /// ``Delivery/isImmediate``); nil otherwise.
  @exclusivity(unchecked) var runningOnActor: ObjectIdentifier?
  /// How many ``delivering(_:)`` calls run on this thread.
  @exclusivity(unchecked) private(set) var deliveryDepth = 0
  /// The continuous observers whose runs wait for the end of the outermost delivery, in the
  /// order they were queued; their changes collect in their own state.
  @exclusivity(unchecked) var deferredRuns: [ObserverCore] = []
  /// The storage the flush swaps with `deferredRuns`, kept so that a write allocates neither.
  @exclusivity(unchecked) private var runningDeferred: [ObserverCore] = []
  /// The deliveries to other isolations held while this thread delivers.
  @exclusivity(unchecked) var outbox = Outbox()
  /// The store's debug-build forward probe on this thread (see `ThreadSlots`).
  @exclusivity(unchecked) var forwardProbe = ForwardProbeState()
  /// The store whose update runs on this thread now, in debug builds (see `ThreadSlots`).
  @exclusivity(unchecked) var updatingStore: AnyObject?

  /// Whether a continuous observer that may run now must wait for the end of the delivery.
  var defersRuns: Bool { deliveryDepth > 0 }

  /// Runs `body`, the delivery of a write, a transaction or the refreshes of derived values,
  /// so that each observer runs once for all of it:
  ///
  /// - a continuous observer that would run at once on this thread is queued instead (its
  ///   changes collect in its state) and runs when the outermost delivery ends, after every
  ///   derived value it marked was refreshed and reported its change;
  /// - the deliveries to other isolations wait in the ``Outbox`` and start as one job per
  ///   isolation, in order, where deliveries to that same isolation run at once: the derived
  ///   values' refreshes there precede the observers' runs.
  ///
  /// Input links (which only mark derived values) and one-shot observers still run at once.
  func delivering(_ body: () -> Void) {
    deliveryDepth += 1
    outbox.open()
    body()
    deliveryDepth -= 1
    let jobs = outbox.close()
    if deliveryDepth == 0 { runDeferred() }
    for (delivery, works) in jobs { Delivery.start(works, on: delivery) }
  }

  /// Runs the deferred observers, first queued first, including those their runs defer.
  private func runDeferred() {
    while !deferredRuns.isEmpty {
      var runs: [ObserverCore] = []
      swap(&runs, &runningDeferred)
      swap(&runs, &deferredRuns)
      for observer in runs { observer.runQueued() }
      runs.removeAll(keepingCapacity: runs.capacity <= 1_024)
      swap(&runs, &runningDeferred)
    }
  }

  /// The thread-specific key, once created, plus one (0 before). An atomic with a constant
  /// initial value is initialised statically: a lookup costs a load, where a lazily
  /// initialised `static let` would cost a `swift_once` call on every lookup.
  private static let storedKey = Atomic<UInt>(0)

  /// The thread-specific key of the contexts, created the first time.
  @inline(__always)
  private static var key: pthread_key_t {
    let stored = storedKey.load(ordering: .acquiring)
    if _fastPath(stored != 0) { return pthread_key_t(truncatingIfNeeded: stored &- 1) }
    return createKey()
  }

  /// Creates the key; a thread that loses the race to store it deletes its own.
  @inline(never)
  private static func createKey() -> pthread_key_t {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { pointer in
      #if canImport(Darwin)
        Unmanaged<ThreadContext>.fromOpaque(pointer).release()
      #else
        if let pointer { Unmanaged<ThreadContext>.fromOpaque(pointer).release() }
      #endif
    }
    precondition(status == 0, "ArborealTracking: pthread_key_create failed (\(status))")
    let (stored, original) = storedKey.compareExchange(
      expected: 0, desired: UInt(key) &+ 1, ordering: .acquiringAndReleasing)
    if stored { return key }
    pthread_key_delete(key)
    return pthread_key_t(truncatingIfNeeded: original &- 1)
  }

  /// The calling thread's context, if one was created, without retaining it.
  static var unmanagedCurrent: Unmanaged<ThreadContext>? {
    guard let pointer = pthread_getspecific(key) else { return nil }
    return Unmanaged<ThreadContext>.fromOpaque(pointer)
  }

  /// The calling thread's context, if one was created.
  static var currentIfPresent: ThreadContext? {
    guard let pointer = pthread_getspecific(key) else { return nil }
    return Unmanaged<ThreadContext>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// The calling thread's context, made the first time, unmanaged: the thread keeps it alive.
  static var unmanagedCurrentOrNew: Unmanaged<ThreadContext> {
    if let context = unmanagedCurrent { return context }
    return Unmanaged.passUnretained(current)
  }

  /// The calling thread's context, made the first time.
  static var current: ThreadContext {
    if let context = currentIfPresent { return context }
    let context = ThreadContext()
    pthread_setspecific(key, Unmanaged.passRetained(context).toOpaque())
    return context
  }
}

/// A small cache of property names on one thread, direct-mapped by key identity: a change
/// recording names each change it lists, and looking the name up in the registrar costs a trip
/// through its lock.
///
/// Sound without invalidation: a `@Tracked` property's identity is unique to the property of one
/// model instance, and its name and owner (``TrackingKeyInfo``) never change once made. An
/// entry keeps the info alive (a name and an owner's description), never the model.
struct KeyNames {
  private static var slots: Int { 64 }
  private var ids = [UInt64](repeating: 0, count: KeyNames.slots)
  private var infos = [TrackingKeyInfo?](repeating: nil, count: KeyNames.slots)

  /// The named key of property `id` if the cache has it: the usual case, which reads neither
  /// the registrar nor its model.
  @inline(__always)
  func cached(_ id: UInt64) -> TrackingKey? {
    let slot = Int(truncatingIfNeeded: id & UInt64(Self.slots &- 1))
    guard ids[slot] == id, let info = infos[slot] else { return nil }
    return TrackingKey(id: id, info: info)
  }

  /// The named key of property `id` of `core`'s model `model`, from the cache or the registrar.
  mutating func named(_ id: UInt64, core: RegistrarCore, model: AnyObject) -> TrackingKey {
    let slot = Int(truncatingIfNeeded: id & UInt64(Self.slots &- 1))
    if ids[slot] == id, let info = infos[slot] { return TrackingKey(id: id, info: info) }
    let key = core.named(id, of: model)
    ids[slot] = id
    infos[slot] = key.info
    return key
  }
}
