/// The notifications collected by an open ``withTransaction(_:)`` on one thread.
///
/// ## Data
/// - `observers` / `keys`: each observer appears once, in the order it was first affected,
///   with every key that changed for it.
/// - `writes`: one entry per property (registrar and key) written while the transaction was
///   open, in first-write order, with the values of its first and last writes (``NetWrites``,
///   shared with change recordings); `cores` and `removedOneShots` beside it, by position: the
///   property's registrar and the one-shot observers that the registrar handed over
///   (registrars drop one-shot observers from an entry when it is written).
///
/// ## Net change
/// When the transaction closes, a property that ends as it began (see ``NetWrites``) is no
/// change: its key is removed from every observer's set, an observer left with no key is not
/// notified, and the one-shot observers it took from the registrar are put back. Registrars
/// have already recorded the write (its epoch), which only makes a concurrent registration on
/// another thread cautious: it may fire for a value that came back, never miss one that did
/// not.
///
/// ## One run per observer
/// The delivery runs as one ``ThreadContext/delivering(_:)``: derived values' input links
/// mark the graph at once, the observed derived values are refreshed when the notification
/// loop ends, and every other observer's run waits until then, so that it runs once, told of
/// the properties written and of the derived values that changed together.
///
/// Invariant: used only by its thread (one per thread, owned by its `ThreadContext`), which is
/// why it needs no lock. `deliver()` empties it before notifying, so a transaction opened by
/// an observer during delivery starts empty. `cores` and `removedOneShots` have one element
/// per entry of `writes`.
final class Transaction {
  // Thread-owned, so the dynamic exclusivity checks are switched off.
  @exclusivity(unchecked) private var observers: [ObserverCore] = []
  @exclusivity(unchecked) private var keys: [ObjectIdentifier: SmallList<TrackingKey>] = [:]
  @exclusivity(unchecked) private var writes = NetWrites()
  @exclusivity(unchecked) private var cores: [RegistrarCore] = []
  @exclusivity(unchecked) private var removedOneShots: [[ObserverCore]] = []

  /// Adds a write of `key` of `core` and a change of `key` for each of `observers`.
  ///
  /// - Parameter write: The write's values, or nil when it kept none.
  func add(
    _ observers: ObserverList, key: TrackingKey, core: RegistrarCore, write: WriteValues?
  ) {
    let (position, isNew) = writes.add(
      NetWrites.Property(registrar: ObjectIdentifier(core), id: key.id), write: write)
    if isNew {
      cores.append(core)
      removedOneShots.append([])
    }
    observers.forEach { observer in
      if observer.kind == .oneShot { removedOneShots[position].append(observer) }
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

  /// Notifies every collected observer once, of the properties that changed on balance.
  /// Called after the transaction is closed, so writes made by observers notify on their own.
  func deliver() {
    guard !observers.isEmpty else {
      // No observer to notify, so no one-shot observer taken either (a write hands its
      // one-shots over with the observers): forget the writes, keeping the storage, without
      // comparing any value. The usual end of a logged send whose state nobody observes.
      if !writes.isEmpty {
        writes.removeAll()
        cores.removeAllKeepingStorage()
        removedOneShots.removeAllKeepingStorage()
      }
      return
    }
    // Moved out, not copied: the transaction is empty before any user code runs (the
    // comparisons call `==`).
    var observers: [ObserverCore] = []
    var keys: [ObjectIdentifier: SmallList<TrackingKey>] = [:]
    var writes = NetWrites()
    var cores: [RegistrarCore] = []
    var removedOneShots: [[ObserverCore]] = []
    swap(&observers, &self.observers)
    swap(&keys, &self.keys)
    swap(&writes, &self.writes)
    swap(&cores, &self.cores)
    swap(&removedOneShots, &self.removedOneShots)

    var unchanged = Set<UInt64>()
    for position in writes.entries.indices where writes.isUnchanged(at: position) {
      let id = writes.entries[position].property.id
      unchanged.insert(id)
      for observer in removedOneShots[position] { observer.restore(in: cores[position], id: id) }
    }
    let context = ThreadContext.current
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
