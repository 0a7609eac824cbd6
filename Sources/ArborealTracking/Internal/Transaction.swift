/// The notifications collected by an open ``withTransaction(_:)`` on one thread.
///
/// ## Data
/// - `observers` / `keys`: each observer appears once, in the order it was first affected,
///   with every key that changed for it.
/// - `writes`: one entry per property (registrar and key) written while the transaction was
///   open, in first-write order, with the values of its first and last writes when every
///   write kept them (see ``StartValue``) and the one-shot observers that its registrar
///   handed over (registrars drop one-shot observers from an entry when it is written).
/// - `writeIndex`: the position of each write, built once `writes` outgrows a linear scan.
///
/// ## Net change
/// When the transaction closes, a property whose value before its first write equals the value
/// its last write stored is no change: its key is removed from every observer's set, an observer
/// left with no key is not notified, and the one-shot observers it took from the registrar
/// are put back. Registrars have already recorded the write (its epoch), which only makes a
/// concurrent registration on another thread cautious: it may fire for a value that came
/// back, never miss one that did not.
///
/// Invariant: used only by its thread (one per thread, owned by its `ThreadContext`), which is
/// why it needs no lock. `deliver()` empties it before notifying, so a transaction opened by
/// an observer during delivery starts empty.
final class Transaction {
  struct Write {
    let core: RegistrarCore
    let id: UInt64
    /// The first and the last write's values; nil once a write kept none (it then counts as
    /// a change).
    var first: StartValue?
    var last: StartValue?
    var removedOneShots: [ObserverCore] = []
  }

  struct WriteID: Hashable {
    let core: ObjectIdentifier
    let id: UInt64
  }

  // Thread-owned, so the dynamic exclusivity checks are switched off.
  @exclusivity(unchecked) private var observers: [ObserverCore] = []
  @exclusivity(unchecked) private var keys: [ObjectIdentifier: SmallList<TrackingKey>] = [:]
  @exclusivity(unchecked) private var writes: [Write] = []
  @exclusivity(unchecked) private var writeIndex: [WriteID: Int] = [:]

  /// Past this many writes, they are found through `writeIndex` instead of a scan.
  private static let scanLimit = 16

  /// The position in `writes` of the write of property `id` of `core`.
  ///
  /// - Complexity: O(1) expected.
  private func position(of core: RegistrarCore, id: UInt64) -> Int? {
    if writes.count <= Self.scanLimit {
      for index in writes.indices where writes[index].id == id && writes[index].core === core {
        return index
      }
      return nil
    }
    if writeIndex.count != writes.count {
      for index in writeIndex.count..<writes.count {
        writeIndex[WriteID(core: ObjectIdentifier(writes[index].core), id: writes[index].id)] =
          index
      }
    }
    return writeIndex[WriteID(core: ObjectIdentifier(core), id: id)]
  }

  /// Adds a write of `key` of `core` and a change of `key` for each of `observers`.
  ///
  /// - Parameter write: The write's values, or nil when it kept none.
  func add(
    _ observers: ObserverList, key: TrackingKey, core: RegistrarCore, write: StartValue?
  ) {
    let position: Int
    if let existing = self.position(of: core, id: key.id) {
      position = existing
      if writes[position].first != nil {
        if let write {
          writes[position].last = write
        } else {
          writes[position].first = nil
          writes[position].last = nil
        }
      }
    } else {
      position = writes.count
      writes.append(Write(core: core, id: key.id, first: write, last: write))
    }
    observers.forEach { observer in
      if observer.kind == .oneShot { writes[position].removedOneShots.append(observer) }
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
        writes.removeAll(keepingCapacity: true)
        writeIndex.removeAll(keepingCapacity: true)
      }
      return
    }
    // Moved out, not copied: the transaction is empty before any user code runs (the
    // comparisons call `==`).
    var observers: [ObserverCore] = []
    var keys: [ObjectIdentifier: SmallList<TrackingKey>] = [:]
    var writes: [Write] = []
    swap(&observers, &self.observers)
    swap(&keys, &self.keys)
    swap(&writes, &self.writes)
    writeIndex.removeAll(keepingCapacity: true)

    var unchanged = Set<UInt64>()
    for write in writes {
      guard let first = write.first, let last = write.last, first.isUnchanged(endingWith: last)
      else { continue }
      unchanged.insert(write.id)
      for observer in write.removedOneShots { observer.restore(in: write.core, id: write.id) }
    }
    ThreadContext.current.derived.notifying {
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
