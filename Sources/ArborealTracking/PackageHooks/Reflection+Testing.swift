// Package hooks for tests and diagnostics, not API: a model's `@Tracked` properties and
// other stored values found by reflection (slow), for failure messages and the test store's
// checks of new models.

extension RecordedChange {
  /// The property's value now, read from its model by reflection (slow: for diagnostics);
  /// nil when the model is gone or the property is not a `@Tracked` one.
  package var currentValue: Any? {
    guard let model else { return nil }
    var mirror: Mirror? = Mirror(reflecting: model)
    while let current = mirror {
      for child in current.children {
        if let storage = child.value as? any TrackedValueStorage,
          storage.trackingKeyID == key.id
        {
          return storage.anyValue
        }
      }
      mirror = current.superclassMirror
    }
    return nil
  }
}

/// A `@Tracked` wrapper's value, for ``RecordedChange/currentValue``.
protocol TrackedValueStorage: TrackedStorage {
  var anyValue: Any { get }
  /// The name given to the wrapper, or empty for the declared one.
  var explicitName: String { get }
}

extension Tracked: TrackedValueStorage {
  var anyValue: Any { value }
  var explicitName: String { ExplicitNames.name(of: id) ?? "" }
}

/// A `@Tracked` property of a model found by reflection (``trackedProperties(of:)``): what the
/// test store lists for a model that an action put into the state.
package struct ReflectedProperty {
  /// The property's name: the one given to its wrapper, or the declared one.
  package let name: String
  /// The identity of the property's key.
  package let keyID: UInt64
  /// The registrar of the model that owns it.
  package let registrar: ObjectIdentifier
  /// Its value now.
  package let value: Any
  /// The model that owns it.
  private let model: any Trackable

  init(name: String, keyID: UInt64, value: Any, model: any Trackable) {
    self.name = name
    self.keyID = keyID
    self.registrar = ObjectIdentifier(model.registrar.core)
    self.value = value
    self.model = model
  }

  /// The property's key, named and with its owner (`SyncUpDetail#3.title`): slower than the
  /// other fields (the first time, it names the model's owner), so made only when needed.
  package var key: TrackingKey {
    model.registrar.core.named(keyID, of: model)
  }

  /// Whether one of `accesses` read it.
  package func isRead(in accesses: Set<RecordedAccess>) -> Bool {
    accesses.contains(RecordedAccess(registrar: registrar, keyID: keyID))
  }

  /// Counts as a read of the property in the current tracking or access recording.
  package func markRead() {
    model.registrar.access(TrackingKey(unnamed: keyID))
  }
}

/// The `@Tracked` properties of `model`, in declaration order (a superclass's first), found by
/// reflection: slow (a microsecond or so per property), for diagnostics and tests. Properties
/// with hand-written accessors are not found.
package func trackedProperties(of model: any Trackable) -> [ReflectedProperty] {
  var properties: [ReflectedProperty] = []
  for child in storedChildren(of: model) {
    guard let storage = child.value as? any TrackedValueStorage else { continue }
    // A wrapper is stored as `_name`.
    let declared = child.label.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 } ?? ""
    properties.append(
      ReflectedProperty(
        name: storage.explicitName.isEmpty ? declared : storage.explicitName,
        keyID: storage.trackingKeyID, value: storage.anyValue, model: model))
  }
  return properties
}

/// The stored properties of `model` that are not `@Tracked` (its `let`s and plain `var`s),
/// except its registrar, in declaration order (a superclass's first), found by reflection: a
/// wrapper model that holds its child in a `let` holds it there.
package func untrackedStoredValues(of model: any Trackable) -> [(name: String, value: Any)] {
  storedChildren(of: model).compactMap { child in
    child.value is any TrackedValueStorage || child.value is TrackingRegistrar
      ? nil : (child.label ?? "", child.value)
  }
}

/// The stored properties of `model` as reflection shows them, in declaration order, a
/// superclass's first.
private func storedChildren(of model: any Trackable) -> [Mirror.Child] {
  var levels: [Mirror] = []
  var mirror: Mirror? = Mirror(reflecting: model)
  while let current = mirror {
    levels.append(current)
    mirror = current.superclassMirror
  }
  return levels.reversed().flatMap(\.children)
}
