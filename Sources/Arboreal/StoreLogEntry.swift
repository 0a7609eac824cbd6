/// What a store's ``Store/logHandler`` receives for each action it handles: the action and the
/// tracked properties its update changed.
///
/// ```swift
/// store.logHandler = { entry in
///   print(entry)  // "increment → Counter#1.count"
/// }
/// ```
///
/// The changes are those made by the update itself, on any model, each named with its owner
/// (`Row#2.title`: see `TrackingOwner`); changes made afterwards by observers of the state
/// are not attributed to the action. Only net changes count: writes of an equal `Equatable`
/// value are not changes, and neither is a property the update set and set back.
public struct StoreLogEntry<Action: Sendable>: Sendable, CustomStringConvertible {
  /// The action the store handled.
  public let action: Action

  /// The tracked properties the update changed, each once, in the order they first changed;
  /// empty when it changed nothing.
  public let changes: TrackingChanges

  /// Creates an entry.
  ///
  /// - Parameters:
  ///   - action: The action the store handled.
  ///   - changes: The properties its update changed.
  public init(action: Action, changes: TrackingChanges) {
    self.action = action
    self.changes = changes
  }

  /// The action and the owners and names of the properties it changed:
  /// `increment → Counter#1.count`, or `noop → (no change)`.
  public var description: String {
    let changed = changes.qualifiedNames.joined(separator: ", ")
    return "\(action) → \(changes.isEmpty ? "(no change)" : changed)"
  }
}
