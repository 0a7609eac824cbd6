/// What a registrar knows about one property: who observes it and when it last changed.
struct PropertyEntry {
  /// The property's key identity.
  let id: UInt64
  /// The property's name and owner, refreshed by each recorded write.
  var info: TrackingKeyInfo?
  /// The registrar epoch of the last write recorded while the property's bit was set; zero
  /// if none. A read stamped with an epoch below this may have seen the old value.
  var lastWrite: UInt64
  /// The observers to notify when the property changes, each at most once.
  var observers: [ObserverCore]

  var key: TrackingKey { TrackingKey(id: id, info: info) }
}

/// The observers a write notifies, without an array for the common single observer.
enum ObserverList {
  case none
  case one(ObserverCore)
  case many([ObserverCore])

  var isEmpty: Bool {
    if case .none = self { return true }
    return false
  }

  /// Whether an observer's callback may read the changed properties' names. A single
  /// observer says; several are taken to: naming a property costs once, while asking each of
  /// them would cost a pass over the list at every write of a property nobody named (a value
  /// read by a thousand derived values, whose input links never read names).
  var anyReadsChanges: Bool {
    switch self {
    case .none: false
    case .one(let observer): observer.readsChanges
    case .many: true
    }
  }

  /// Calls `body` with each observer.
  @inline(__always)
  func forEach(_ body: (ObserverCore) -> Void) {
    switch self {
    case .none: break
    case .one(let observer): body(observer)
    case .many(let observers): for observer in observers { body(observer) }
    }
  }
}

/// The lock-protected part of a registrar: a pure state machine over its property entries.
///
/// Invariants (checked by `RegistrarStateTests`, and by ``checkInvariants(touching:)`` after
/// every registration under `ARBOREAL_INTERNAL_CHECKS`):
/// - at most one entry per property id;
/// - an observer appears at most once in an entry (observers deduplicate their own reads);
/// - `neededMask` has the bit of every entry that has observers (the registrar keeps those
///   bits set in its atomic mask).
///
/// A registrar rarely has more than a few dozen properties, so entries live in an array and
/// are found by a linear scan, which beats hashing at that size.
struct RegistrarState {
  private(set) var entries: [PropertyEntry] = []
  /// Names and owners of `@Tracked` properties, looked up once per property (never
  /// compacted: bounded by the model's property count, so a linear scan beats hashing).
  private var infos: [(id: UInt64, info: TrackingKeyInfo)] = []
  /// The model these properties belong to, made at the first change a `@Tracked` property
  /// reports.
  var owner: TrackingOwner?

  /// The cached name and owner of the `@Tracked` property `id`.
  func info(of id: UInt64) -> TrackingKeyInfo? {
    for entry in infos where entry.id == id { return entry.info }
    return nil
  }

  /// Caches the name and owner of the `@Tracked` property `id`, unless another thread did
  /// first, and returns the cached one.
  mutating func setInfo(_ info: TrackingKeyInfo, of id: UInt64) -> TrackingKeyInfo {
    if let cached = self.info(of: id) { return cached }
    infos.append((id, info))
    return info
  }

  /// The index of the entry for `id`.
  ///
  /// - Complexity: O(*p*) for *p* entries.
  func index(of id: UInt64) -> Int? {
    entries.firstIndex { $0.id == id }
  }

  /// Records a write of `key` at `epoch` and returns the observers to notify.
  ///
  /// One-shot observers fire on this change, so they are dropped from the entry here, in one
  /// pass, rather than one linear search each when they unregister. A lone observer (the
  /// common case) is returned inline and the entry keeps its array's capacity, so that
  /// registering again allocates nothing.
  ///
  /// - Parameter emptied: Set to true when the write took the entry's last observers (all
  ///   one-shots), so that its bit may be cleared.
  /// - Complexity: O(*p* + *o*) for *p* entries and *o* observers of the property.
  mutating func recordWrite(
    of key: TrackingKey, epoch: UInt64, emptied: inout Bool
  ) -> ObserverList {
    guard let index = index(of: key.id) else {
      entries.append(PropertyEntry(id: key.id, info: key.info, lastWrite: epoch, observers: []))
      return .none
    }
    entries[index].lastWrite = epoch
    // Compared first: the same shared name (the usual case) needs no retain and release.
    if entries[index].info !== key.info { entries[index].info = key.info }
    switch entries[index].observers.count {
    case 0:
      return .none
    case 1:
      let observer = entries[index].observers[0]
      if observer.kind == .oneShot {
        // `removeLast`, not `removeAll(keepingCapacity:)`: both keep the capacity, but the
        // latter goes through a generic range replacement.
        entries[index].observers.removeLast()
        emptied = true
      }
      return .one(observer)
    default:
      guard entries[index].observers.contains(where: { $0.kind == .oneShot }) else {
        return .many(entries[index].observers)
      }
      var observers: [ObserverCore] = []
      swap(&observers, &entries[index].observers)
      if observers.contains(where: { $0.kind != .oneShot }) {
        entries[index].observers = observers.filter { $0.kind != .oneShot }
      } else {
        emptied = true
      }
      return .many(observers)
    }
  }

