/// What a store's log handlers (``Store/addLogHandler(logsValues:_:)``) receive for each action
/// it handles: the action, where it came from, and the tracked properties its update changed.
///
/// ```swift
/// store.addLogHandler { entry in
///   print(entry)  // "increment → Counter#1.count"
/// }
/// ```
///
/// The changes are those made by the update itself, on any model, each named with its owner
/// (`Row#2.title`: see `TrackingOwner`); changes made afterwards by observers of the state
/// are not attributed to the action. Only net changes count: writes of an equal `Equatable`
/// value are not changes, and neither is a property the update set and set back.
///
/// Entries are numbered (``sequence``) in the order the store handled them, and an action an
/// effect delivered names the action whose update started that effect (``cause``): enough to
/// follow a change back to the user's action that led to it.
public struct StoreLogEntry<Action: Sendable>: Sendable, CustomStringConvertible {
  /// Where an action came from.
  public enum Cause: Sendable, Hashable {
    /// The program sent it: a user's intent, an action sent from an update or an observer.
    case sent
    /// An effect delivered it. `startedBy` is the ``StoreLogEntry/sequence`` of the action
    /// whose update returned that effect, or nil when that action was handled while no log
    /// handler was installed.
    case effect(startedBy: Int?)
  }

  /// One changed property with its value before and after the action, described for a reader.
  public struct ChangedValue: Sendable, Hashable {
    /// The property, with its owner.
    public let key: TrackingKey
    /// The value before the action (`String(reflecting:)`), or nil when it was not kept: an
    /// in-place edit of a collection or a string (`items.append(x)`) keeps no copy of the
    /// old value, and a hand-written accessor reports no values.
    public let before: String?
    /// The value after the action, or nil when it could not be read (a hand-written accessor).
    public let after: String?

    /// Creates a described change.
    ///
    /// - Parameters:
    ///   - key: The property, with its owner.
    ///   - before: The old value's description, if known.
    ///   - after: The new value's description, if known.
    public init(key: TrackingKey, before: String?, after: String?) {
      self.key = key
      self.before = before
      self.after = after
    }
  }

  /// The action the store handled.
  public let action: Action

  /// The tracked properties the update changed, each once, in the order they first changed;
  /// empty when it changed nothing.
  public let changes: TrackingChanges

  /// The action's number: 1 for the first action the store handled with a log handler
  /// installed, then one more for each (actions handled with no handler are not counted).
  public let sequence: Int

  /// Whether the program sent the action or an effect delivered it, and which action started
  /// that effect.
  public let cause: Cause

  /// The changed properties with their old and new values, for a handler added with
  /// `logsValues: true`; empty otherwise.
  public let changedValues: [ChangedValue]

  /// Creates an entry.
  ///
  /// - Parameters:
  ///   - action: The action the store handled.
  ///   - changes: The properties its update changed.
  ///   - sequence: The action's number in the store's log.
  ///   - cause: Where the action came from.
  ///   - changedValues: The changed properties with their values described, if known.
  public init(
    action: Action, changes: TrackingChanges, sequence: Int, cause: Cause,
    changedValues: [ChangedValue] = []
  ) {
    self.action = action
    self.changes = changes
    self.sequence = sequence
    self.cause = cause
    self.changedValues = changedValues
  }

  /// The action and the owners and names of the properties it changed:
  /// `increment → Counter#1.count`, or `noop → (no change)`.
  public var description: String {
    let changed = changes.qualifiedNames.joined(separator: ", ")
    return "\(action) → \(changes.isEmpty ? "(no change)" : changed)"
  }
}
