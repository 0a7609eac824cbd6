/// Where an observer's callbacks run: in the isolation that registered it.
///
/// - `synchronous`: registered from nonisolated code; callbacks run on the mutating thread.
/// - `mainActor`: registered on the main actor; callbacks run synchronously when the change
///   happens on the main actor (always the case for a `Store`), otherwise they are enqueued
///   on it.
/// - `actor`: registered on another actor; callbacks are enqueued on that actor.
enum Delivery: Sendable {
  case synchronous
  case mainActor
  case actor(any Actor)

  init(_ isolation: (any Actor)?) {
    guard let isolation else {
      self = .synchronous
      return
    }
    if isolation === MainActor.shared {
      self = .mainActor
    } else {
      self = .actor(isolation)
    }
  }

  /// Whether a callback may run right now, on the calling thread: always for a nonisolated
  /// observer; on the main actor for a main-actor one; for another actor's, only inside a job
  /// of this library's running on that actor (see ``Outbox``), where the thread is known to
  /// be in its isolation.
  var isImmediate: Bool {
    switch self {
    case .synchronous: return true
    case .mainActor: return Platform.isOnMainActor
    case .actor(let actor):
      guard let context = ThreadContext.currentIfPresent else { return false }
      return context.runningOnActor == ObjectIdentifier(actor)
    }
  }

  /// Runs `work` in the delivery's isolation: at once when already there, otherwise later.
  /// While this thread delivers (``ThreadContext/delivering(_:)``), the
  /// work waits in its outbox, to run in one job per actor with the others.
  func perform(_ work: @escaping @Sendable () -> Void) {
    if isImmediate { return work() }
    if let context = ThreadContext.currentIfPresent, context.outbox.isOpen {
      context.outbox.add(work, for: self)
      return
    }
    Delivery.start([work], on: self)
  }

  /// Starts one job that runs `works`, in order, in the delivery's isolation (not
  /// `.synchronous`, whose work runs at once).
  static func start(_ works: [@Sendable () -> Void], on delivery: Delivery) {
    switch delivery {
    case .synchronous:
      for work in works { work() }
    case .mainActor:
      Task { @MainActor in for work in works { work() } }
    case .actor(let actor):
      Task { await Delivery.run(on: actor, works) }
    }
  }

  /// Runs `works` on `actor`, marking the thread as being in its isolation meanwhile, so that
  /// deliveries to the same actor that the works cause run at once, in this job.
  private static func run(on actor: isolated any Actor, _ works: [@Sendable () -> Void]) {
    let context = ThreadContext.current
    let outer = context.runningOnActor
    context.runningOnActor = ObjectIdentifier(actor)
    defer { context.runningOnActor = outer }
    for work in works { work() }
  }
}

/// The deliveries to other isolations that one write or transaction makes, held while the
/// writing thread delivers it, then started as one job per isolation, in the order they were
/// made: a derived value's input link before the observers that read it, so that the value
/// is refreshed (and its change merged into theirs) before they run, as on the writing
/// thread.
///
/// Invariant: used only by its thread (it is a ``ThreadContext``'s); `depth` counts the
/// nested ``ThreadContext/delivering(_:)`` calls, and `works` is empty while it is 0.
struct Outbox {
  private(set) var depth = 0
  private var works: [(delivery: Delivery, work: @Sendable () -> Void)] = []

  var isOpen: Bool { depth > 0 }

  mutating func open() { depth += 1 }

  mutating func add(_ work: @escaping @Sendable () -> Void, for delivery: Delivery) {
    works.append((delivery, work))
  }

  /// Closes one level; at the outermost, takes the works, grouped by isolation in
  /// first-seen order.
  mutating func close() -> [(Delivery, [@Sendable () -> Void])] {
    depth -= 1
    guard depth == 0, !works.isEmpty else { return [] }
    var groups: [(Delivery, [@Sendable () -> Void])] = []
    for (delivery, work) in works {
      if let index = groups.firstIndex(where: { $0.0.isSameIsolation(as: delivery) }) {
        groups[index].1.append(work)
      } else {
        groups.append((delivery, [work]))
      }
    }
    works.removeAll()
    return groups
  }
}

extension Delivery {
  /// Whether both deliveries run in the same isolation.
  func isSameIsolation(as other: Delivery) -> Bool {
    switch (self, other) {
    case (.synchronous, .synchronous), (.mainActor, .mainActor): return true
    case (.actor(let one), .actor(let two)): return one === two
    default: return false
    }
  }
}

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

extension Delivery {
  /// Stops the program when the caller is not in this isolation: a derived value whose
  /// computation is isolated to an actor is read only there.
  func preconditionIsolated(_ name: @autoclosure () -> String) {
    switch self {
    case .synchronous:
      return
    case .mainActor:
      if !Platform.isOnMainActor {
        fatalError(
          "ArborealTracking: the derived value \(name()) was made on the main actor and read "
            + "off it; read it on the main actor")
      }
    case .actor(let actor):
      actor.preconditionIsolated(
        "ArborealTracking: the derived value \(name()) was made on an actor and read off it; "
          + "read it on that actor")
    }
  }
}