  /// Sets the name and owner of the entry of `key`, found after its write was recorded.
  mutating func rename(_ key: TrackingKey) {
    guard let index = index(of: key.id) else { return }
    entries[index].info = key.info
  }

  /// The key of `id` if it was written after a read stamped `epoch`.
  func changed(_ id: UInt64, since epoch: UInt64) -> TrackingKey? {
    guard let index = index(of: id), entries[index].lastWrite > epoch else { return nil }
    return entries[index].key
  }

  /// Adds `observer` to the entry of `id`, creating the entry if needed.
  mutating func add(_ observer: ObserverCore, to id: UInt64) {
    if let index = index(of: id) {
      entries[index].observers.append(observer)
    } else {
      entries.append(PropertyEntry(id: id, info: nil, lastWrite: 0, observers: [observer]))
    }
  }

  /// Removes `observer` from the entry of `id`, if present.
  ///
  /// - Complexity: O(*p* + *o*) for *p* entries and *o* observers of that property.
  mutating func remove(_ observer: ObserverCore, from id: UInt64) {
    guard let index = index(of: id),
      let position = entries[index].observers.firstIndex(where: { $0 === observer })
    else { return }
    entries[index].observers.swapAt(position, entries[index].observers.count - 1)
    entries[index].observers.removeLast()
  }

  /// How many entries have observers.
  var observedEntryCount: Int { entries.reduce(0) { $0 + ($1.observers.isEmpty ? 0 : 1) } }

  /// The mask bits that observers still need.
  var neededMask: UInt64 {
    var mask: UInt64 = 0
    for entry in entries where !entry.observers.isEmpty { mask |= 1 &<< (entry.id & 63) }
    return mask
  }

  /// Forgets entries without observers. Only valid when no tracking scope is between a read
  /// of this registrar and its registration (their write history may be needed). Empty
  /// entries are harmless otherwise: writes that reach the lock update them.
  mutating func compact() {
    entries.removeAll { $0.observers.isEmpty }
  }

  #if ARBOREAL_INTERNAL_CHECKS
    /// Asserts the invariants when built with `-DARBOREAL_INTERNAL_CHECKS`; does nothing
    /// otherwise. Bounded, so that a check after every registration does not make a fan-out
    /// quadratic: entries are compared pairwise while there are at most 64 (a model has a few
    /// dozen properties), and an observer is looked for twice only in the entries of `ids`
    /// with at most 64 observers.
    @inline(never)
    func checkInvariants(touching ids: some Sequence<UInt64>) {
      if entries.count <= 64 {
        for first in entries.indices {
          for second in entries.indices where second > first {
            precondition(
              entries[first].id != entries[second].id, "RegistrarState: two entries of one id")
          }
        }
      }
      for id in ids {
        guard let index = index(of: id), entries[index].observers.count <= 64 else { continue }
        let observers = entries[index].observers
        for first in observers.indices {
          for second in observers.indices where second > first {
            precondition(
              observers[first] !== observers[second],
              "RegistrarState: an observer registered twice for one property")
          }
        }
      }
    }
  #else
    /// Does nothing: the checks are built with `-DARBOREAL_INTERNAL_CHECKS`.
    @inline(__always)
    func checkInvariants(touching ids: some Sequence<UInt64>) {}
  #endif

  /// The number of (property, observer) registrations, for tests.
  var registrationCount: Int { entries.reduce(0) { $0 + $1.observers.count } }
}
