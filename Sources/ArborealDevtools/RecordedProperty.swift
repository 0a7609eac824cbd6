import Arboreal

/// A property named in a recording: its owner as a log prints it (`Todo#3`) and its name
/// (`isDone`).
///
/// Owners are named by `TrackingOwner`: by the model's `id` when it is `Identifiable` (the
/// same in every run), otherwise by a number counting instances of the model's type in the
/// order they first changed (which another run may number differently). Make the models
/// whose changes you want to follow across runs `Identifiable`.
public struct RecordedProperty: Sendable, Hashable, CustomStringConvertible {
  /// The owner (`Todo#3`), or nil for a property changed through a hand-written accessor.
  public let owner: String?
  /// The property's name (`isDone`).
  public let name: String

  /// Creates a property reference.
  ///
  /// - Parameters:
  ///   - owner: The owner as a log prints it (`Todo#3`), or nil.
  ///   - name: The property's name.
  public init(owner: String?, name: String) {
    self.owner = owner
    self.name = name
  }

  /// Names a tracked property from its key, with the key's owner.
  ///
  /// - Parameter key: A key from a log entry's changes.
  public init(_ key: TrackingKey) {
    self.init(owner: key.owner?.description, name: key.name)
  }

  /// `Todo#3.isDone`, or `isDone` without an owner.
  public var description: String { owner.map { "\($0).\(name)" } ?? name }
}
