/// The properties whose change caused a notification.
///
/// One notification carries every property that changed in the transaction that caused it,
/// each once, in the order they first changed. Print it to log why an observer ran:
///
/// ```swift
/// let token = observe { changes in
///   print("re-rendering because of:", changes)  // "re-rendering because of: firstName, age"
///   render(person)
/// }
/// ```
///
/// The first run of a continuous observer has no changes (`isEmpty` is true).
public struct TrackingChanges: Sendable, Hashable, CustomStringConvertible, RandomAccessCollection {
  /// The keys, stored inline when there is only one (the usual case for a single write), so
  /// that a notification does not allocate.
  private var storage: SmallList<TrackingKey>

  /// Creates a set of changes from keys, keeping the first occurrence of each.
  ///
  /// - Complexity: O(*n*²) for *n* keys; transactions rarely change more than a handful.
  public init(_ keys: [TrackingKey]) {
    var unique = SmallList<TrackingKey>()
    for key in keys where !unique.contains(key) { unique.append(key) }
    self.storage = unique
  }

  init(uniqueKeys: SmallList<TrackingKey>) { self.storage = uniqueKeys }

  init(key: TrackingKey) { self.storage = SmallList(key) }

  /// The keys, without copying them into an array.
  var keyList: SmallList<TrackingKey> { storage }

  /// No changes: the first run of a continuous observer.
  static let none = TrackingChanges(uniqueKeys: SmallList())

  /// The keys of the changed properties, each once, in the order they first changed.
  ///
  /// - Complexity: O(*n*) for *n* changed keys.
  public var keys: [TrackingKey] { Array(storage) }

  /// The names of the changed properties (`["firstName", "age"]`).
  ///
  /// - Complexity: O(*n*) for *n* changed keys.
  public var names: [String] { storage.map(\.name) }

  /// The names qualified by their owners, where known (`["Item#2.title", "Item#3.title"]`):
  /// what a log should print when several instances of a model may change together.
  ///
  /// - Complexity: O(*n*) for *n* changed keys.
  public var qualifiedNames: [String] { storage.map(\.qualifiedName) }

  /// The names joined with a comma (`firstName, age`).
  ///
  /// - Complexity: O(*n*) for *n* changed keys.
  public var description: String { names.joined(separator: ", ") }

  /// The position of the first key.
  public var startIndex: Int { storage.startIndex }
  /// The position after the last key.
  public var endIndex: Int { storage.endIndex }
  /// The key at a position.
  public subscript(position: Int) -> TrackingKey { storage[position] }

  /// Whether the given property changed.
  ///
  /// - Complexity: O(*n*) for *n* changed keys.
  public func contains(_ key: TrackingKey) -> Bool { storage.contains(key) }

  /// Whether two sets of changes name the same properties in the same order.
  ///
  /// - Complexity: O(*n*) for *n* changed keys.
  public static func == (lhs: TrackingChanges, rhs: TrackingChanges) -> Bool {
    lhs.storage == rhs.storage
  }

  /// Hashes the keys in order.
  ///
  /// - Complexity: O(*n*) for *n* changed keys.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(storage.count)
    for key in storage { hasher.combine(key) }
  }
}
