import Synchronization

/// An observer's registration with one registrar.
struct Registration {
  /// Weak, so that observers never keep a released model's registrar alive.
  weak var core: RegistrarCore?
  let ids: [UInt64]
}

/// The lock-protected state of an observer.
///
/// Phases: `registering` (a one-shot's first scope is being registered) or `running` (a
/// continuous observer's body is running, or about to run) admit exactly one runner;
/// notifications that arrive meanwhile set `dirty` and collect `pendingKeys`. `idle` waits
/// for a change. `finished` is final: a one-shot that fired, or a cancelled observer.
struct ObserverState {
  enum Phase { case registering, running, idle, finished }
  var phase: Phase
  var cancelled = false
  var dirty = false
  var pendingKeys: [TrackingKey] = []
  /// Owned by the runner while `running` or `registering`, by the state otherwise.
  var registrations: [Registration] = []

  mutating func collect(_ keys: [TrackingKey]) {
    for key in keys where !pendingKeys.contains(key) { pendingKeys.append(key) }
  }

  mutating func takeRegistrations() -> [Registration] {
    defer { registrations = [] }
    return registrations
  }
}

/// One observer: a one-shot `withTracking` callback or a continuous `observe` body.
///
/// Registrars hold observers strongly (to notify them); observers hold registrars weakly (to
/// unregister). Releasing a model therefore frees its registrations, and cancelling an
/// observer removes it from every registrar still alive.
final class ObserverCore: Sendable {
  enum Kind { case oneShot, continuous }

  let kind: Kind
  let delivery: Delivery
  private let callback: UncheckedCallback<TrackingChanges>
  let state: Locked<ObserverState>

  init(kind: Kind, delivery: Delivery, callback: UncheckedCallback<TrackingChanges>) {
    self.kind = kind
    self.delivery = delivery
    self.callback = callback
    self.state = Locked.make(ObserverState(phase: kind == .oneShot ? .registering : .running))
  }

  // MARK: Notification

  /// Called by a registrar (or a transaction) after properties this observer read changed.
  func notify(_ keys: [TrackingKey]) {
    switch kind {
    case .oneShot: notifyOneShot(keys)
    case .continuous: notifyContinuous(keys)
    }
  }

  private func notifyOneShot(_ keys: [TrackingKey]) {
    let registrations = state.withLock { state -> [Registration]? in
      switch state.phase {
      case .registering, .running:
        state.phase = .finished
        state.collect(keys)
        return nil  // the registering thread delivers
      case .idle:
        state.phase = .finished
        return state.takeRegistrations()
      case .finished:
        return nil
      }
    }
    guard let registrations else { return }
    unregister(registrations)
    deliver(keys)
  }

  private func notifyContinuous(_ keys: [TrackingKey]) {
    let start = state.withLock { state -> Bool in
      switch state.phase {
      case .idle:
        state.phase = .running
        return true
      case .running, .registering:
        state.dirty = true
        state.collect(keys)
        return false
      case .finished:
        return false
      }
    }
    guard start else { return }
    delivery.perform { self.runContinuous(initialChanges: keys) }
  }

  private func deliver(_ keys: [TrackingKey]) {
    let callback = self.callback
    let changes = TrackingChanges(keys)
    delivery.perform { callback.function(changes) }
  }

  // MARK: One-shot

  /// Registers a one-shot observer for the reads of `scope`, or fires it at once when one of
  /// them changed before registration finished.
  func finishOneShotRegistration(_ scope: AccessScope) {
    var changed: [TrackingKey] = []
    let registrations = register(scope, changed: &changed)
    let fire = state.withLock { state -> [TrackingKey]? in
      if state.phase == .finished {
        return state.pendingKeys  // a concurrent write fired it meanwhile
      }
      if !changed.isEmpty {
        state.phase = .finished
        return changed
      }
      state.phase = .idle
      state.registrations = registrations
      return nil
    }
    guard let fire else { return }
    unregister(registrations)
    deliver(fire)
  }

