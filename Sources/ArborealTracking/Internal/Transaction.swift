/// The notifications collected by an open ``withTransaction(_:)`` on one thread.
///
/// ## Data
/// - `observers` / `keys`: each observer appears once, in the order it was first affected,
///   with every key that changed for it.
/// - `removedOneShots`: the one-shot observers that registrars handed over with a write
///   (registrars drop one-shot observers from an entry when it is written), with the property.
/// - The writes themselves, with their net changes, are the thread's ``WriteLog``: the
///   transaction is a span of it, opened by ``open(_:)`` and closed by ``deliver(_:)``.
///
/// ## Net change
/// When the transaction closes, a property that ends as it began (see ``WriteLog``) is no
/// change: its key is removed from every observer's set, an observer left with no key is not
/// notified, and the one-shot observers it took from the registrar are put back. Registrars
/// have already recorded the write (its epoch), which only makes a concurrent registration on
/// another thread cautious: it may fire for a value that came back, never miss one that did
/// not.
///
/// ## One run per observer
/// The delivery runs as one ``ThreadContext/delivering(_:)``: derived values' input links
/// mark the graph at once (on the new engine, a value only properties set back marked is
/// clean again first, see `DerivedContext.settleTransactionMarks(endingIn:)`), the observed
/// derived values are refreshed when the notification loop ends, and every other observer's run waits until then, so that it runs once, told of
/// the properties written and of the derived values that changed together.
///
/// Invariant: used only by its thread (one per thread, owned by its `ThreadContext`), which is
/// why it needs no lock. `deliver(_:)` empties it before notifying, so a transaction opened by
/// an observer during delivery starts empty.
final class Transaction {
  // Thread-owned, so the dynamic exclusivity checks are switched off.
  @exclusivity(unchecked) private var observers: [ObserverCore] = []
  @exclusivity(unchecked) private var keys: [ObjectIdentifier: SmallList<TrackingKey>] = [:]
  @exclusivity(unchecked) private var removedOneShots:
    [(core: RegistrarCore, id: UInt64, observers: [ObserverCore])] = []

  /// Whether no observer waits to be notified (nor one-shot observer to be put back, which a
  /// write hands over with its observers): closing notifies nobody.
  var isIdle: Bool { observers.isEmpty }

  /// Opens the transaction's span of the thread's write log.
  @inline(__always)
  func open(_ context: ThreadContext) {
    context.writes.openTransaction()
    #if ARBOREAL_NEW_DERIVED
      // Before any write of the transaction: a result stored by then read none of them.
      context.derived.transactionSince = DerivedGraph.storedResultsNow
    #endif
  }

  /// Adds a change of `key` of `core` for each of `observers`. (The write itself is in the
  /// thread's write log.)
  func add(_ observers: ObserverList, key: TrackingKey, core: RegistrarCore) {
    observers.forEach { observer in
      if observer.kind == .oneShot { handOver(observer, key: key, core: core) }
      let identity = ObjectIdentifier(observer)
      if var existing = keys[identity] {
        if !existing.contains(key) {
          existing.append(key)
          keys[identity] = existing
        }
      } else {
        keys[identity] = SmallList(key)
        self.observers.append(observer)
      }
    }
  }

  /// Keeps a one-shot observer that `core` handed over with a write of `key`, to put back if
  /// the property ends unchanged.
  private func handOver(_ observer: ObserverCore, key: TrackingKey, core: RegistrarCore) {
    if let position = removedOneShots.firstIndex(where: { $0.core === core && $0.id == key.id }) {
      removedOneShots[position].observers.append(observer)
    } else {
      removedOneShots.append((core, key.id, [observer]))
    }
  }

  /// Closes the transaction's span of `context`'s write log and notifies every collected
  /// observer once, of the properties that changed on balance. Called after the transaction is
  /// closed, so writes made by observers notify on their own.
  func deliver(_ context: ThreadContext) {
    #if ARBOREAL_NEW_DERIVED
      // The writes marked the new engine's graph as they happened (see `RegistrarCore`'s
      // `report`). Values that only properties set back marked are clean again, while the
      // write log still says which came back; the observed values are refreshed below, once.
      context.derived.settleTransactionMarks(endingIn: context)
      defer { context.derived.flushGraphIfPending() }
    #endif
    guard !observers.isEmpty else {
      // No observer to notify, so no one-shot observer taken either (a write hands its
      // one-shots over with the observers): close the span without comparing anything. The
      // usual end of a send whose state nobody observes.
      context.writes.close()
      return
    }
    // Moved out, not copied: the transaction is empty before any user code runs.
    var observers: [ObserverCore] = []
    var keys: [ObjectIdentifier: SmallList<TrackingKey>] = [:]
    var removedOneShots: [(core: RegistrarCore, id: UInt64, observers: [ObserverCore])] = []
    swap(&observers, &self.observers)
    swap(&keys, &self.keys)
    swap(&removedOneShots, &self.removedOneShots)

    var unchanged = Set<UInt64>()
    // Stored fields read one by one: a copy of the entry would copy its values too.
    for position in context.writes.innermost where !context.writes.entries[position].changed {
      unchanged.insert(context.writes.entries[position].key.id)
    }
    for handed in removedOneShots
    where context.writes.isUnchanged(
      Unmanaged.passUnretained(handed.core).toOpaque(), id: handed.id)
    {
      for observer in handed.observers { observer.restore(in: handed.core, id: handed.id) }
    }
    context.writes.close()
    context.delivering {
      context.derived.notifying {
        for observer in observers {
          var changed = keys[ObjectIdentifier(observer)] ?? SmallList()
          if !unchanged.isEmpty {
            changed.removeAll { unchanged.contains($0.id) }
            if changed.isEmpty { continue }
          }
          observer.notify(TrackingChanges(uniqueKeys: changed))
        }
      }
    }
  }
}
