/// An observer's callback, carried across threads and called synchronously in its isolation.
///
/// The public entry points take `@isolated(any) @Sendable` closures that inherit the caller's
/// actor (`@_inheritActorContext`): on the main actor or another actor, the closure is
/// isolated to it and may touch that actor's non-`Sendable` state; from nonisolated code it is
/// nonisolated and the compiler checks that everything it captures is `Sendable`, since it
/// runs on whichever thread makes the change. Either way the compiler, not a comment, keeps
/// the callback from racing its surroundings.
///
/// Calling an `@isolated(any)` function synchronously needs a conversion the language does
/// not offer: it is reinterpreted as a plain function of the same shape (an `@isolated(any)`
/// function value has the layout and calling convention of a thick function; its isolation
/// lives in its context). That is sound only when the call happens in the function's
/// isolation, which ``Delivery`` guarantees.
///
/// Invariant (why `@unchecked Sendable` holds): the callback is only invoked through
/// ``Delivery`` by the observer that owns it, that is, in the isolation it was created in (or,
/// for nonisolated callbacks, on the mutating thread; they are `Sendable`), and never
/// concurrently with itself: an observer admits one runner at a time.
struct UncheckedCallback: @unchecked Sendable {
  private let function: (TrackingChanges) -> Void

  /// Whether the callback may read the names of what changed: a change that only wakes
  /// callbacks that do not lets its first write skip looking the property's name up by
  /// reflection. A user's closure may read them; the library's own callbacks say.
  let readsChanges: Bool

  /// A user's callback, which receives what changed.
  init(_ function: @escaping @isolated(any) @Sendable (TrackingChanges) -> Void) {
    // Non-generic holders: a generic one would store the function at its most abstract
    // representation, which costs a thunk (an allocation) on the way in and another out.
    struct Isolated { let function: @isolated(any) @Sendable (TrackingChanges) -> Void }
    struct Plain { let function: @Sendable (TrackingChanges) -> Void }
    self.function = unsafeBitCast(Isolated(function: function), to: Plain.self).function
    self.readsChanges = true
  }

  /// A callback made inside the library, already known to run only in its observer's
  /// isolation.
  ///
  /// - Parameters:
  ///   - readsNames: Whether `function` reads the names of the changed properties (not only
  ///     whether there are any).
  ///   - function: The callback.
  init(readsNames: Bool, unchecked function: @escaping (TrackingChanges) -> Void) {
    self.function = function
    self.readsChanges = readsNames
  }

  func callAsFunction(_ changes: TrackingChanges) {
    function(changes)
  }
}

// The reinterpretations below cast a struct holding the function, not the function itself, so
// that both sides of the cast have the same layout by construction. Being generic, they may
// wrap the function in reabstraction thunks (an allocation or two per call): they serve the
// value-observing forms, once per observer. The per-notification callbacks use the
// non-generic casts in ``UncheckedCallback``.

private struct IsolatedFunction<Value> {
  let function: @isolated(any) @Sendable () -> Value
}

private struct PlainFunction<Value> {
  let function: @Sendable () -> Value
}

private struct IsolatedFunction1<Argument, Value> {
  let function: @isolated(any) @Sendable (Argument) -> Value
}

private struct PlainFunction1<Argument, Value> {
  let function: @Sendable (Argument) -> Value
}

private struct IsolatedFunction2<First, Second, Value> {
  let function: @isolated(any) @Sendable (First, Second) -> Value
}

private struct PlainFunction2<First, Second, Value> {
  let function: @Sendable (First, Second) -> Value
}

/// Reinterprets an `@isolated(any)` function as a plain one, to be called synchronously in
/// its isolation only (see ``UncheckedCallback``).
func synchronous<Value>(
  _ function: @escaping @isolated(any) @Sendable () -> Value
) -> @Sendable () -> Value {
  unsafeBitCast(IsolatedFunction(function: function), to: PlainFunction<Value>.self).function
}

/// Reinterprets an `@isolated(any)` function of one argument as a plain one, to be called
/// synchronously in its isolation only (see ``UncheckedCallback``).
func synchronous<Argument, Value>(
  _ function: @escaping @isolated(any) @Sendable (Argument) -> Value
) -> @Sendable (Argument) -> Value {
  unsafeBitCast(
    IsolatedFunction1(function: function), to: PlainFunction1<Argument, Value>.self
  ).function
}

/// Reinterprets an `@isolated(any)` function of two arguments as a plain one, to be called
/// synchronously in its isolation only (see ``UncheckedCallback``).
func synchronous<First, Second, Value>(
  _ function: @escaping @isolated(any) @Sendable (First, Second) -> Value
) -> @Sendable (First, Second) -> Value {
  unsafeBitCast(
    IsolatedFunction2(function: function), to: PlainFunction2<First, Second, Value>.self
  ).function
}
