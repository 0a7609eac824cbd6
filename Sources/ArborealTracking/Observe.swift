import Synchronization

/// Runs `body` now and again after every change of a tracked property it read.
///
/// Each run records its reads anew, so a branch that stops reading a property stops depending
/// on it. Changes made in one transaction cause one run. `body` receives the properties that
/// changed (empty on the first run):
///
/// ```swift
/// let token = observe { changes in
///   print("\(person.firstName) is \(person.age)", changes.isEmpty ? "" : "(\(changes))")
/// }
/// ```
///
/// Runs happen in the caller's isolation: on the main actor when called from the main actor
/// (synchronously if the change happens on the main thread, enqueued otherwise), enqueued on an
/// actor when called from one, synchronously on the mutating thread when called from
/// nonisolated code. A run never overlaps another run of the same observer: a change that
/// arrives during a run causes one more run after it. A body that keeps changing what it
/// reads is stopped after ``TrackingDiagnostics/rerunLimit`` runs in a row and reported.
///
/// - Parameters:
///   - isolation: The caller's isolation; leave the default.
///   - body: The closure to run; its reads are tracked.
/// - Returns: A token; the observation lasts until it is cancelled or released.
/// - Complexity: Each run is O(*r*) for *r* tracked reads, plus a lock per registrar read.
public func observe(
  isolation: isolated (any Actor)? = #isolation,
  _ body: @escaping (TrackingChanges) -> Void
) -> TrackingToken {
  startObserving(isolation, UncheckedCallback(body))
}

/// Creates a continuous observer, runs it once, and returns its token.
private func startObserving(
  _ isolation: (any Actor)?, _ callback: UncheckedCallback
) -> TrackingToken {
  let observer = ObserverCore(
    kind: .continuous, delivery: Delivery(isolation), callback: callback)
  observer.runContinuous(initialChanges: .none)
  return TrackingToken(observer: observer)
}

/// Runs `body` now and again after every change of a tracked property it read.
///
/// The same as ``observe(isolation:_:)-(_,(TrackingChanges)->Void)`` for a body that does not
/// need to know what changed.
///
/// ```swift
/// let token = observe { print("count:", counter.count) }
/// ```
///
/// - Parameters:
///   - isolation: The caller's isolation; leave the default.
///   - body: The closure to run; its reads are tracked.
/// - Returns: A token; the observation lasts until it is cancelled or released.
/// - Complexity: Each run is O(*r*) for *r* tracked reads, plus a lock per registrar read.
public func observe(
  isolation: isolated (any Actor)? = #isolation,
  _ body: @escaping () -> Void
) -> TrackingToken {
  startObserving(isolation, UncheckedCallback(body))
}

/// Computes `value` now and again after every change of a tracked property it read, and passes
/// each new value to `onChange`.
///
/// `onChange` is not called for the first value, and its reads are not tracked. When `Value`
/// is `Equatable`, a recomputed value equal to the previous one is not passed on.
///
/// ```swift
/// let token = observe { counter.count > 9 } onChange: { isLarge in
///   print("large:", isLarge)
/// }
/// ```
///
/// - Parameters:
///   - isolation: The caller's isolation; leave the default.
///   - value: Computes the value; its reads are tracked.
///   - onChange: Receives each new value, in the same isolation.
/// - Returns: A token; the observation lasts until it is cancelled or released.
/// - Complexity: Each run is O(*r*) for *r* tracked reads in `value`, plus a lock per
///   registrar read.
public func observe<Value>(
  isolation: isolated (any Actor)? = #isolation,
  _ value: @escaping () -> Value,
  onChange: @escaping (Value) -> Void
) -> TrackingToken {
  observe(isolation: isolation, value, isDuplicate: nil, onChange: onChange)
}

/// Computes `value` now and again after every change of a tracked property it read, and passes
/// each new value that differs from the previous one to `onChange`.
///
/// - Parameters:
///   - isolation: The caller's isolation; leave the default.
///   - value: Computes the value; its reads are tracked.
///   - onChange: Receives each new, different value, in the same isolation.
/// - Returns: A token; the observation lasts until it is cancelled or released.
/// - Complexity: Each run is O(*r*) for *r* tracked reads in `value`, plus a lock per
///   registrar read.
public func observe<Value: Equatable>(
  isolation: isolated (any Actor)? = #isolation,
  _ value: @escaping () -> Value,
  onChange: @escaping (Value) -> Void
) -> TrackingToken {
  observe(isolation: isolation, value, isDuplicate: { $0 == $1 }, onChange: onChange)
}

private func observe<Value>(
  isolation: isolated (any Actor)?,
  _ value: @escaping () -> Value,
  isDuplicate: ((Value, Value) -> Bool)?,
  onChange: @escaping (Value) -> Void
) -> TrackingToken {
  var previous: Value?
  return observe(isolation: isolation) { (changes: TrackingChanges) in
    let current = value()
    defer { previous = current }
    guard let old = previous, !changes.isEmpty else { return }
    if let isDuplicate, isDuplicate(old, current) { return }
    withoutTracking { onChange(current) }
  }
}

/// Runs `body` without recording its reads in the enclosing tracking scope.
///
/// - Parameter body: The closure to run.
/// - Returns: What `body` returns.
public func withoutTracking<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
  guard TrackingActivity.shared.scopes.load(ordering: .relaxed) != 0,
    let context = ThreadContext.currentIfPresent, let scope = context.scope
  else { return try body() }
  context.scope = nil
  defer { context.scope = scope }
  return try body()
}
