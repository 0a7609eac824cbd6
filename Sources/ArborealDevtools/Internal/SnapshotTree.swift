/// A snapshot as a tree of plain values: what the recording viewer shows and compares.
///
/// Built by ``SnapshotTreeEncoder`` from any `Encodable` value, without going through JSON
/// text. Objects keep their keys in the order the value encoded them (a synthesized
/// `encode(to:)` writes the properties in declaration order). A value that cannot be
/// described is an ``opaque(_:)`` leaf holding the text to show instead: its type's name in
/// braces (`{Secret}`) when its `encode(to:)` throws, `nan`, `inf` or `-inf` for a floating
/// point value that is not a number JSON can hold.
indirect enum SnapshotValue: Equatable, Sendable {
  /// Keyed values, in the order they were encoded.
  case object([SnapshotMember])
  /// Values in order.
  case array([SnapshotValue])
  case string(String)
  /// A number, as its JSON text (`3`, `-0.5`, `1e-05`).
  case number(String)
  case bool(Bool)
  case null
  /// A value that cannot be described: the text to show in its place.
  case opaque(String)

  /// Builds the tree of a value; never fails (see ``opaque(_:)``).
  ///
  /// - Complexity: O(*n*) for a value of *n* nodes.
  init(of value: some Encodable) {
    self = SnapshotTreeEncoder.tree(of: value)
  }
}

/// One key and value of a ``SnapshotValue/object(_:)``.
struct SnapshotMember: Equatable, Sendable {
  var key: String
  var value: SnapshotValue
}

/// A step of a path from the root of a ``SnapshotValue``: a key of an object or an index of
/// an array.
enum SnapshotPathComponent: Equatable, Sendable {
  case key(String)
  case index(Int)
}

/// One difference between two trees, as the viewer applies it to go from one step's state
/// to the next. Paths are from the root; the root itself is the empty path.
enum SnapshotChange: Equatable, Sendable {
  /// The value at `path`, present in both trees, went from `old` to `new`.
  case set(path: [SnapshotPathComponent], old: SnapshotValue, new: SnapshotValue)
  /// `new` appeared at `path`: for an array, at index `position`, shifting the rest up; for
  /// an object, as its member number `position` (from 0), shifting the rest down.
  case insert(path: [SnapshotPathComponent], new: SnapshotValue, position: Int)
  /// The value at `path` (`old`) went away; an array's later elements shift down.
  case remove(path: [SnapshotPathComponent], old: SnapshotValue)
}

extension SnapshotValue {
  /// The changes that turn `old` into `new`, in the order to apply them.
  ///
  /// Invariant: applying the changes in order to `old` (a `set` replaces the value at its
  /// path, an `insert` puts its value at its position, a `remove` takes out the value at its
  /// path) gives a tree equal to `new`, object key order included.
  ///
  /// Objects are compared member by member when the keys they share are in the same order:
  /// keys only in `old` are removed, keys only in `new` inserted at their place, the others
  /// compared in turn; otherwise the whole object is set. Arrays skip their common first and
  /// last elements and compare the elements left pairwise, then remove the surplus of `old`
  /// from the back or insert the surplus of `new` from the front; so removing or inserting
  /// one element is one change. Any other difference sets the whole value.
  ///
  /// - Complexity: O(*n*) comparisons of subtrees for trees of *n* nodes.
  static func changes(from old: SnapshotValue, to new: SnapshotValue) -> [SnapshotChange] {
    var changes: [SnapshotChange] = []
    var path: [SnapshotPathComponent] = []
    diff(old, new, path: &path, into: &changes)
    return changes
  }

  private static func diff(
    _ old: SnapshotValue, _ new: SnapshotValue, path: inout [SnapshotPathComponent],
    into changes: inout [SnapshotChange]
  ) {
    switch (old, new) {
    case (.object(let oldMembers), .object(let newMembers)):
      diffObjects(oldMembers, newMembers, old: old, new: new, path: &path, into: &changes)
    case (.array(let oldElements), .array(let newElements)):
      diffArrays(oldElements, newElements, path: &path, into: &changes)
    default:
      if old != new { changes.append(.set(path: path, old: old, new: new)) }
    }
  }

