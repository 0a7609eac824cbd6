import ArborealTracking
import Observation

/// Forwards a mirrored `TrackingRegistrar`'s reads and changes to an `ObservationRegistrar`.
///
/// `ObservationRegistrar` names a property by a key path of an `Observable` subject. The
/// subject here is the mirror itself, not the model: `Observation` records reads and fires
/// changes by registrar and key path, and never uses the subject otherwise, so one mirror per
/// model with a key path per `TrackingKey` (`\ObservationMirror.[property: key]`, equal for
/// equal keys) gives per-property precision without knowing the model's type or holding it.
///
/// Key paths with an argument are allocated when formed, so each key's is formed once and
/// cached.
final class ObservationMirror: TrackingMirror, Observable {
  private let registrar = ObservationRegistrar()
  private let keyPaths = Locked<[TrackingKey: KeyPath<ObservationMirror, Void>]>.make([:])

  /// The subscript the key paths name; reading it does nothing.
  subscript(property key: TrackingKey) -> Void { () }

  /// The key path standing for `key`, formed the first time.
  private func keyPath(for key: TrackingKey) -> KeyPath<ObservationMirror, Void> {
    keyPaths.withLock { cache in
      if let keyPath = cache[key] { return keyPath }
      let keyPath = \ObservationMirror.[property: key]
      cache[key] = keyPath
      return keyPath
    }
  }

  func trackingMirrorDidAccess(_ key: TrackingKey) {
    registrar.access(self, keyPath: keyPath(for: key))
  }

  func trackingMirrorDidChange(_ key: TrackingKey) {
    let keyPath = keyPath(for: key)
    // The value is already stored: `willSet` observers (`withObservationTracking`'s
    // `onChange`) and `didSet` observers (`Observations`) both see the new value.
    registrar.willSet(self, keyPath: keyPath)
    registrar.didSet(self, keyPath: keyPath)
  }
}
