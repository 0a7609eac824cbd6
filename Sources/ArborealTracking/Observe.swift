import Synchronization

/// Runs `body` now and again after every change of a tracked property it read.
///
/// Each run records its reads anew, so a branch that stops reading a property stops depending
/// on it. Changes made in one transaction cause one run. `body` receives the properties that
/// changed (empty on the first run); a body that does not need them names the argument `_`:
///
/// ```swift
/// let token = observe { changes in
///   print("\(person.firstName) is \(person.age)", changes.isEmpty ? "" : "(\(changes))")
/// }
/// let count = observe { _ in print("count:", counter.count) }
/// ```
///
/// Runs happen in the caller's isolation: on the main actor when called from the main actor
/// (synchronously if the change happens on the main thread, enqueued otherwise), enqueued on an
/// actor when called from one, synchronously on the mutating thread when called from
/// nonisolated code. The compiler checks it: `body` inherits the caller's actor, so on an
/// actor it may use that actor's non-`Sendable` models, and from nonisolated code it must be
/// `Sendable` (it runs on whichever thread makes the change). A run never overlaps another
/// run of the same observer: a change that arrives during a run causes one more run after it.
/// A body that keeps changing what it reads is stopped after
/// ``TrackingDiagnostics/rerunLimit`` runs in a row and reported with the file and line that
/// registered it.
///
/// Keep the token for as long as the observation should last: `_ = observe { _ in }` releases it at
/// once, so the body runs once and never again (debug builds report it through
/// ``TrackingDiagnostics``).
///
/// - Parameters:
///   - isolation: The caller's isolation; leave the default.
///   - fileID: The registering file, for diagnostics; leave the default.
///   - line: The registering line, for diagnostics; leave the default.
///   - body: The closure to run; its reads are tracked.
/// - Returns: A token; the observation lasts until it is cancelled or released.
/// - Complexity: Each run is O(*r*) for *r* tracked reads, plus a lock per registrar read.
public func observe(
  isolation: isolated (any Actor)? = #isolation,
  fileID: StaticString = #fileID, line: UInt = #line,
  @_inheritActorContext _ body: @escaping @isolated(any) @Sendable (TrackingChanges) -> Void
) -> TrackingToken {
  startObserving(
    Delivery(body.isolation ?? isolation), UncheckedCallback(body),
    origin: ObserverOrigin(fileID: fileID, line: line))
}

/// Creates a continuous observer, runs it once, and returns its token. The caller runs in
/// `delivery`'s isolation.
func startObserving(
  _ delivery: Delivery, _ callback: UncheckedCallback, origin: ObserverOrigin
) -> TrackingToken {
  let observer = ObserverCore(
    kind: .continuous, delivery: delivery, callback: callback, origin: origin)
  observer.runContinuous(initialChanges: .none)
  return TrackingToken(observer: observer)
}

/// Computes `value` now and again after every change of a tracked property it read, and passes
/// the previous and the new value to `onChange`.
///
/// `onChange` is not called for the first value, and its reads are not tracked. When `Value`
/// is `Equatable`, a recomputed value equal to the previous one is not passed on. Both
/// closures run in the caller's isolation, like ``observe(isolation:fileID:line:_:)``.
/// An `onChange` that needs only the new value names the old one `_`:
///
/// ```swift
/// let token = observe { counter.count > 9 } onChange: { wasLarge, isLarge in
///   print("large:", wasLarge, "→", isLarge)
/// }
/// let total = observe { cart.total } onChange: { _, total in print("total:", total) }
/// ```
///
/// - Parameters:
///   - isolation: The caller's isolation; leave the default.
///   - fileID: The registering file, for diagnostics; leave the default.
///   - line: The registering line, for diagnostics; leave the default.
///   - value: Computes the value; its reads are tracked.
///   - onChange: Receives the previous and the new value, in the same isolation.
/// - Returns: A token; the observation lasts until it is cancelled or released.
/// - Complexity: Each run is O(*r*) for *r* tracked reads in `value`, plus a lock per
///   registrar read.
public func observe<Value>(
  isolation: isolated (any Actor)? = #isolation,
  fileID: StaticString = #fileID, line: UInt = #line,
  @_inheritActorContext _ value: @escaping @isolated(any) @Sendable () -> Value,
  @_inheritActorContext onChange: @escaping @isolated(any) @Sendable (Value, Value) -> Void
) -> TrackingToken {
  observeValue(
    value, onChange.isolation, synchronous(onChange), isDuplicate: nil,
    ValueObserverCaller(isolation: isolation, fileID: fileID, line: line))
}

