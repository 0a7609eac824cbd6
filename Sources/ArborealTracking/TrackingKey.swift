import Synchronization

/// Hands out property identities, in the low ``ExplicitNames/counterBits`` bits of an id.
/// Zero is never used.
private let nextPropertyID = Atomic<UInt64>(1)

/// The names given to `@Tracked` properties (`@Tracked("count")`), interned, so that a property
/// carries its name in its id instead of a 16-byte `String` per property and instance.
///
/// An id's top ``indexBits`` bits hold the name's position in `names` plus one (zero: no given
/// name, looked up by reflection); the other bits count ids. Names are never removed: a
/// program gives a bounded set of names (its source's literals). Past `capacity` distinct
/// names, a property gets no given name and is named after its declaration, by reflection.
///
/// Invariant: `names` and `positions` change only together, under the mutex; a position once
/// handed out names the same string for the life of the process.
enum ExplicitNames {
  static let indexBits: UInt64 = 16
  static let counterBits: UInt64 = 64 - indexBits
  static let counterMask: UInt64 = (1 &<< counterBits) &- 1
  static let capacity = (1 << indexBits) - 1

  private static let table = Locked.make(ExplicitNameTable(capacity: capacity))

  /// The position of `name` plus one, interning it; nil when the table is full. The first
  /// name refused is reported in debug builds (on standard error): the property, and every
  /// one given a new name after it, is then named after its declaration.
  static func index(of name: String) -> UInt64? {
    let (index, firstRefusal) = table.withLock { $0.intern(name) }
    #if DEBUG
      if firstRefusal {
        Platform.printError(
          "ArborealTracking: more than \(capacity) distinct names were given to @Tracked "
            + "properties; \"\(name)\" and the new names after it are not kept: those "
            + "properties are named after their declarations")
      }
    #endif
    return index
  }

  /// The name given to the property with identity `id`, if any.
  static func name(of id: UInt64) -> String? {
    let index = id &>> counterBits
    guard index != 0 else { return nil }
    return table.withLock { $0.name(at: index) }
  }
}

/// The table behind ``ExplicitNames``: names in the order first given, each once, up to
/// `capacity`. A pure value, tested directly (`ExplicitNameTests`).
///
/// Invariant: `positions[names[i]] == i` for every `i`, and `names.count <= capacity`.
struct ExplicitNameTable {
  let capacity: Int
  private(set) var names: [String] = []
  private var positions: [String: Int] = [:]
  /// Whether a name was refused because the table was full.
  private(set) var refused = false

  init(capacity: Int) { self.capacity = capacity }

  /// The position of `name` plus one, interning it, or nil when the table is full; and
  /// whether this is the first name refused.
  mutating func intern(_ name: String) -> (index: UInt64?, firstRefusal: Bool) {
    if let position = positions[name] { return (UInt64(position + 1), false) }
    guard names.count < capacity else {
      defer { refused = true }
      return (nil, !refused)
    }
    positions[name] = names.count
    names.append(name)
    return (UInt64(names.count), false)
  }

  /// The name at `index` (a position plus one, as `intern` returns it).
  func name(at index: UInt64) -> String { names[Int(index) - 1] }
}

/// The identity of one tracked property, and its name for diagnostics.
///
/// Every `@Tracked` property creates its key when its model is initialised, so two instances of
/// the same model have different keys. Hand-written accessors create a key once and keep it,
/// either per instance or in a `static let` shared by all instances (a registrar tells
/// instances apart by itself):
///
/// ```swift
/// final class Thermometer: Trackable {
///   let registrar = TrackingRegistrar()
///   static let celsiusKey = TrackingKey("celsius")
///   private var storage = 20.0
///
///   var celsius: Double {
///     get {
///       registrar.access(Self.celsiusKey)
///       return storage
///     }
///     set {
///       registrar.withMutation(of: Self.celsiusKey) { storage = newValue }
///     }
///   }
/// }
/// ```
///
/// Keys compare and hash by identity, not by name: two keys made with the same name are
/// different keys.
public struct TrackingKey: Sendable, Hashable, CustomStringConvertible {
  /// The unique identity used by registrars; its low six bits select the registrar's
  /// "observed" bit.
  @usableFromInline let id: UInt64
  /// The name and owner, shared by every copy of the key; nil for a `@Tracked` key whose name
  /// has not been looked up yet. One reference, so that copying a key (changes pass through
  /// several lists on the way to an observer) retains one object, not a string and an owner.
  let info: TrackingKeyInfo?

  /// Creates a new, unique key.
  ///
  /// - Parameter name: The property's name, reported in ``TrackingChanges``.
  public init(_ name: String) {
    self.id = Self.nextID()
    self.info = name.isEmpty ? nil : TrackingKeyInfo(name: name, owner: nil)
  }

  /// The model the property belongs to, when the registrar knows it (set on the keys that
  /// changes report; not part of the key's identity).
  public var owner: TrackingOwner? { info?.owner }

  /// The name, empty when not looked up yet.
  var storedName: String { info?.name ?? "" }

  /// The property's name (`firstName`).
  ///
  /// A `@Tracked` property's key learns its name from the model the first time it is needed
  /// (reflection, once per instance and property); a key taken before that reads
  /// `property#<id>`.
  public var name: String { storedName.isEmpty ? "property#\(id)" : storedName }

  /// The property's name qualified by its owner when known (`Item#2.title`), otherwise the
  /// name alone.
  public var qualifiedName: String { owner.map { "\($0).\(name)" } ?? name }

  /// The property's name.
  public var description: String { name }

  /// Whether two keys are the same key.
  public static func == (lhs: TrackingKey, rhs: TrackingKey) -> Bool { lhs.id == rhs.id }

  /// Hashes the key's identity.
  public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// A property's name and owner, made once per property (per registrar, for `@Tracked` ones)
/// and shared by every copy of its key.
final class TrackingKeyInfo: Sendable {
  let name: String
  let owner: TrackingOwner?

  init(name: String, owner: TrackingOwner?) {
    self.name = name
    self.owner = owner
  }
}

extension TrackingKey {
  /// A new key identity.
  @usableFromInline
  static func nextID() -> UInt64 {
    nextPropertyID.wrappingAdd(1, ordering: .relaxed).oldValue & ExplicitNames.counterMask
  }

  /// A new key identity that carries the given `name` (see ``ExplicitNames``); a plain one
  /// when `name` is empty.
  @usableFromInline
  static func nextID(named name: String) -> UInt64 {
    let id = nextID()
    guard !name.isEmpty, let index = ExplicitNames.index(of: name) else { return id }
    return id | (index &<< ExplicitNames.counterBits)
  }

  /// A key with the given identity and shared name.
  init(id: UInt64, info: TrackingKeyInfo?) {
    self.id = id
    self.info = info
  }

  /// A key without a name yet, for the first change of a `@Tracked` property.
  init(unnamed id: UInt64) {
    self.id = id
    self.info = nil
  }

  /// The key's bit in a registrar's observed mask.
  @inlinable var maskBit: UInt64 { Self.maskBit(of: id) }

  /// The bit of key identity `id` in a registrar's observed mask.
  @inlinable @inline(__always)
  static func maskBit(of id: UInt64) -> UInt64 { 1 &<< (id & 63) }
}
