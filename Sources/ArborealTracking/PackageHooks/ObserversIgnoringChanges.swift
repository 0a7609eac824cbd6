// Package hooks, not API: the library's own observers in other modules (a store's child
// lifetimes, a persister) that never read what changed. A first write that wakes only such
// observers skips looking the property's name up by reflection (far dearer than the write);
// the public forms hand the changes to user code, which
// may read them.

/// ``observe(isolation:fileID:line:_:)`` for a body that ignores what changed.
package func observe(
  isolation: isolated (any Actor)? = #isolation,
  fileID: StaticString = #fileID, line: UInt = #line,
  @_inheritActorContext ignoringChanges body: @escaping @isolated(any) @Sendable () -> Void
) -> TrackingToken {
  let run = synchronous(body)
  return startObserving(
    Delivery(body.isolation ?? isolation),
    UncheckedCallback(readsNames: false, unchecked: { _ in run() }),
    origin: ObserverOrigin(fileID: fileID, line: line))
}

/// ``withTracking(isolation:_:onChange:)`` for an `onChange` that ignores what changed.
@discardableResult
package func withTracking<T, E: Error>(
  isolation: isolated (any Actor)? = #isolation,
  _ apply: () throws(E) -> T,
  @_inheritActorContext ignoringChanges onChange: @escaping @isolated(any) @Sendable () -> Void
) throws(E) -> T {
  let run = synchronous(onChange)
  return try track(
    Delivery(onChange.isolation ?? isolation), apply,
    UncheckedCallback(readsNames: false, unchecked: { _ in run() }))
}

/// ``observe(isolation:fileID:line:_:)`` for a store's own observers (its routes, its
/// children's lifetimes), whose body ignores what changed and runs synchronously on the thread
/// that makes the change, in every isolation.
///
/// Sound only where every change the body can see is made in the caller's isolation: a store's
/// models are not `Sendable`, so they change only in the store's isolation, where the body
/// must run. Not for user code, whose models may be changed from anywhere.
package func observeInStoreIsolation(
  fileID: StaticString = #fileID, line: UInt = #line,
  ignoringChanges body: @escaping () -> Void
) -> TrackingToken {
  startObserving(
    .synchronous, UncheckedCallback(readsNames: false, unchecked: { _ in body() }),
    origin: ObserverOrigin(fileID: fileID, line: line))
}

/// ``withTracking(isolation:_:onChange:)`` for a store's own one-shot watchers (a persister's
/// next save), whose `onChange` ignores what changed and runs synchronously on the thread that
/// makes the change, in every isolation.
///
/// Sound only where every change `onChange` can hear is made in the caller's isolation, as for
/// ``observeInStoreIsolation(fileID:line:ignoringChanges:)``: `apply` reads a store's models,
/// which change only in the store's isolation, where `onChange` then runs.
@discardableResult
package func withTrackingInStoreIsolation<T, E: Error>(
  _ apply: () throws(E) -> T, ignoringChanges onChange: @escaping () -> Void
) throws(E) -> T {
  try track(
    .synchronous, apply, UncheckedCallback(readsNames: false, unchecked: { _ in onChange() }))
}
