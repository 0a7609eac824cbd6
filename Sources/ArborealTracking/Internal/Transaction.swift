/// The notifications collected by an open ``withTransaction(_:)`` on one thread.
///
/// Each observer appears once, in the order it was first affected, with every key that
/// changed for it. Invariant: used only by its thread (one per thread, owned by its
/// `ThreadContext`). `deliver()` empties it before notifying, so a transaction opened by an
/// observer during delivery starts empty.
final class Transaction {
  // Thread-owned, so the dynamic exclusivity checks are switched off.
  @exclusivity(unchecked) private var observers: [ObserverCore] = []
  @exclusivity(unchecked) private var keys: [ObjectIdentifier: SmallList<TrackingKey>] = [:]

  /// Adds a change of `key` for each of `observers`.
  func add(_ observers: [ObserverCore], key: TrackingKey) {
    for observer in observers {
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

  /// Notifies every collected observer once. Called after the transaction is closed, so
  /// writes made by observers notify on their own.
  func deliver() {
    guard !observers.isEmpty else { return }
    // Moved out, not copied: the transaction is empty before any observer runs.
    var observers: [ObserverCore] = []
    var keys: [ObjectIdentifier: SmallList<TrackingKey>] = [:]
    swap(&observers, &self.observers)
    swap(&keys, &self.keys)
    for observer in observers {
      observer.notify(TrackingChanges(uniqueKeys: keys[ObjectIdentifier(observer)] ?? SmallList()))
    }
  }
}