  // MARK: Continuous

  /// Runs the body until it settles: after each run, re-records its dependencies and runs
  /// again if a change arrived meanwhile, up to ``TrackingDiagnostics/rerunLimit`` times in a
  /// row. The caller must have claimed the `running` phase.
  func runContinuous(initialChanges: [TrackingKey]) {
    var keys = initialChanges
    var reruns = 0
    while true {
      let callback = self.callback
      let changes = TrackingChanges(uniqueKeys: keys)
      let (_, scope) = AccessScope.run(mergingIntoParent: false) { callback.function(changes) }
      let changed = reconcile(scope)

      enum Next {
        case stop
        case cleanUp([Registration])
        case again([TrackingKey])
      }
      let next = state.withLock { state -> Next in
        if state.cancelled {
          state.phase = .finished
          return .cleanUp(state.takeRegistrations())
        }
        state.collect(changed)
        if state.dirty || !state.pendingKeys.isEmpty {
          state.dirty = false
          if reruns >= TrackingDiagnostics.rerunLimit {
            state.pendingKeys = []
            state.phase = .idle
            return .stop
          }
          defer { state.pendingKeys = [] }
          return .again(state.pendingKeys)
        }
        state.phase = .idle
        return .stop
      }
      switch next {
      case .stop:
        if reruns >= TrackingDiagnostics.rerunLimit { TrackingDiagnostics.reportRunaway() }
        return
      case .cleanUp(let registrations):
        unregister(registrations)
        return
      case .again(let pending):
        keys = pending
        reruns += 1
      }
    }
  }

  /// Replaces the registrations with the reads of `scope` and returns the keys that changed
  /// after they were read. Unchanged dependencies (the common case) take no lock unless a
  /// registrar saw a write meanwhile.
  private func reconcile(_ scope: AccessScope) -> [TrackingKey] {
    let groups = scope.groups()
    let old = state.withLock { $0.registrations }
    var changed: [TrackingKey] = []
    if Self.same(old, groups) {
      for group in groups {
        group.core.changes(in: group.records, into: &changed)
        group.core.releasePending(group.runCount)
      }
      return changed
    }
    unregister(old)
    let registrations = register(groups, changed: &changed)
    state.withLock { $0.registrations = registrations }
    return changed
  }

  private static func same(_ old: [Registration], _ groups: [AccessScope.Group]) -> Bool {
    guard old.count == groups.count else { return false }
    for (registration, group) in zip(old, groups) {
      guard registration.core === group.core, registration.ids == group.ids else { return false }
    }
    return true
  }

  // MARK: Cancellation

  /// Ends the observer. No callback starts after this returns, except a continuous run that
  /// another thread had already begun, which may finish.
  func cancel() {
    let registrations = state.withLock { state -> [Registration] in
      state.cancelled = true
      guard state.phase == .idle else {
        if state.phase != .finished && kind == .oneShot { state.phase = .finished }
        return []  // a runner cleans up when it sees `cancelled`
      }
      state.phase = .finished
      return state.takeRegistrations()
    }
    unregister(registrations)
  }

  var isCancelled: Bool { state.withLock { $0.cancelled } }

  // MARK: Registrars

  private func register(_ scope: AccessScope, changed: inout [TrackingKey]) -> [Registration] {
    register(scope.groups(), changed: &changed)
  }

  private func register(
    _ groups: [AccessScope.Group], changed: inout [TrackingKey]
  ) -> [Registration] {
    var registrations: [Registration] = []
    registrations.reserveCapacity(groups.count)
    for group in groups {
      group.core.register(
        self, ids: group.ids, records: group.records, runCount: group.runCount, changed: &changed)
      registrations.append(Registration(core: group.core, ids: group.ids))
    }
    return registrations
  }

  private func unregister(_ registrations: [Registration]) {
    for registration in registrations {
      registration.core?.unregister(self, ids: registration.ids)
    }
  }
}
