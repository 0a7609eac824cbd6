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
/// ## Delivery in two phases
/// Derived values' input links are notified first, in one batch: they mark the graph, and the
/// observed derived values are refreshed when the batch ends, while this thread collects
/// again (`isInTransaction`), so that the changes those refreshes report land here. Then every
/// other observer is notified once, of the properties written and the derived values that
/// changed together: an observer that reads a property and a value derived from it runs once
/// per transaction, never once for the property and again for the value.
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
    context.bundlingDeliveries {
      deliver(observers, keys, unchanged, in: context)
    }
  }

  /// The two phases of `deliver()`.
  private func deliver(
    _ observers: [ObserverCore], _ keys: [ObjectIdentifier: SmallList<TrackingKey>],
    _ unchanged: Set<UInt64>, in context: ThreadContext
  ) {
    var observers = observers
    var keys = keys
    if observers.contains(where: { $0.kind == .input }) {
      // Phase one: the input links, collecting the changes of the values they refresh.
      context.isInTransaction = true
      context.derived.notifying {
        for observer in observers where observer.kind == .input {
          guard let changed = netKeys(of: observer, keys, unchanged) else { continue }
          observer.notify(TrackingChanges(uniqueKeys: changed))
        }
      }
      context.isInTransaction = false
      takeCollected(into: &observers, &keys)
    }
    // Phase two: every other observer, once.
    context.derived.notifying {
      for observer in observers where observer.kind != .input {
        guard let changed = netKeys(of: observer, keys, unchanged) else { continue }
        observer.notify(TrackingChanges(uniqueKeys: changed))
      }
    }
  }

  /// The keys that changed on balance for `observer`, or nil when none did.
  private func netKeys(
    of observer: ObserverCore, _ keys: [ObjectIdentifier: SmallList<TrackingKey>],
    _ unchanged: Set<UInt64>
  ) -> SmallList<TrackingKey>? {
    var changed = keys[ObjectIdentifier(observer)] ?? SmallList()
    if !unchanged.isEmpty { changed.removeAll { unchanged.contains($0.id) } }
    return changed.isEmpty ? nil : changed
  }

  /// Moves what this transaction collected during a delivery's first phase (the changes of
  /// the derived values the input links refreshed) into `observers` and `keys`, and empties
  /// it. Those changes kept no values (a derived value's change is a change).
  private func takeCollected(
    into observers: inout [ObserverCore], _ keys: inout [ObjectIdentifier: SmallList<TrackingKey>]
  ) {
    guard !self.observers.isEmpty || !writes.isEmpty else { return }
    for observer in self.observers {
      let identity = ObjectIdentifier(observer)
      let collected = self.keys[identity] ?? SmallList()
      if var existing = keys[identity] {
        for key in collected where !existing.contains(key) { existing.append(key) }
        keys[identity] = existing
      } else {
        keys[identity] = collected
        observers.append(observer)
      }
    }
    self.observers.removeAllKeepingStorage()
    self.keys.removeAll(keepingCapacity: true)
    writes.removeAll()
    cores.removeAllKeepingStorage()
    removedOneShots.removeAllKeepingStorage()
  }
}