// A deliberate twin of the function above: Swift picks an overload by the value's type, which is
// how an `Equatable` value's equal results are skipped with the same spelling.

/// Computes `value` now and again after every change of a tracked property it read, and passes
/// the previous and the new value to `onChange` when they differ.
///
/// The overload the compiler picks for an `Equatable` value: the same spelling as the
/// general one, with equal results skipped.
///
/// - Parameters:
///   - isolation: The caller's isolation; leave the default.
///   - fileID: The registering file, for diagnostics; leave the default.
///   - line: The registering line, for diagnostics; leave the default.
///   - value: Computes the value; its reads are tracked.
///   - onChange: Receives the previous and the new, different value, in the same isolation.
/// - Returns: A token; the observation lasts until it is cancelled or released.
/// - Complexity: Each run is O(*r*) for *r* tracked reads in `value`, plus a lock per
///   registrar read.
public func observe<Value: Equatable>(
  isolation: isolated (any Actor)? = #isolation,
  fileID: StaticString = #fileID, line: UInt = #line,
  @_inheritActorContext _ value: @escaping @isolated(any) @Sendable () -> Value,
  @_inheritActorContext onChange: @escaping @isolated(any) @Sendable (Value, Value) -> Void
) -> TrackingToken {
  observeValue(
    value, onChange.isolation, synchronous(onChange), isDuplicate: { $0 == $1 },
    ValueObserverCaller(isolation: isolation, fileID: fileID, line: line))
}

/// Where an `observe(_:onChange:)` was called from: its isolation and location.
private struct ValueObserverCaller {
  let isolation: (any Actor)?
  let fileID: StaticString
  let line: UInt
}

/// The observer behind the `observe(_:onChange:)` forms.
///
/// Both closures run in their shared isolation, or the caller's when neither has one;
/// `onChange` comes already made synchronous (its isolation passed apart). Two different
/// actors would make one closure run off its actor: that is a programming error, stopped here.
private func observeValue<Value>(
  _ value: @escaping @isolated(any) @Sendable () -> Value,
  _ onChangeIsolation: (any Actor)?,
  _ onChange: @escaping (Value, Value) -> Void,
  isDuplicate: ((Value, Value) -> Bool)?,
  _ caller: ValueObserverCaller
) -> TrackingToken {
  if let valueIsolation = value.isolation, let onChangeIsolation,
    valueIsolation !== onChangeIsolation
  {
    preconditionFailure("observe(_:onChange:): the two closures are isolated to different actors")
  }
  let delivery = Delivery(value.isolation ?? onChangeIsolation ?? caller.isolation)
  let compute = synchronous(value)
  var previous: Value?
  let callback = UncheckedCallback(readsNames: false) { changes in
    let current = compute()
    defer { previous = current }
    guard let old = previous, !changes.isEmpty else { return }
    if let isDuplicate, isDuplicate(old, current) { return }
    withoutTracking { onChange(old, current) }
  }
  return startObserving(
    delivery, callback, origin: ObserverOrigin(fileID: caller.fileID, line: caller.line))
}

/// Runs `body` without recording its reads in the enclosing tracking scope.
///
/// - Parameter body: The closure to run.
/// - Returns: What `body` returns.
public func withoutTracking<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
  guard TrackingActivity.shared.hasScopes,
    let context = ThreadContext.currentIfPresent, let scope = context.scope
  else { return try body() }
  context.scope = nil
  defer { context.scope = scope }
  return try body()
}
