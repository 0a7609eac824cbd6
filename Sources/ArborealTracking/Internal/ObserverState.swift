/// The lock-protected state of an observer.
///
/// Phases: `registering` (a one-shot's first scope is being registered), `queued` (a
/// continuous observer's run is enqueued in its isolation and has not started) or `running`
/// (its body is running, or about to run on this thread) admit exactly one runner;
/// notifications that arrive meanwhile set `dirty` and collect `pendingKeys`. `idle` waits
/// for a change. `finished` is final: a one-shot that fired, or a cancelled observer.
///
/// Cancellation: from `idle` or `queued` it finishes the observer at once (a queued run finds
/// it finished and never calls the body); from `running` it sets `cancelled`, and the runner
/// finishes the observer when the body returns, without running it again.
///
/// Invariant: a `finished` observer has no registrations once its lock is released
/// (``checkInvariants()``, asserted by every trip through the lock when built with
/// `-DARBOREAL_INTERNAL_CHECKS`).
struct ObserverState {
  enum Phase { case registering, queued, running, idle, finished }
  var phase: Phase
  var cancelled = false
  /// Whether any change reached the observer (for the released-too-early diagnostic).
  var notified = false
  var dirty = false
  var pendingKeys = SmallList<TrackingKey>()
  /// Owned by the runner while `running` or `registering`, by the state otherwise. Holds no
  /// registrar of `gone` whenever it is read (``forgetGone()`` first).
  var registrations = Registrations.none
  /// Registrars of a long `registrations` list that went (their `deinit` told this observer),
  /// not yet taken out of it: taken out in one pass when the list is next used, so that the
  /// models of a value over n of them, released one by one, cost O(n) in all rather than a
  /// scan of the list each (O(n²)). Empty whenever `registrations` is read or replaced.
  var gone: [ObjectIdentifier] = []

  /// A registrar in `registrations` is being deinitialised: forgets it, at once for a short
  /// list, else in ``forgetGone()``.
  mutating func registrarWillDeinit(_ identity: ObjectIdentifier) {
    guard let list = registrations.many, list.count > Self.shortList else {
      registrations = registrations.removing(identity)
      return
    }
    gone.append(identity)
  }

  /// Lists up to this long forget a registrar that goes at once.
  static let shortList = 16

  /// Takes the registrars in `gone` out of `registrations`, in one pass. Call before reading
  /// or replacing `registrations` (no new registration is stored before: a registrar made
  /// since at the address of one that went is never mistaken for it).
  mutating func forgetGone() {
    guard !gone.isEmpty else { return }
    registrations = registrations.removing(addresses: Set(gone.lazy.map { UInt(bitPattern: $0) }))
    gone.removeAll()
  }

  mutating func collect(_ keys: SmallList<TrackingKey>) {
    if keys.isEmpty { return }
    if pendingKeys.isEmpty {
      pendingKeys = keys
      return
    }
    for key in keys where !pendingKeys.contains(key) { pendingKeys.append(key) }
  }

  mutating func collect(_ changes: TrackingChanges) {
    collect(changes.keyList)
  }

  #if ARBOREAL_INTERNAL_CHECKS
    /// Asserts that a finished observer is registered nowhere: whoever finishes it unregisters
    /// it in the same trip through its lock (or, for a one-shot that fired while registering,
    /// before its registrations are stored).
    @inline(never)
    func checkInvariants() {
      guard phase == .finished else { return }
      guard registrations.isNone, gone.isEmpty else {
        preconditionFailure("ObserverState: a finished observer is still registered")
      }
    }
  #else
    /// Does nothing: the checks are built with `-DARBOREAL_INTERNAL_CHECKS`.
    @inline(__always)
    func checkInvariants() {}
  #endif

  /// Takes the collected keys as a set of changes.
  mutating func takePendingChanges() -> TrackingChanges {
    defer { pendingKeys.removeAll() }
    return TrackingChanges(uniqueKeys: pendingKeys)
  }

  /// Removes every registration from its registrar. Called under the observer's lock.
  ///
  /// - Parameters:
  ///   - core: The registrar whose write fired a one-shot observer, if any (see
  ///     ``Registrations/unregister(_:firedBy:id:)``).
  ///   - id: The property that write changed.
  mutating func unregisterAll(
    _ observer: ObserverCore, firedBy core: RegistrarCore? = nil, id: UInt64 = 0
  ) {
    forgetGone()
    registrations.unregister(observer, firedBy: core, id: id)
    registrations = .none
  }
}

/// Where an observer was registered: `fileID:line`.
struct ObserverOrigin: Sendable, CustomStringConvertible {
  let fileID: StaticString
  let line: UInt

  var description: String { "\(fileID):\(line)" }
}
