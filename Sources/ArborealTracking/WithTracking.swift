/// Runs `apply`, records the tracked properties it reads, and calls `onChange` once after the
/// first of them changes.
///
/// `onChange` runs after the change, so it sees the new value, and at most once. When a
/// property is changed between its read and the end of `apply` (by `apply` itself or by
/// another thread), `onChange` is called as soon as `apply` returns.
///
/// ```swift
/// let count = withTracking {
///   counter.count
/// } onChange: { changes in
///   print("changed:", changes)  // "changed: count"
/// }
/// ```
///
/// An `onChange` that does not need to know what changed names its argument `_`.
///
/// `onChange` runs in the isolation of the caller: on the main actor when called from the
/// main actor (synchronously if the change happens there, enqueued otherwise), enqueued on an
/// actor when called from one, and synchronously on the mutating thread when called from
/// nonisolated code. The compiler checks it: `onChange` inherits the caller's actor, and from
/// nonisolated code it must be `Sendable`.
///
/// A tracking scope nested inside another also adds its reads to the outer one.
///
/// - Parameters:
///   - isolation: The caller's isolation; leave the default.
///   - apply: The closure whose reads are tracked. It runs once, now.
///   - onChange: Called once, after the first change, with the properties that changed.
/// - Returns: What `apply` returns.
/// - Complexity: O(*r*) for *r* reads in `apply`, plus a lock per registrar read.
@discardableResult
public func withTracking<T, E: Error>(
  isolation: isolated (any Actor)? = #isolation,
  _ apply: () throws(E) -> T,
  @_inheritActorContext onChange: @escaping @isolated(any) @Sendable (TrackingChanges) -> Void
) throws(E) -> T {
  try track(Delivery(onChange.isolation ?? isolation), apply, UncheckedCallback(onChange))
}

/// Runs `apply` and registers a one-shot observer for what it read.
func track<T, E: Error>(
  _ delivery: Delivery, _ apply: () throws(E) -> T, _ callback: UncheckedCallback
) throws(E) -> T {
  let (value, scope) = try AccessScope.run(mergingIntoParent: true, apply)
  guard !scope.runs.isEmpty else {
    scope.recycle()
    return value
  }
  let observer = ObserverCore(
    kind: .oneShot, delivery: delivery, callback: callback, origin: nil)
  observer.finishOneShotRegistration(scope)
  return value
}