  private static func diffObjects(
    _ oldMembers: [SnapshotMember], _ newMembers: [SnapshotMember], old: SnapshotValue,
    new: SnapshotValue, path: inout [SnapshotPathComponent], into changes: inout [SnapshotChange]
  ) {
    if oldMembers.count == newMembers.count,
      zip(oldMembers, newMembers).allSatisfy({ $0.key == $1.key })
    {
      for (oldMember, newMember) in zip(oldMembers, newMembers) {
        path.append(.key(oldMember.key))
        diff(oldMember.value, newMember.value, path: &path, into: &changes)
        path.removeLast()
      }
      return
    }
    let oldKeys = Set(oldMembers.map(\.key))
    let newKeys = Set(newMembers.map(\.key))
    // Duplicate keys, or shared keys in another order: no member-wise change list keeps the
    // order, so the object is replaced.
    guard oldKeys.count == oldMembers.count, newKeys.count == newMembers.count,
      oldMembers.lazy.map(\.key).filter(newKeys.contains).elementsEqual(
        newMembers.lazy.map(\.key).filter(oldKeys.contains))
    else {
      changes.append(.set(path: path, old: old, new: new))
      return
    }
    var oldValues: [String: SnapshotValue] = [:]
    for member in oldMembers {
      oldValues[member.key] = member.value
      if !newKeys.contains(member.key) {
        changes.append(.remove(path: path + [.key(member.key)], old: member.value))
      }
    }
    for (position, member) in newMembers.enumerated() {
      path.append(.key(member.key))
      if let oldValue = oldValues[member.key] {
        diff(oldValue, member.value, path: &path, into: &changes)
      } else {
        changes.append(.insert(path: path, new: member.value, position: position))
      }
      path.removeLast()
    }
  }

  private static func diffArrays(
    _ old: [SnapshotValue], _ new: [SnapshotValue], path: inout [SnapshotPathComponent],
    into changes: inout [SnapshotChange]
  ) {
    var prefix = 0
    while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < old.count - prefix, suffix < new.count - prefix,
      old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
    {
      suffix += 1
    }
    let oldMiddle = old.count - prefix - suffix
    let newMiddle = new.count - prefix - suffix
    let paired = min(oldMiddle, newMiddle)
    for index in prefix..<(prefix + paired) {
      path.append(.index(index))
      diff(old[index], new[index], path: &path, into: &changes)
      path.removeLast()
    }
    // From the back, so that each index is still the element's own when it is removed.
    for index in stride(from: prefix + oldMiddle - 1, through: prefix + paired, by: -1) {
      changes.append(.remove(path: path + [.index(index)], old: old[index]))
    }
    for index in (prefix + paired)..<(prefix + newMiddle) {
      changes.append(.insert(path: path + [.index(index)], new: new[index], position: index))
    }
  }
}

/// An `Encoder` that builds a ``SnapshotValue`` instead of JSON text.
///
/// Each value is encoded by an encoder of its own (see ``tree(of:)``), so that a value whose
/// `encode(to:)` throws becomes an opaque leaf naming its type, and the values around it are
/// kept. Containers write into reference-typed stores (``ObjectStore``, ``ArrayStore``) that
/// the encoder owns, so that nested containers and super-encoders handed out earlier still
/// write into the tree; ``value`` turns the stores into values at the end.
///
/// Invariant: ``content`` holds at most one kind of container; asking for a container of
/// another kind after one was used replaces it (as `JSONEncoder` would refuse, this keeps the
/// last one instead of failing).
final class SnapshotTreeEncoder: Encoder {
  let codingPath: [any CodingKey] = []
  let userInfo: [CodingUserInfoKey: Any] = [:]
  var content: Slot = .value(.object([]))

  /// What an encoder, a member or an element holds until the tree is finished.
  enum Slot {
    case value(SnapshotValue)
    case object(ObjectStore)
    case array(ArrayStore)
    /// A super-encoder's value: whatever that encoder was given.
    case encoder(SnapshotTreeEncoder)

    var value: SnapshotValue {
      switch self {
      case .value(let value): value
      case .object(let store):
        .object(store.members.map { SnapshotMember(key: $0.key, value: $0.slot.value) })
      case .array(let store): .array(store.elements.map(\.value))
      case .encoder(let encoder): encoder.content.value
      }
    }
  }

  /// The members of a keyed container, in the order they were encoded.
  final class ObjectStore {
    var members: [(key: String, slot: Slot)] = []
  }

  /// The elements of an unkeyed container.
  final class ArrayStore {
    var elements: [Slot] = []
  }

  /// The tree of `value`; `{TypeName}` when its `encode(to:)` throws.
  static func tree<Value: Encodable>(of value: Value) -> SnapshotValue {
    let encoder = SnapshotTreeEncoder()
    do {
      try value.encode(to: encoder)
    } catch {
      return .opaque("{\(String(describing: Value.self))}")
    }
    return encoder.content.value
  }

  static func number(_ value: Double) -> SnapshotValue {
    if value.isNaN { return .opaque("nan") }
    if value.isInfinite { return .opaque(value < 0 ? "-inf" : "inf") }
    return .number("\(value)")
  }

