/// One observer: a one-shot `withTracking` callback, a continuous `observe` body, or a derived
/// value's input link.
///
/// An input link (`.input`) is registered for the tracked properties a derived value's last
/// computation read, and stays registered across changes: its callback only marks the value
/// (no body to run, no phase to claim), and each recomputation relinks it in place
/// (``relink(_:isCurrent:)``), which takes no registrar's lock when the computation read what
/// the previous one did. So a steady-state recomputation makes no observer and no
/// registration.
///
/// Registrars hold observers strongly (to notify them); observers hold registrars unowned (to
/// unregister; see ``Registration``). Releasing a model therefore frees its registrations, and
/// cancelling an observer removes it from every registrar still alive.
///
/// Lock order: an observer's lock may be held while taking a registrar's lock (to unregister),
/// never the reverse; registrars release their lock before notifying.
///
/// Invariant (why `@unchecked Sendable` holds): `state` is only accessed inside `withState`,
/// under `lock`; the other stored properties are immutable, and `callback` is only invoked as
/// its own invariant allows.
final class ObserverCore: @unchecked Sendable {
  enum Kind { case oneShot, continuous, input }

  let kind: Kind
  let delivery: Delivery
  /// Where a continuous observer was registered, for diagnostics.
  let origin: ObserverOrigin?
  private let callback: UncheckedCallback
  private let lock = Lock()
  @exclusivity(unchecked) private var state: ObserverState

  /// Whether the callback reads the changed properties' names (see
  /// `UncheckedCallback.readsChanges`).
  var readsChanges: Bool { callback.readsChanges }

  init(kind: Kind, delivery: Delivery, callback: UncheckedCallback, origin: ObserverOrigin?) {
    self.kind = kind
    self.delivery = delivery
    self.origin = origin
    self.callback = callback
    switch kind {
    case .oneShot: state = ObserverState(phase: .registering)
    case .continuous: state = ObserverState(phase: .running)
    case .input: state = ObserverState(phase: .idle)
    }
  }

