/// What a `@Tracked` wrapper tells reflection about itself.
protocol TrackedStorage {
  var trackingKeyID: UInt64 { get }
}

/// Finds the declared name of a `@Tracked` property by reflection.
///
/// On Linux a wrapped property's key path prints as `<computed 0x…>`, so names come from the
/// model's stored children instead: the wrapper is stored as `_name`. Reflection is slow
/// (microseconds), so registrars cache the result per property.
enum PropertyNames {
  static func name(of id: UInt64, in model: AnyObject) -> String? {
    var mirror: Mirror? = Mirror(reflecting: model)
    while let current = mirror {
      for child in current.children {
        guard let storage = child.value as? any TrackedStorage, storage.trackingKeyID == id,
          var label = child.label
        else { continue }
        if label.hasPrefix("_") { label.removeFirst() }
        return label
      }
      mirror = current.superclassMirror
    }
    return nil
  }
}