  static func number(_ value: Float) -> SnapshotValue {
    if value.isNaN { return .opaque("nan") }
    if value.isInfinite { return .opaque(value < 0 ? "-inf" : "inf") }
    return .number("\(value)")
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .object(let store) = content {
      return KeyedEncodingContainer(KeyedContainer(store: store))
    }
    let store = ObjectStore()
    content = .object(store)
    return KeyedEncodingContainer(KeyedContainer(store: store))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .array(let store) = content { return UnkeyedContainer(store: store) }
    let store = ArrayStore()
    content = .array(store)
    return UnkeyedContainer(store: store)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleValueContainer(encoder: self)
  }

  struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let store: ObjectStore
    var codingPath: [any CodingKey] { [] }

    private func put(_ value: SnapshotValue, _ key: Key) {
      store.members.append((key.stringValue, .value(value)))
    }

    mutating func encodeNil(forKey key: Key) { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) {
      put(SnapshotTreeEncoder.number(value), key)
    }
    mutating func encode(_ value: Float, forKey key: Key) {
      put(SnapshotTreeEncoder.number(value), key)
    }
    mutating func encode(_ value: Int, forKey key: Key) { put(.number("\(value)"), key) }
    mutating func encode(_ value: Int8, forKey key: Key) { put(.number("\(value)"), key) }
    mutating func encode(_ value: Int16, forKey key: Key) { put(.number("\(value)"), key) }
    mutating func encode(_ value: Int32, forKey key: Key) { put(.number("\(value)"), key) }
    mutating func encode(_ value: Int64, forKey key: Key) { put(.number("\(value)"), key) }
    mutating func encode(_ value: UInt, forKey key: Key) { put(.number("\(value)"), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) { put(.number("\(value)"), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) { put(.number("\(value)"), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) { put(.number("\(value)"), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) { put(.number("\(value)"), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) {
      put(SnapshotTreeEncoder.tree(of: value), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
      let nested = ObjectStore()
      store.members.append((key.stringValue, .object(nested)))
      return KeyedEncodingContainer(KeyedContainer<NestedKey>(store: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      let nested = ArrayStore()
      store.members.append((key.stringValue, .array(nested)))
      return UnkeyedContainer(store: nested)
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
      superEncoder(named: key.stringValue)
    }

    private func superEncoder(named name: String) -> any Encoder {
      let encoder = SnapshotTreeEncoder()
      store.members.append((name, .encoder(encoder)))
      return encoder
    }
  }

  struct UnkeyedContainer: UnkeyedEncodingContainer, PuttingValues {
    let store: ArrayStore
    var codingPath: [any CodingKey] { [] }
    var count: Int { store.elements.count }

    func put(_ value: SnapshotValue) { store.elements.append(.value(value)) }

    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
      let nested = ObjectStore()
      store.elements.append(.object(nested))
      return KeyedEncodingContainer(KeyedContainer<NestedKey>(store: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
      let nested = ArrayStore()
      store.elements.append(.array(nested))
      return UnkeyedContainer(store: nested)
    }

    mutating func superEncoder() -> any Encoder {
      let encoder = SnapshotTreeEncoder()
      store.elements.append(.encoder(encoder))
      return encoder
    }
  }

  struct SingleValueContainer: SingleValueEncodingContainer, PuttingValues {
    let encoder: SnapshotTreeEncoder
    var codingPath: [any CodingKey] { [] }

    func put(_ value: SnapshotValue) { encoder.content = .value(value) }

  }
}

/// What the unkeyed and single-value containers share: every value they are given becomes a
/// node through `put`. The encoding methods below satisfy both containers' requirements.
private protocol PuttingValues {
  /// Keeps a value in the container.
  func put(_ value: SnapshotValue)
}

extension PuttingValues {
  mutating func encodeNil() { put(.null) }
  mutating func encode(_ value: Bool) { put(.bool(value)) }
  mutating func encode(_ value: String) { put(.string(value)) }
  mutating func encode(_ value: Double) { put(SnapshotTreeEncoder.number(value)) }
  mutating func encode(_ value: Float) { put(SnapshotTreeEncoder.number(value)) }
  mutating func encode(_ value: Int) { put(.number("\(value)")) }
  mutating func encode(_ value: Int8) { put(.number("\(value)")) }
  mutating func encode(_ value: Int16) { put(.number("\(value)")) }
  mutating func encode(_ value: Int32) { put(.number("\(value)")) }
  mutating func encode(_ value: Int64) { put(.number("\(value)")) }
  mutating func encode(_ value: UInt) { put(.number("\(value)")) }
  mutating func encode(_ value: UInt8) { put(.number("\(value)")) }
  mutating func encode(_ value: UInt16) { put(.number("\(value)")) }
  mutating func encode(_ value: UInt32) { put(.number("\(value)")) }
  mutating func encode(_ value: UInt64) { put(.number("\(value)")) }
  mutating func encode<T: Encodable>(_ value: T) { put(SnapshotTreeEncoder.tree(of: value)) }
}
