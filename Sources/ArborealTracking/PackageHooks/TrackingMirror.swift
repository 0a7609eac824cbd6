// Package hook, not API: the mirror seam through which the `ArborealObservation` bridge
// sees every read and change of a mirrored registrar.

/// Receives every read and every change of the properties of a registrar made with
/// ``TrackingRegistrar/init(mirror:)``, on the reading or writing thread, whether or not
/// anything tracks or observes them (the `ArborealObservation` bridge forwards them to the
/// toolchain's `Observation`).
///
/// Registrars without a mirror do not pay for the hook: their reads and writes take the fast
/// paths of any registrar, and only the slow paths test for a mirror (one predictable
/// branch).
/// A mirrored registrar's reads and writes always take the slow path; a write takes the
/// registrar's lock only when the property may be observed or a change recording runs.
package protocol TrackingMirror: AnyObject, Sendable {
  /// A property was read. Called outside every lock of the registrar, before the read is
  /// recorded in a tracking scope; the key's name may not be set.
  func trackingMirrorDidAccess(_ key: TrackingKey)
  /// A property changed; its new value is stored. Called outside every lock of the registrar,
  /// before the registrar's own observers are notified (or handed to a transaction); the
  /// key's name may not be set. Not called for a write of an equal `Equatable` value.
  func trackingMirrorDidChange(_ key: TrackingKey)
}

extension TrackingRegistrar {
  /// Creates a registrar that reports every read and change to `mirror`, which it keeps.
  package init(mirror: any TrackingMirror) {
    core = RegistrarCore(mirror: mirror)
  }

  /// The mirror this registrar reports to, if any.
  package var mirror: (any TrackingMirror)? { core.mirror }
}

extension TrackingKey {
  /// The key's identity, unique per property per model: what a mirror files its own data
  /// about the property under (equal keys have equal ids).
  package var mirrorID: UInt64 { id }
}
