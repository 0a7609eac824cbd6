// Package hooks, not API: access recording, for the test store's assertions (which
// properties an assertion read) and the tracking scopes' own checks.

/// A read recorded by ``withAccessRecording(_:)``.
package struct RecordedAccess: Hashable, Sendable {
  /// The registrar whose property was read.
  package let registrar: ObjectIdentifier
  /// The identity of the property's key.
  package let keyID: UInt64

  /// Whether `change` is a change of this property.
  package func matches(_ change: RecordedChange) -> Bool {
    change.registrar == registrar && change.key.id == keyID
  }
}

/// Runs `body` and returns the tracked properties it read, without observing them. Reads in
/// nested tracking scopes are included.
package func withAccessRecording<T, E: Error>(
  _ body: () throws(E) -> T
) throws(E) -> (T, Set<RecordedAccess>) {
  let (value, scope) = try AccessScope.run(mergingIntoParent: true, body)
  var accesses = Set<RecordedAccess>()
  for run in scope.runs {
    for record in scope.records(of: run) {
      accesses.insert(RecordedAccess(registrar: ObjectIdentifier(run.core), keyID: record.id))
    }
  }
  scope.discard()
  scope.recycle()
  return (value, accesses)
}

extension TrackingRegistrar {
  /// The identity used in ``RecordedChange`` and ``RecordedAccess``.
  package var identity: ObjectIdentifier { ObjectIdentifier(core) }
}

/// Whether a tracking scope (``withTracking(isolation:_:onChange:)``,
/// ``observe(isolation:fileID:line:_:)``) is recording reads on the calling
/// thread.
package var isTrackingAccesses: Bool {
  TrackingActivity.shared.hasScopes
    && ThreadContext.currentIfPresent?.scope != nil
}
