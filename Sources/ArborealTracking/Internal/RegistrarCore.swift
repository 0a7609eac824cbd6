import Synchronization

/// The shared storage behind a ``TrackingRegistrar``: one per model instance.
///
/// ## Data
/// - `observedMask`: bit `id & 63` is set while a property with that id may have an observer,
///   or a tracking scope has read it and not yet registered. A write whose bit is clear takes
///   the fast path: store and return, no lock. Bits are conservative: a set bit only costs a
///   trip through the lock.
/// - `epoch`: counts recorded writes; only changed under the lock, read without it. A read
///   inside a tracking scope is stamped with the epoch it saw.
/// - `pendingScopes`: how many tracking scopes have read this registrar and not yet finished
///   registering. Bits are never cleared while it is non-zero.
/// - `state`: the entries (observers and last-write epochs), behind `lock`.
/// - `creation`: when the registrar was made, as a ``RegistrarCreation`` serial; zero when no
///   change recording ran anywhere at the time.
///
/// ## New models are not changed models
/// A change recording (``withChangeRecording(keepingValues:_:)``) leaves out every write to a
/// registrar made after it began: whatever a new model's `init` writes through its tracked
/// setters, and whatever the action writes to it later, the model is new, not changed (the
/// property that now holds it is the change). The invariant: a registrar made on the
/// recording's thread after the recording began has `creation` above the recording's start
/// (``WriteLog/recordingStart``), and every registrar that existed when it began has
/// `creation` at or below it. The thread's write log keeps every write (a transaction needs
/// them all), each entry with its registrar's `creation`, and a recording that ends lists only
/// the entries at or below its own start (a model made between an outer recording's start and
/// an inner one's is new to the outer recording, not to the inner one). A registrar made on
/// another thread while a recording begins may count either way: nothing orders the two.
///
/// ## Why no write is lost
/// A reader's access loads the value and, in a tracking scope, increments `pendingScopes`,
/// loads `epoch` and sets its bit. A writer loads the bit (with the activity word) to choose
/// its path, then stores the value. In a program without data races on the value one of the
/// two accesses happens before the other: if the read comes first, so does the bit, which
/// the writer then sees; if the write comes first, the reader sees the new value. (Racing
/// accesses to a non-atomic value are a data race in any case, and no ordering of the
/// registrar's could make them safe.) So a write that follows the read takes the slow path
/// and records `lastWrite` under the lock; registration then compares `lastWrite` with the
/// read's epoch and fires at once if the property changed in between. Clearing a bit stores
/// the mask, then re-checks `pendingScopes` and puts the bit back if a reader arrived
/// meanwhile (both sides sequentially consistent), so a reader never relies on a bit that is
/// being cleared.
///
/// ## The write path, consumer by consumer
/// A write that leaves the inlined fast path (`@Tracked`'s setter) reaches its consumers in
/// this order, each reading what the steps before it produced:
/// 1. **The thread's write log** (``WriteLog``), when a transaction or a change recording is
///    open: the property, the value before its first write and after its last, and whether
///    they differ. First, so that even an unobserved write is in the net change.
/// 2. **The observed bit**: clear, and the write is done (a mirror is still told).
/// 3. **The record, under the lock** (`recordWrite`): the epoch moves (and the derived
///    values' clock, for a registrar that feeds them), and the write takes the observers to
///    notify (an `ObserverList`) and the key, named when a consumer may read the name.
/// 4. **The mirror**, told of every recorded write.
/// 5. **The transaction**, when one is open on the thread: it takes the observers and the key
///    and delivers them once, when it closes (`Transaction`).
/// 6. **Delivery**, otherwise: each observer is notified now, in its own isolation
///    (`Delivery`); with derived values' input links among them, the others' runs wait for
///    the refreshes.
///
/// ## Locking
/// `lock` is never held while user code runs, nor while another lock is taken: observers are
/// copied out and notified after it is released.
///
/// Invariant (why `@unchecked Sendable` holds): `state` is only accessed inside `withState`,
/// under `lock`; every other stored property is immutable or atomic.
@usableFromInline
final class RegistrarCore: @unchecked Sendable {
  /// ``TrackingActivity/shared``, or the registrar's own activity when it is mirrored.
  @usableFromInline let activity: TrackingActivity
  @usableFromInline let observedMask = Atomic<UInt64>(0)
  let epoch = Atomic<UInt64>(0)
  let pendingScopes = Atomic<Int>(0)
  /// When this registrar was made: see "New models are not changed models". Declared before
  /// the one-byte and four-byte fields below, which then share one eight-byte slot.
  let creation: UInt64
  /// Whether a derived value depends on this registrar: then every write it records moves
  /// ``derivedInputClock``. Set under the lock, never cleared.
  private let feedsDerivedValues = Atomic<Bool>(false)
  private let lock = Lock()
  @exclusivity(unchecked) private var state = RegistrarState()

