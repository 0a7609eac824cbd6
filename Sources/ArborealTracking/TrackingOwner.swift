/// The model instance a changed property belongs to, so that a log or a test failure can say
/// which row changed: `Item#2.title`.
///
/// A registrar makes its owner once, the first time one of its `@Tracked` properties reports a
/// change, and keeps it. The owner's label is the model's `id` when the model is
/// `Identifiable` (read at that moment), and otherwise a serial number counting the instances
/// of the model's type that have reported a change, from 1, in the order they first did.
///
/// ```swift
/// let token = observe { changes in
///   print(changes.qualifiedNames)  // ["Item#2.title"]
///   render(items)
/// }
/// ```
///
/// Keys changed through hand-written accessors (``TrackingRegistrar/withMutation(of:_:)``)
/// have no owner: the registrar is not told which model it belongs to.
public final class TrackingOwner: Sendable, Hashable, CustomStringConvertible {
  /// The model's type name, without its module (`Item`).
  public let typeName: String
  /// The model's `id` when it is `Identifiable`, otherwise a serial number (`2`).
  public let label: String

  init(typeName: String, label: String) {
    self.typeName = typeName
    self.label = label
  }

  /// Makes the owner of `model`. Slow (a type name and perhaps a dynamic cast): called once
  /// per registrar.
  static func of(_ model: AnyObject) -> TrackingOwner {
    let modelType: any AnyObject.Type = type(of: model)
    let typeName = String(describing: modelType)
    if let identifiable = model as? any Identifiable {
      return TrackingOwner(typeName: typeName, label: String(describing: identifiable.id))
    }
    let serial = serials.withLock { serials in
      let next = serials[ObjectIdentifier(modelType), default: 0] + 1
      serials[ObjectIdentifier(modelType)] = next
      return next
    }
    return TrackingOwner(typeName: typeName, label: String(serial))
  }

  /// The number of owners made so far for each model type.
  private static let serials = Locked<[ObjectIdentifier: Int]>.make([:])

  /// `Item#2`.
  public var description: String { "\(typeName)#\(label)" }

  /// Whether two owners are the same object (one per registrar).
  public static func == (lhs: TrackingOwner, rhs: TrackingOwner) -> Bool { lhs === rhs }

  /// Hashes the owner's identity.
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
