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
/// The first run of a continuous observer has no changes (``isEmpty`` is true).
public struct TrackingChanges: Sendable, Hashable, CustomStringConvertible, RandomAccessCollection {
  /// The keys of the changed properties, each once, in the order they first changed.
  public let keys: [TrackingKey]

  /// Creates a set of changes from keys, keeping the first occurrence of each.
  ///
  /// - Complexity: O(*n*²) for *n* keys; transactions rarely change more than a handful.
  public init(_ keys: [TrackingKey]) {
    var unique: [TrackingKey] = []
    unique.reserveCapacity(keys.count)
    for key in keys where !unique.contains(key) { unique.append(key) }
    self.keys = unique
  }

  init(uniqueKeys: [TrackingKey]) { self.keys = uniqueKeys }

  /// The names of the changed properties (`["firstName", "age"]`).
  public var names: [String] { keys.map(\.name) }

  /// The names joined with a comma (`firstName, age`).
  public var description: String { names.joined(separator: ", ") }

  /// The position of the first key.
  public var startIndex: Int { keys.startIndex }
  /// The position after the last key.
  public var endIndex: Int { keys.endIndex }
  /// The key at a position.
  public subscript(position: Int) -> TrackingKey { keys[position] }

  /// Whether the given property changed.
  ///
  /// - Complexity: O(*n*) for *n* changed keys.
  public func contains(_ key: TrackingKey) -> Bool { keys.contains(key) }
}
