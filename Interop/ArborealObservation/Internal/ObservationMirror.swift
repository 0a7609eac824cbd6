import ArborealTracking
import Observation
import Synchronization

/// Forwards a mirrored `TrackingRegistrar`'s reads and changes to an `ObservationRegistrar`.
///
/// `ObservationRegistrar` names a property by a key path of an `Observable` subject. The
/// subject here is the mirror itself, not the model: `Observation` records reads and fires
/// changes by registrar and key path, and never uses the subject otherwise, so one mirror per
/// model with a key path per `TrackingKey` (`\ObservationMirror.[property: key]`, equal for
/// equal keys) gives per-property precision without knowing the model's type or holding it.
///
/// Key paths with an argument are allocated when formed, so each key's is formed once and
/// cached: in ``KeyPathSlots`` (read without a lock), or, for a model with more properties
/// than it has slots, in a dictionary behind a lock.
final class ObservationMirror: TrackingMirror, Observable {
  private let registrar = ObservationRegistrar()
  private let slots = KeyPathSlots()
  /// The key paths that found no free slot; also where `slots` is filled from, under the lock.
  private let overflow = Locked<[TrackingKey: KeyPath<ObservationMirror, Void>]>.make([:])

  /// The subscript the key paths name; reading it does nothing.
  subscript(property key: TrackingKey) -> Void { () }

  /// Forms `key`'s key path the first time (or finds it in the overflow), under the lock.
  @inline(never)
  private func formKeyPath(for key: TrackingKey) -> KeyPath<ObservationMirror, Void> {
    overflow.withLock { cache in
      if let keyPath = slots.keyPath(for: key.mirrorID)?.takeUnretainedValue() ?? cache[key] {
        return keyPath
      }
      let keyPath = \ObservationMirror.[property: key]
      if !slots.insert(keyPath, for: key.mirrorID) { cache[key] = keyPath }
      return keyPath
    }
  }

  func trackingMirrorDidAccess(_ key: TrackingKey) {
    // Borrowed from the slot, which keeps it as long as the mirror lives: no retain.
    if let slotted = slots.keyPath(for: key.mirrorID) {
      slotted._withUnsafeGuaranteedRef { registrar.access(self, keyPath: $0) }
    } else {
      registrar.access(self, keyPath: formKeyPath(for: key))
    }
  }

  func trackingMirrorDidChange(_ key: TrackingKey) {
    // The value is already stored: `willSet` observers (`withObservationTracking`'s
    // `onChange`) and `didSet` observers (`Observations`) both see the new value. The key
    // path is borrowed from its slot, as for a read: no retain.
    if let slotted = slots.keyPath(for: key.mirrorID) {
      slotted._withUnsafeGuaranteedRef { keyPath in
        registrar.willSet(self, keyPath: keyPath)
        registrar.didSet(self, keyPath: keyPath)
      }
    } else {
      let keyPath = formKeyPath(for: key)
      registrar.willSet(self, keyPath: keyPath)
      registrar.didSet(self, keyPath: keyPath)
    }
  }
}

/// A fixed table from property ids to their key paths that readers search without a lock.
///
/// ## Data
/// `ids[i]` is 0 while slot `i` is free, else the id plus one of the property whose key path
/// is `paths[i]`. A property's first slot is `id % capacity`; it goes in the first free slot
/// from there (linear probing). A model's properties take consecutive ids, so they rarely
/// collide.
///
/// ## Invariants
/// - Slots are only filled, never emptied or changed, and only under the mirror's lock (one
///   writer at a time): a writer stores `paths[i]`, then `ids[i]` with release ordering; a
///   reader loads `ids[i]` with acquire ordering, so a slot whose id it sees has its path.
/// - A search stops at the first free slot: since slots are never emptied, a key not found
///   before it is in no slot.
///
/// Why `@unchecked Sendable` holds: `ids` are atomics, and each `paths[i]` is written once,
/// before its id is published, and only read after the id is seen (the ordering above).
private final class KeyPathSlots: @unchecked Sendable {
  static let capacity = 16
  private let ids: UnsafeMutablePointer<Atomic<UInt64>>
  /// Retained while the table lives (released by `deinit`); meaningful where `ids` is set.
  private let paths: UnsafeMutablePointer<Unmanaged<KeyPath<ObservationMirror, Void>>>

  init() {
    ids = .allocate(capacity: Self.capacity)
    paths = .allocate(capacity: Self.capacity)
    for index in 0..<Self.capacity {
      (ids + index).initialize(to: Atomic(0))
    }
  }

  deinit {
    for index in 0..<Self.capacity where ids[index].load(ordering: .acquiring) != 0 {
      paths[index].release()
    }
    ids.deinitialize(count: Self.capacity)
    ids.deallocate()
    paths.deallocate()
  }

  /// The key path of property `id`, if a slot holds it, unretained: the table keeps it until
  /// it is released, so a caller that holds the mirror may borrow it. No lock: a few loads.
  @inline(__always)
  func keyPath(for id: UInt64) -> Unmanaged<KeyPath<ObservationMirror, Void>>? {
    let wanted = id &+ 1
    var index = Int(truncatingIfNeeded: id % UInt64(Self.capacity))
    for _ in 0..<Self.capacity {
      let seen = ids[index].load(ordering: .acquiring)
      if seen == wanted { return paths[index] }
      if seen == 0 { return nil }
      index = (index + 1) % Self.capacity
    }
    return nil
  }

  /// Puts `keyPath` in the first free slot for `id`; false when every slot is taken. Called
  /// under the mirror's lock, for an id no slot holds.
  func insert(_ keyPath: KeyPath<ObservationMirror, Void>, for id: UInt64) -> Bool {
    var index = Int(truncatingIfNeeded: id % UInt64(Self.capacity))
    for _ in 0..<Self.capacity {
      if ids[index].load(ordering: .relaxed) == 0 {
        (paths + index).initialize(to: Unmanaged.passRetained(keyPath))
        ids[index].store(id &+ 1, ordering: .releasing)
        return true
      }
      index = (index + 1) % Self.capacity
    }
    return false
  }
}