  @usableFromInline init() {
    let shared = TrackingActivity.shared
    activity = shared
    creation = shared.hasRecordings ? RegistrarCreation.next() : 0
  }

  /// A registrar whose reads and changes are all reported to `mirror`.
  init(mirror: any TrackingMirror) {
    activity = .mirrored(to: mirror)
    creation = TrackingActivity.shared.hasRecordings ? RegistrarCreation.next() : 0
  }

  deinit {
    // Observers refer to this registrar unowned: tell each to forget it before it goes.
    // Nobody else can reach `state` any more, but an observer may be unregistering from it
    // right now, under its own lock and then this one, so take the lock to read the entries.
    let observers = withState { state -> [ObserverCore] in
      var unique: [ObserverCore] = []
      var seen = Set<ObjectIdentifier>()
      for entry in state.entries {
        for observer in entry.observers where seen.insert(ObjectIdentifier(observer)).inserted {
          unique.append(observer)
        }
      }
      return unique
    }
    let identity = ObjectIdentifier(self)
    for observer in observers { observer.registrarWillDeinit(identity) }
  }

  /// Runs `body` with exclusive access to the state.
  @inline(__always)
  func withState<R>(_ body: (inout RegistrarState) -> R) -> R {
    lock.withLock(owner: UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())) {
      body(&state)
    }
  }

  /// Whether a write of the property must take the slow path: it may be observed, or a
  /// change recording is running.
  @inlinable @inline(__always)
  func mayBeObserved(_ key: TrackingKey) -> Bool {
    observedMask.load(ordering: .relaxed) & key.maskBit != 0
      || activity.writesTakeSlowPath
  }

  // MARK: Reads

  /// Told of every read and change of this registrar's properties; nil for almost all (kept
  /// by the registrar's own activity, see ``TrackingActivity``).
  var mirror: (any TrackingMirror)? { activity.mirror }

  /// Records a read of property `id` in the calling thread's innermost tracking scope, if
  /// any.
  func recordAccess(id: UInt64) {
    if let mirror {
      mirror.trackingMirrorDidAccess(TrackingKey(unnamed: id))
      // A mirrored registrar's reads come here for the mirror alone when no tracking scope
      // runs on any thread: then none runs on this one either.
      guard TrackingActivity.shared.hasScopes else { return }
    }
    // Unmanaged all the way: the thread owns its context, and `AccessScope.run` keeps the
    // installed scope alive, so no retain or release is needed on this path.
    guard let context = ThreadContext.unmanagedCurrent else { return }
    context._withUnsafeGuaranteedRef { context in
      context.scope?._withUnsafeGuaranteedRef { $0.record(self, id: id, epoch: nil) }
    }
  }

  #if ARBOREAL_INTERNAL_CHECKS
    /// Asserts the state's invariants after a registration, when built with
    /// `-DARBOREAL_INTERNAL_CHECKS`: those of ``RegistrarState``, and every observed property's
    /// bit set in `observedMask` (a write that finds its bit clear notifies nobody).
    @inline(never)
    private func checkInvariants(
      of state: borrowing RegistrarState, touching ids: some Sequence<UInt64>
    ) {
      state.checkInvariants(touching: ids)
      let mask = observedMask.load(ordering: .sequentiallyConsistent)
      precondition(
        mask & state.neededMask == state.neededMask,
        "RegistrarCore: an observed property's bit is clear")
    }
  #else
    /// Does nothing: the checks are built with `-DARBOREAL_INTERNAL_CHECKS`.
    @inline(__always)
    private func checkInvariants(
      of state: borrowing RegistrarState, touching ids: some Sequence<UInt64>
    ) {}
  #endif

  #if ARBOREAL_INTERNAL_CHECKS
    /// Asserts, when built with `-DARBOREAL_INTERNAL_CHECKS`, that a give-back left the pending
    /// count at zero or more: every run gives back the one count it took, once.
    @inline(never)
    private func checkPending(_ remaining: Int) {
      precondition(remaining >= 0, "RegistrarCore: a pending count given back twice")
    }
  #else
    /// Does nothing: the checks are built with `-DARBOREAL_INTERNAL_CHECKS`.
    @inline(__always)
    private func checkPending(_ remaining: Int) {}
  #endif

  /// Marks the start of a scope's reads of this registrar. Balanced by `releasePending(_:)`
  /// or by a registration that consumes the scope's run.
  func beginPending() {
    pendingScopes.wrappingAdd(1, ordering: .sequentiallyConsistent)
  }

  /// Stamps a read: returns the epoch it saw and makes sure the property's bit is set.
  @inline(__always)
  func stampRead(of id: UInt64) -> UInt64 {
    let stamp = epoch.load(ordering: .sequentiallyConsistent)
    let bit: UInt64 = 1 &<< (id & 63)
    if observedMask.load(ordering: .sequentiallyConsistent) & bit == 0 {
      observedMask.bitwiseOr(bit, ordering: .sequentiallyConsistent)
    }
    return stamp
  }

  /// Gives back `count` pending counts taken by a scope's runs, without registering.
  ///
  /// - Parameter tidy: Whether to clear unneeded bits when no scope is pending any more. A
  ///   caller that keeps its registrations (a re-run with unchanged dependencies) passes
  ///   false: the bits it read are still needed, and skipping the lock saves a round trip.
  func releasePending(_ count: Int = 1, tidy: Bool = true) {
    let remaining = pendingScopes.wrappingSubtract(count, ordering: .sequentiallyConsistent)
      .newValue
    checkPending(remaining)
    if remaining == 0 && tidy {
      withState { self.tidy(&$0) }
    }
  }

  // MARK: Writes

  /// Records a change of the `@Tracked` property `id` of `model`, which kept no values (an
  /// in-place edit of a collection, a value that is not `Equatable`), and notifies its
  /// observers. The caller keeps `core` and `model` alive.
  @usableFromInline
  static func didChange(
    _ core: Unmanaged<RegistrarCore>, id: UInt64, model: Unmanaged<AnyObject>
  ) {
    core._withUnsafeGuaranteedRef { core in
      model._withUnsafeGuaranteedRef { model in
        core.didChange(
          tracked: id, model: model, logged: false, context: ThreadContext.unmanagedCurrent)
      }
    }
  }

  /// The calling thread's context (opaque, unretained) when a write on this thread goes to its
  /// write log with its values: a transaction or a change recording is open; nil otherwise.
  /// The setter hands it back to the logged
  /// ``didChange(_:id:model:context:before:after:isDuplicate:)``, which then does not look it
  /// up again. Not inlined: only the slow path of a write calls it.
  @usableFromInline
  static func loggingContext() -> UnsafeMutableRawPointer? {
    guard let context = ThreadContext.unmanagedCurrent,
      context._withUnsafeGuaranteedRef({ $0.writes.isOpen })
    else { return nil }
    return context.toOpaque()
  }

  /// Records a change of the `@Tracked` property `id` of `model` from `before` to `after`
  /// (unequal by `isDuplicate`), and notifies its observers. A transaction or a change
  /// recording is open on this thread (``loggingContext()`` said so): the write goes to its
  /// write log with both values, which decide the net change (see ``WriteLog``). The caller
  /// keeps `core` and `model` alive.
  ///
  /// Not inlined: only the slow path of a write calls it. Not generic: the setter, specialised
  /// where the model is compiled, boxes the values (inline, for a value of up to three words)
  /// and wraps its comparison, which is called only when the property is written again in the
  /// transaction. A generic function here ran unspecialised, boxing both values and copying
  /// them through their type's value witnesses on every logged write.
  ///
  /// - Parameters:
  ///   - context: The calling thread's context, as ``loggingContext()`` returned it.
  ///   - isDuplicate: Whether two values of the property are equal; nil when either is not of
  ///     its type.
  @usableFromInline
  static func didChange(
    _ core: Unmanaged<RegistrarCore>, id: UInt64, model: Unmanaged<AnyObject>,
    context opaque: UnsafeMutableRawPointer,
    before: __owned Any, after: __owned Any, isDuplicate: (Any, Any) -> Bool?
  ) {
    // The thread's own context: alive as long as the thread, and a write's slow path does not
    // end it.
    let context = Unmanaged<ThreadContext>.fromOpaque(opaque)
    context._withUnsafeGuaranteedRef { context in
      model._withUnsafeGuaranteedRef { model in
        context.writes.log(
          core, id: id, keeper: model, hasModel: true, before: before, after: after,
          isDuplicate: isDuplicate)
      }
    }
    core._withUnsafeGuaranteedRef { core in
      model._withUnsafeGuaranteedRef { model in
        core.didChange(tracked: id, model: model, logged: true, context: context)
      }
    }
  }

  /// The key of the `@Tracked` property (or model's derived value) `id` of `model`, with its
  /// name and owner, looked up the first time.
  func named(_ id: UInt64, of model: AnyObject) -> TrackingKey {
    if let info = withState({ $0.info(of: id) }) { return TrackingKey(id: id, info: info) }
    return TrackingKey(id: id, info: makeInfo(id, of: model))
  }

  /// Looks up the name and owner of the `@Tracked` property `id` the first time: the name its
  /// id carries, or the declared one by reflection, outside the lock; then cached.
  private func makeInfo(_ id: UInt64, of model: AnyObject) -> TrackingKeyInfo {
    let owner = withState { $0.owner } ?? TrackingOwner.of(model)
    let name =
      ExplicitNames.name(of: id) ?? PropertyNames.name(of: id, in: model) ?? "property#\(id)"
    return withState { state in
      if state.owner == nil { state.owner = owner }
      return state.setInfo(TrackingKeyInfo(name: name, owner: state.owner), of: id)
    }
  }

  /// Records a change of the `@Tracked` property `id` of `model` and notifies its observers.
  ///
  /// One trip through the lock in the common case: the key's name and owner are looked up in
  /// the trip that records the write. Only the first change of a property looks them up by
  /// reflection, outside the lock, and takes more trips to keep them. No trip at all when
  /// nothing observes the property (a write that takes the slow path only for a change
  /// recording): the thread's write log is all it needs.
  ///
  /// - Parameters:
  ///   - logged: Whether the caller logged the write with its values already.
  ///   - context: The calling thread's context, looked up once per write by the caller.
  func didChange(
    tracked id: UInt64, model: AnyObject, logged: Bool, context: Unmanaged<ThreadContext>?
  ) {
    if !logged, let context, context._withUnsafeGuaranteedRef({ $0.writes.isOpen }) {
      logWithoutValues(id, model: model, context: context)
    }
    if observedMask.load(ordering: .relaxed) & TrackingKey.maskBit(of: id) == 0 {
      // Nobody observes the property: an unobserved write outside a change recording would
      // have stored and returned (the fast path; storing before this check is as sound, see
      // "Why no write is lost"). Only a mirror is told.
      mirror?.trackingMirrorDidChange(TrackingKey(unnamed: id))
      return
    }
    let write = recordWrite(TrackingKey(unnamed: id), context: context) { state in
      state.info(of: id).map { TrackingKey(id: id, info: $0) }
    }
    if write.key.info != nil {
      report(write, context: context)
      return
    }
    // The name and owner are looked up by reflection (far dearer than the write) only
    // for a consumer that may read them: a change recording or a tracking scope running
    // anywhere (a scope hands the key to the observer it registers), or an observer whose
    // callback takes the changes. A first change that only wakes observers which ignore them
    // (a derived value's input link, `observe(_:onChange:)`, the library's own watchers)
    // reports the unnamed key; a later change looks the name up when something needs it. (A
    // scope that starts on another thread at this very moment may get the key unnamed,
    // `property#N`: its observer is still notified, only the name is missing.)
    guard
      activity.writesTakeSlowPath || activity.hasScopes || write.observers.anyReadsChanges
    else {
      report(write, context: context)
      return
    }
    let named = TrackingKey(id: id, info: makeInfo(id, of: model))
    withState { $0.rename(named) }
    // Looked up again: the reflection above may run a model's `customMirror`.
    report(
      WriteReport(key: named, observers: write.observers), context: ThreadContext.unmanagedCurrent)
  }

  /// Logs a write of the `@Tracked` property `id` of `model` that kept no values in the
  /// thread's write log. Apart, so that the write path it is not taken on stays small.
  @inline(never)
  private func logWithoutValues(_ id: UInt64, model: AnyObject, context: Unmanaged<ThreadContext>) {
    context._withUnsafeGuaranteedRef { context in
      context.writes.log(
        Unmanaged.passUnretained(self), key: TrackingKey(unnamed: id), keeper: model,
        hasModel: true, isState: true)
    }
  }

  /// Records a change of `key` and notifies its observers (or hands them to the thread's
  /// transaction). Called after the new value is stored, by hand-written accessors.
  @usableFromInline
  func didChange(_ key: TrackingKey) {
    didChange(key, isState: true)
  }

  /// `didChange(_:)` for a change that is not state (a derived value's): its observers are
  /// notified, but no change recording lists it.
  func didChangeUnlogged(_ key: TrackingKey) {
    guard mayBeObserved(key) else { return }
    didChange(key, isState: false)
  }

  /// Logs the change of `key` (as state or not), then records it and notifies its observers.
  @inline(__always)
  private func didChange(_ key: TrackingKey, isState: Bool) {
    let context = ThreadContext.unmanagedCurrent
    log(key, context: context, isState: isState)
    guard observedMask.load(ordering: .relaxed) & key.maskBit != 0 else {
      mirror?.trackingMirrorDidChange(key)
      return
    }
    report(recordWrite(key, context: context) { _ in key }, context: context)
  }

  /// Logs a write of `key` that kept no values in the thread's write log, if a span is open.
  @inline(__always)
  private func log(_ key: TrackingKey, context: Unmanaged<ThreadContext>?, isState: Bool) {
    context?._withUnsafeGuaranteedRef { context in
      guard context.writes.isOpen else { return }
      context.writes.log(
        Unmanaged.passUnretained(self), key: key, keeper: self, hasModel: false,
        isState: isState)
    }
  }

  /// What a recorded write hands its consumers after the lock (steps 4 to 6 of "The write
  /// path"): the key, named when the registrar knows the name, and the observers to notify.
  struct WriteReport {
    let key: TrackingKey
    let observers: ObserverList
  }

  /// Records a write of property `key.id` under the lock, with the key `naming` gives (`key`
  /// itself when it gives nil), and returns what the write's consumers read.
  ///
  /// - Parameter context: The calling thread's context, looked up once per write by the
  ///   caller (it is unmanaged: the thread keeps it alive).
  @inline(__always)
  private func recordWrite(
    _ key: TrackingKey, context: Unmanaged<ThreadContext>?,
    naming: (inout RegistrarState) -> TrackingKey?
  ) -> WriteReport {
    let inTransaction = context?._withUnsafeGuaranteedRef { $0.isInTransaction } ?? false
    return withState { state -> WriteReport in
      let next = epoch.load(ordering: .relaxed) &+ 1
      epoch.store(next, ordering: .sequentiallyConsistent)
      if feedsDerivedValues.load(ordering: .relaxed) {
        derivedInputClock.wrappingAdd(1, ordering: .sequentiallyConsistent)
      }
      var emptied = false
      let named = naming(&state) ?? key
      let observers = state.recordWrite(of: named, epoch: next, emptied: &emptied)
      // The write took the entry's last observers, one-shots that will not unregister from
      // this registrar (see `ObserverState.unregisterAll(_:firedBy:id:)`): tidy the bits here.
      // Not in a transaction: its later writes of the property must still reach it, and it
      // may put the observers back.
      if emptied && !inTransaction { tidy(&state) }
      return WriteReport(key: named, observers: observers)
    }
  }

  /// Hands a recorded write to its consumers, in order: the mirror, then the thread's
  /// transaction when one is open, else each observer now.
  private func report(_ write: WriteReport, context: Unmanaged<ThreadContext>?) {
    let (key, observers) = (write.key, write.observers)
    if let mirror { mirror.trackingMirrorDidChange(key) }
    if let context {
      let handled = context._withUnsafeGuaranteedRef { context -> Bool in
        guard context.isInTransaction else { return false }
        #if ARBOREAL_NEW_DERIVED
          // The new engine's input links mark its graph at the write, so that a read inside
          // the transaction (on any thread) sees what the write made stale; its observed
          // values are refreshed when the transaction ends (`DerivedContext.graphReached`).
          // The marks are noted with the property (`DerivedContext.transactionWrite`): those
          // of a property set back are undone as the transaction ends, where they can be.
          context.derived.transactionWrite = (Unmanaged.passUnretained(self).toOpaque(), key.id)
          context.transaction.add(
            Self.notifyingInputLinks(observers, key: key, core: self), key: key, core: self)
          context.derived.transactionWrite = nil
        #else
          context.transaction.add(observers, key: key, core: self)
        #endif
        return true
      }
      if handled { return }
    }
    switch observers {
    case .none:
      break
    case .one(let observer):
      // Nothing else waits in this loop: a derived value it marks may refresh at once.
      observer.notify(TrackingChanges(key: key), firedBy: self, id: key.id)
    case .many(let list):
      let changes = TrackingChanges(key: key)
      (context ?? ThreadContext.unmanagedCurrentOrNew)._withUnsafeGuaranteedRef { thread in
        let notifyAll = {
          thread.derived.notifying {
            for observer in list { observer.notify(changes, firedBy: self, id: key.id) }
          }
        }
        // With derived values' input links among them, the other observers' runs wait for
        // the refreshes, so that an observer of a derived value of the property too hears of
        // both at once (see `ThreadContext.delivering(_:)`).
        if list.contains(where: { $0.kind == .input }) {
          thread.delivering(notifyAll)
        } else {
          notifyAll()
        }
      }
    }
  }

  #if ARBOREAL_NEW_DERIVED
    /// Notifies the input links among `observers` now and returns the others, for the
    /// transaction to deliver when it ends.
    private static func notifyingInputLinks(
      _ observers: ObserverList, key: TrackingKey, core: RegistrarCore
    ) -> ObserverList {
      switch observers {
      case .none:
        return observers
      case .one(let observer):
        guard observer.kind == .input else { return observers }
        observer.notify(TrackingChanges(key: key), firedBy: core, id: key.id)
        return .none
      case .many(let list):
        guard list.contains(where: { $0.kind == .input }) else { return observers }
        var others: [ObserverCore] = []
        for observer in list {
          if observer.kind == .input {
            observer.notify(TrackingChanges(key: key), firedBy: core, id: key.id)
          } else {
            others.append(observer)
          }
        }
        return others.isEmpty ? .none : .many(others)
      }
    }
  #endif

  /// Makes every write this registrar records from now on move ``derivedInputClock``. Under
  /// the lock, so that a write recorded after this returns sees it.
  func countWritesForDerivedValues() {
    guard !feedsDerivedValues.load(ordering: .relaxed) else { return }
    withState { _ in feedsDerivedValues.store(true, ordering: .relaxed) }
  }

  /// Puts back a one-shot observer that a write of property `id` handed to a transaction in
  /// which the property came back to its start value. Called under the observer's lock.
  func restore(_ observer: ObserverCore, id: UInt64) {
    withState { state in
      state.add(observer, to: id)
      observedMask.bitwiseOr(1 &<< (id & 63), ordering: .sequentiallyConsistent)
    }
  }

  // MARK: Registration

  /// Registers `observer` for the properties `ids`, read as `records` by `runCount` runs of a
  /// scope, and gives back those runs' pending counts.
  ///
  /// Keys written after they were read are added to `changed`; the caller treats them as a
  /// change that already happened.
  ///
  /// - Complexity: O(*r* × *p*) for *r* reads and *p* entries.
  func register(
    _ observer: ObserverCore, ids: SmallList<UInt64>, records: ArraySlice<AccessRecord>,
    runCount: Int,
    changed: inout SmallList<TrackingKey>
  ) {
    withState { state in
      for record in records {
        if let key = state.changed(record.id, since: record.epoch), !changed.contains(key) {
          changed.append(key)
        }
      }
      for id in ids { state.add(observer, to: id) }
      let remaining = pendingScopes.wrappingSubtract(runCount, ordering: .sequentiallyConsistent)
        .newValue
      checkPending(remaining)
      checkInvariants(of: state, touching: ids)
      if remaining == 0 { tidy(&state) }
    }
  }

  /// Registers `observer` for the property `id` alone, read at `epoch` by one run of a scope,
  /// and gives back that run's pending count: ``register(_:ids:records:runCount:changed:)``
  /// without the lists.
  func register(
    _ observer: ObserverCore, id: UInt64, epoch: UInt64, changed: inout SmallList<TrackingKey>
  ) {
    withState { state in
      if let key = state.changed(id, since: epoch) { changed.append(key) }
      state.add(observer, to: id)
      let remaining = pendingScopes.wrappingSubtract(1, ordering: .sequentiallyConsistent)
        .newValue
      checkPending(remaining)
      checkInvariants(of: state, touching: CollectionOfOne(id))
      if remaining == 0 { tidy(&state) }
    }
  }

  /// Adds the keys in `records` written after they were read to `changed`. Lock-free when
  /// nothing was written since.
  func changes(
    in records: some Collection<AccessRecord>, into changed: inout SmallList<TrackingKey>
  ) {
    let now = epoch.load(ordering: .sequentiallyConsistent)
    guard records.contains(where: { $0.epoch != now }) else { return }
    withState { state in
      for record in records {
        if let key = state.changed(record.id, since: record.epoch), !changed.contains(key) {
          changed.append(key)
        }
      }
    }
  }

  /// Removes `observer` from the property `id`.
  func unregister(_ observer: ObserverCore, id: UInt64) {
    withState { state in
      state.remove(observer, from: id)
      tidy(&state)
    }
  }

  /// Removes `observer` from the given properties.
  func unregister(_ observer: ObserverCore, ids: SmallList<UInt64>) {
    withState { state in
      for id in ids { state.remove(observer, from: id) }
      tidy(&state)
    }
  }

  /// Clears bits nobody needs and, now and then, drops entries without observers. Called
  /// under the lock; does nothing while a scope is pending.
  private func tidy(_ state: inout RegistrarState) {
    guard pendingScopes.load(ordering: .sequentiallyConsistent) == 0 else { return }
    let needed = state.neededMask
    let current = observedMask.load(ordering: .sequentiallyConsistent)
    // Empty entries are kept for reuse (their arrays keep their capacity) until they
    // outnumber the live ones.
    if state.entries.count > 8 && state.entries.count > 2 * state.observedEntryCount {
      state.compact()
    }
    let clearing = current & ~needed
    guard clearing != 0 else { return }
    observedMask.bitwiseAnd(~clearing, ordering: .sequentiallyConsistent)
    if pendingScopes.load(ordering: .sequentiallyConsistent) != 0 {
      // A reader arrived while we cleared; it may rely on a bit it saw set.
      observedMask.bitwiseOr(clearing, ordering: .sequentiallyConsistent)
    }
  }

  /// The number of registrations, for leak tests.
  var registrationCount: Int { withState { $0.registrationCount } }
}

/// The serials that order registrars' creations against the starts of change recordings
/// (see `RegistrarCore`, "New models are not changed models").
///
/// A registrar takes the next serial only while a change recording runs somewhere
/// (``TrackingActivity/hasRecordings``); otherwise its serial is zero, which no recording's
/// start is below. Making a model therefore costs one relaxed load when nothing records, and
/// one atomic increment of a process-wide counter while something does. The counter is a
/// global of its own, not a field of ``TrackingActivity``: incrementing it must not evict the
/// cache line of the word that every read and write loads.
enum RegistrarCreation {
  /// The last serial handed out.
  private static let counter = Atomic<UInt64>(0)

  /// A new serial, above every serial handed out and every recording's start so far.
  static func next() -> UInt64 {
    counter.wrappingAdd(1, ordering: .relaxed).newValue
  }

  /// The start of a change recording that has just been counted in: every registrar made
  /// after it on this thread gets a greater serial.
  static var now: UInt64 { counter.load(ordering: .relaxed) }
}