  /// Runs `body` with exclusive access to the state; when built with
  /// `-DARBOREAL_INTERNAL_CHECKS`, asserts the state's invariant when it returns.
  @inline(__always)
  private func withState<R>(_ body: (inout ObserverState) -> R) -> R {
    lock.withLock(owner: UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())) {
      defer { state.checkInvariants() }
      return body(&state)
    }
  }

  // MARK: Notification

  /// Called by a registrar (or a transaction) after properties this observer read changed.
  ///
  /// - Parameters:
  ///   - core: The registrar whose write notifies directly, outside a transaction; nil from a
  ///     transaction.
  ///   - id: The property that write changed.
  func notify(_ changes: TrackingChanges, firedBy core: RegistrarCore? = nil, id: UInt64 = 0) {
    switch kind {
    case .oneShot: notifyOneShot(changes, firedBy: core, id: id)
    case .continuous: notifyContinuous(changes)
    case .input: deliver(changes)
    }
  }

  private func notifyOneShot(_ changes: TrackingChanges, firedBy core: RegistrarCore?, id: UInt64) {
    let fire = withState { state -> Bool in
      switch state.phase {
      case .registering, .running, .queued:
        state.phase = .finished
        state.collect(changes)
        return false  // the registering thread delivers
      case .idle:
        state.phase = .finished
        state.unregisterAll(self, firedBy: core, id: id)
        return true
      case .finished:
        return false
      }
    }
    if fire { deliver(changes) }
  }

  private func notifyContinuous(_ changes: TrackingChanges) {
    var immediate = delivery.isImmediate
    // Inside a delivery, a run that could happen now waits for its end (see
    // `ThreadContext.delivering(_:)`), queued as a run in another isolation is.
    var thread: ThreadContext?
    // Looked at unretained (the thread keeps its context alive); a reference is made only
    // for a run that waits.
    if immediate, let context = ThreadContext.unmanagedCurrent,
      context._withUnsafeGuaranteedRef({ $0.defersRuns })
    {
      thread = context.takeUnretainedValue()
      immediate = false
    }
    let start = withState { state -> Bool in
      state.notified = true
      switch state.phase {
      case .idle:
        state.phase = immediate ? .running : .queued
        // A deferred run finds its changes in the state, with those collected meanwhile.
        if thread != nil { state.collect(changes) }
        return true
      case .running, .registering, .queued:
        state.dirty = true
        state.collect(changes)
        return false
      case .finished:
        return false
      }
    }
    guard start else { return }
    if let thread {
      thread.deferredRuns.append(self)
    } else if immediate {
      runContinuous(initialChanges: changes)
    } else {
      delivery.perform { self.runQueued(changes) }
    }
  }

  /// Starts a run that was queued in the observer's isolation with `changes` (or deferred to
  /// the end of a delivery on its thread, its changes already collected), unless the observer
  /// was cancelled (or released) meanwhile: then the body is not called.
  func runQueued(_ changes: TrackingChanges? = nil) {
    let merged = withState { state -> TrackingChanges? in
      guard state.phase == .queued, !state.cancelled else { return nil }
      state.phase = .running
      state.dirty = false
      if let changes { state.collect(changes) }
      return state.takePendingChanges()
    }
    guard let merged else { return }
    runContinuous(initialChanges: merged)
  }

  private func deliver(_ changes: TrackingChanges) {
    if delivery.isImmediate {
      callback(changes)
    } else {
      let callback = self.callback
      delivery.perform { callback(changes) }
    }
  }

  // MARK: One-shot

  /// Registers a one-shot observer for the reads of `scope`, or fires it at once when one of
  /// them changed before registration finished. Consumes the scope.
  func finishOneShotRegistration(_ scope: AccessScope) {
    // The scope keeps the registrars alive until the registrations are in the state.
    defer { scope.recycle() }
    var changed = SmallList<TrackingKey>()
    let registrations = register(scope, changed: &changed)
    let fire = withState { state -> TrackingChanges? in
      state.forgetGone()
      state.registrations = registrations
      if state.phase == .finished {
        state.unregisterAll(self)
        return state.takePendingChanges()  // a concurrent write fired it meanwhile
      }
      if !changed.isEmpty {
        state.phase = .finished
        state.unregisterAll(self)
        return TrackingChanges(uniqueKeys: changed)
      }
      state.phase = .idle
      return nil
    }
    if let fire { deliver(fire) }
  }

  // MARK: Continuous

  /// Runs the body until it settles: after each run, re-records its dependencies and runs
  /// again if a change arrived meanwhile, up to ``TrackingDiagnostics/rerunLimit`` times in a
  /// row. The caller must have claimed the `running` phase.
  func runContinuous(initialChanges: TrackingChanges) {
    var changes = initialChanges
    var reruns = 0
    while true {
      let (_, scope) = AccessScope.run(mergingIntoParent: false) { self.callback(changes) }
      let next = settle(scope, reruns: reruns)
      // The scope kept the registrars it read alive until the registrations were stored.
      scope.recycle()
      switch next {
      case .stop:
        return
      case .runaway:
        TrackingDiagnostics.reportRunaway(origin)
        return
      case .again(let pending):
        changes = pending
        reruns += 1
      }
    }
  }

  /// What a continuous observer does after a run.
  private enum Next {
    case stop
    case runaway
    case again(TrackingChanges)
  }

  /// Replaces the registrations with the reads of `scope` (consuming it) and decides whether
  /// to run again: a change arrived meanwhile, or a property changed after the run read it.
  ///
  /// Unchanged dependencies (the common case) take one trip through the observer's lock and
  /// none through a registrar's, unless a registrar saw a write meanwhile (lock order allows
  /// taking a registrar's lock under the observer's).
  private func settle(_ scope: AccessScope, reruns: Int) -> Next {
    var changed = SmallList<TrackingKey>()
    let settled = withState { state -> Next? in
      state.forgetGone()
      guard Self.same(state, scope) else {
        state.unregisterAll(self)
        return nil
      }
      Self.keepRegistrations(for: scope, changed: &changed)
      return decide(&state, changed: changed, reruns: reruns)
    }
    if let settled { return settled }
    let registrations = register(scope, changed: &changed)
    return withState { state in
      state.forgetGone()
      state.registrations = registrations
      return decide(&state, changed: changed, reruns: reruns)
    }
  }

  /// Keeps the registrations that `scope` read again (``same(_:_:)`` holds): gives back the
  /// scope's pending counts and adds to `changed` the keys written since the scope read them.
  /// Lock-free unless a registrar recorded a write since (lock order allows taking a
  /// registrar's lock under the observer's).
  @inline(__always)
  private static func keepRegistrations(
    for scope: AccessScope, changed: inout SmallList<TrackingKey>
  ) {
    if let only = scope.onlyRead {
      // One property of one model: no list to walk, nothing to retain.
      only.core._withUnsafeGuaranteedRef { core in
        core.changes(in: CollectionOfOne(only.record), into: &changed)
        core.releasePending(tidy: false)
      }
    } else {
      for run in scope.runs {
        run.core.changes(in: scope.records(of: run), into: &changed)
        run.core.releasePending(tidy: false)
      }
    }
  }

  /// The decision after a run, under the lock: finish if cancelled, run again if anything
  /// changed since the run started (unless the rerun limit is reached), else wait.
  private func decide(
    _ state: inout ObserverState, changed: SmallList<TrackingKey>, reruns: Int
  ) -> Next {
    if state.cancelled {
      state.phase = .finished
      state.unregisterAll(self)
      return .stop
    }
    state.collect(changed)
    if state.dirty || !state.pendingKeys.isEmpty {
      state.dirty = false
      if reruns >= TrackingDiagnostics.rerunLimit {
        state.pendingKeys.removeAll()
        state.phase = .idle
        return .runaway
      }
      return .again(state.takePendingChanges())
    }
    state.phase = .idle
    return .stop
  }

  /// Whether `scope` read exactly what `old` registered, registrar by registrar, in order.
  private static func same(_ state: borrowing ObserverState, _ scope: AccessScope) -> Bool {
    if let (core, id) = state.registrations.one {
      guard let only = scope.onlyRead else { return false }
      return only.core.toOpaque() == core.toOpaque() && only.record.id == id
    }
    guard let old = state.registrations.many else { return scope.runs.isEmpty }
    let runs = scope.runs
    guard old.count == runs.count else { return false }
    var index = 0
    while index < runs.count {
      let registration = old[index]
      guard registration.core === runs[index].core,
        scope.run(runs[index], readExactly: registration.ids)
      else { return false }
      index += 1
    }
    return true
  }

  // MARK: Input links

  /// Replaces an input link's registrations with the reads of `scope`, and returns the keys
  /// written since they were read (the caller treats them as a change that already happened).
  /// Gives back the scope's pending counts; the caller recycles the scope.
  ///
  /// Everything happens under the observer's lock (which may take registrars' locks), so two
  /// computations that relink at once never leave registrations behind: `isCurrent`, called
  /// under the lock, says whether the caller's computation is still the latest; a stale one
  /// changes nothing. Unchanged reads (the common case) take no registrar's lock unless a
  /// registrar recorded a write since.
  func relink(_ scope: AccessScope, isCurrent: () -> Bool) -> SmallList<TrackingKey> {
    var changed = SmallList<TrackingKey>()
    withState { state in
      guard state.phase != .finished, isCurrent() else {
        scope.discard()
        return
      }
      state.forgetGone()
      if Self.same(state, scope) {
        Self.keepRegistrations(for: scope, changed: &changed)
        return
      }
      state.unregisterAll(self)
      state.registrations = register(scope, changed: &changed)
    }
    return changed
  }

  // MARK: Cancellation

  /// Ends the observer. No callback starts after this returns, except a continuous run that
  /// another thread had already begun, which may finish.
  func cancel() {
    withState { state in
      state.cancelled = true
      guard state.phase == .idle || state.phase == .queued else {
        if state.phase != .finished && kind == .oneShot { state.phase = .finished }
        return  // a runner cleans up when it sees `cancelled`
      }
      state.phase = .finished
      state.unregisterAll(self)
    }
  }

  /// Puts this one-shot observer back in the entry of property `id` of `core`, which a write
  /// took it from, when that write came to nothing (see ``Transaction``) and the observer is
  /// still waiting.
  func restore(in core: RegistrarCore, id: UInt64) {
    withState { state in
      guard state.phase == .idle, !state.cancelled else { return }
      core.restore(self, id: id)
    }
  }

  /// Forgets the registrations with a registrar that is being deinitialised.
  func registrarWillDeinit(_ identity: ObjectIdentifier) {
    withState { state in state.registrarWillDeinit(identity) }
  }

  var isCancelled: Bool { withState { $0.cancelled } }

  /// Whether a change has reached the observer since it was registered.
  var hasBeenNotified: Bool { withState { $0.notified } }

  // MARK: Registrars

  /// Registers with every registrar `scope` read. The caller recycles the scope only after
  /// storing the registrations.
  private func register(
    _ scope: AccessScope, changed: inout SmallList<TrackingKey>
  ) -> Registrations {
    if let only = scope.onlyRead {
      // One property of one model (the usual case): no lists to build.
      only.core._withUnsafeGuaranteedRef {
        $0.register(self, id: only.record.id, epoch: only.record.epoch, changed: &changed)
      }
      return .one(core: only.core, id: only.record.id)
    }
    if scope.runs.isEmpty { return .none }
    var registrations = SmallList<Registration>()
    if !scope.readsSomeRegistrarTwice() {
      // Each registrar in one run: register the runs as they are.
      registrations.reserveCapacity(scope.runs.count)
      scope.forEachRun { core, range in
        let ids = scope.ids(in: range)
        core._withUnsafeGuaranteedRef {
          $0.register(
            self, ids: ids, records: scope.records(of: range), runCount: 1, changed: &changed)
        }
        registrations.append(Registration(core: core, ids: ids))
      }
      return .many(registrations)
    }
    for group in scope.groups() {
      group.core.register(
        self, ids: group.ids, records: group.records, runCount: group.runCount, changed: &changed)
      registrations.append(Registration(core: group.core, ids: group.ids))
    }
    return .many(registrations)
  }
}
