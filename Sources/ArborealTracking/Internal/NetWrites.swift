/// The writes of one span (a transaction, a change recording), one entry per property in
/// first-write order, with the values of the property's first and last writes: what decides
/// the span's net changes, for ``Transaction`` and for change recordings alike.
///
/// ## Net change
/// A property whose value before its first write in the span equals the value its last write
/// stored is no change (set and set back). Each write may keep its values (``WriteValues``);
/// once one of a property's writes kept none (an in-place edit of a collection, a hand-written
/// accessor), the property counts as changed whatever the others kept.
///
/// ## Data
/// - `entries`: one per property, in first-write order; `ends` holds the first write's and the
///   last write's values, or nil once a write kept none.
/// - `index`: the position of each entry by property, built once there are more than
///   `scanLimit` entries (a span usually writes a handful of properties, which a scan finds
///   faster than a hash).
///
/// Invariants: at most one entry per property; `index` maps the properties of a prefix of
/// `entries` (all of them once it is used) to their positions. ``checkInvariants()`` asserts
/// them after every write when built with `-DARBOREAL_INTERNAL_CHECKS`.
struct NetWrites {
  /// A property of a model: its registrar and its key's identity.
  struct Property: Hashable {
    let registrar: ObjectIdentifier
    let id: UInt64
  }

  struct Entry {
    let property: Property
    var ends: (first: WriteValues, last: WriteValues)?
  }

  private(set) var entries: [Entry] = []
  private var index: [Property: Int] = [:]
  private static let scanLimit = 16

  var isEmpty: Bool { entries.isEmpty }

  /// Records a write of `property`, with its values when it kept them, and returns the
  /// position of the property's entry; `isNew` tells whether the entry was just made.
  ///
  /// - Complexity: O(1) expected.
  @discardableResult
  mutating func add(_ property: Property, write: WriteValues?) -> (position: Int, isNew: Bool) {
    if let position = position(of: property) {
      if let ends = entries[position].ends {
        entries[position].ends = write.map { (ends.first, $0) }
      }
      return (position, false)
    }
    entries.append(Entry(property: property, ends: write.map { ($0, $0) }))
    checkInvariants()
    return (entries.count - 1, true)
  }

  /// Whether the property at `position` ends the span with the value it had before its first
  /// write in it. Runs the values' `==`.
  func isUnchanged(at position: Int) -> Bool {
    guard let ends = entries[position].ends else { return false }
    return ends.first.isUnchanged(endingWith: ends.last)
  }

  /// The properties that end the span as they began it.
  func unchangedProperties() -> Set<Property> {
    var unchanged = Set<Property>()
    for position in entries.indices where isUnchanged(at: position) {
      unchanged.insert(entries[position].property)
    }
    return unchanged
  }

  /// Forgets every write, keeping the storage.
  mutating func removeAll() {
    entries.removeAllKeepingStorage()
    if !index.isEmpty { index.removeAll(keepingCapacity: true) }
  }

  /// Asserts the invariants when built with `-DARBOREAL_INTERNAL_CHECKS`, for spans of up to
  /// 64 properties (a larger one would make the checked build quadratic); does nothing
  /// otherwise. O(*p*) for *p* properties.
  func checkInvariants() {
    #if ARBOREAL_INTERNAL_CHECKS
      guard entries.count <= 64 else { return }
      precondition(
        Set(entries.map(\.property)).count == entries.count,
        "NetWrites: two entries for one property")
      precondition(index.count <= entries.count, "NetWrites: the index has more than entries")
      for (property, position) in index {
        precondition(
          position < index.count && entries[position].property == property,
          "NetWrites: the index names the wrong entry")
      }
    #endif
  }

  /// The position of the entry of `property`.
  private mutating func position(of property: Property) -> Int? {
    if entries.count <= Self.scanLimit {
      for position in entries.indices where entries[position].property == property {
        return position
      }
      return nil
    }
    if index.count != entries.count {
      for position in index.count..<entries.count {
        index[entries[position].property] = position
      }
    }
    return index[property]
  }
}

extension Array {
  /// Removes every element and keeps the storage. A short array (a scope's runs, a frame's
  /// record) is emptied one element at a time: `removeAll(keepingCapacity:)` goes through a
  /// generic range replacement that costs more than the rest of a short list's work.
  @inline(__always)
  mutating func removeAllKeepingStorage() {
    if count > 8 {
      removeAll(keepingCapacity: true)
    } else {
      while !isEmpty { removeLast() }
    }
  }
}
