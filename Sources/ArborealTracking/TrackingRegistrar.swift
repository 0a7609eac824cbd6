import Synchronization

/// Records reads of a model's properties and notifies the observers of those that change.
///
/// A ``Trackable`` model stores one registrar. ``Tracked`` properties call it on every read
/// and write; hand-written accessors call ``access(_:)`` and ``withMutation(of:_:)`` with a
/// ``TrackingKey``:
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
/// A registrar is a reference to shared, lock-protected storage: copies refer to the same
/// registrar, and it may be used from any thread. Releasing the model releases the registrar
/// and every registration it holds.
public struct TrackingRegistrar: Sendable {
  @usableFromInline let core: RegistrarCore

  /// Creates a registrar with no observers.
  public init() {
    core = RegistrarCore()
  }

  /// Records a read of the property `key`, if a tracking closure is running on this thread.
  ///
  /// Costs a couple of loads when nothing is tracking.
  @inlinable
  public func access(_ key: TrackingKey) {
    if core.activity.readsTakeSlowPath {
      recordTrackedAccess(Unmanaged.passUnretained(core), id: key.id)
    }
  }

  /// Runs `mutation`, then notifies the observers of `key`.
  ///
  /// The notification happens after `mutation` returns, so observers see the new value. Call
  /// it only for a real change: it notifies even when the value is equal to the old one. When
  /// nothing observes the property, it costs a couple of loads beyond `mutation`.
  ///
  /// - Parameters:
  ///   - key: The property that changes.
  ///   - mutation: The change.
  /// - Returns: What `mutation` returns.
  /// - Complexity: O(1) beyond `mutation` when nothing observes the property; otherwise
  ///   O(*k*) for its *k* observers, plus what they do.
  @inlinable
  public func withMutation<T, E: Error>(
    of key: TrackingKey, _ mutation: () throws(E) -> T
  ) throws(E) -> T {
    defer {
      if core.mayBeObserved(key) { core.didChange(key) }
    }
    return try mutation()
  }

  /// Notifies the observers of `key` that it changed. Call it after the change.
  ///
  /// - Complexity: O(1) when nothing observes the property; otherwise O(*k*) for its *k*
  ///   observers, plus what they do.
  @inlinable
  public func didChange(_ key: TrackingKey) {
    if core.mayBeObserved(key) { core.didChange(key) }
  }
}

extension TrackingRegistrar {
  /// How many (property, observer) registrations this registrar holds; for leak tests.
  package var registrationCount: Int { core.registrationCount }
}
