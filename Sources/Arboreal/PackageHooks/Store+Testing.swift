// The test hooks of `Store`: `package` ones for `ArborealTesting`'s `TestStore` and internal
// ones for this package's tests. None is API. The stored hooks are kept by the runtime, which
// reads them.

extension Store {
  /// Package hook for `ArborealTesting`'s `TestStore`, not API: when set, an action delivered
  /// by a running effect is handed to it instead of being handled, together with a ticket
  /// that keeps the effect's group open; the interceptor later handles it with
  /// ``handleIntercepted(_:ticket:)`` (or never, and the group stays open until the store is
  /// released). Only the effect-delivery path reads it: a plain `send` never does.
  package var effectActionInterceptor: ((Model.Action, InterceptedActionTicket) -> Void)? {
    get { runtime.effectActionInterceptor }
    set { runtime.effectActionInterceptor = newValue }
  }

  /// Package hook for `ArborealTesting`'s `TestStore`, not API: when set, a `Fx.dismiss` that
  /// reaches the store (the model under test dismissed itself) calls it instead of being
  /// reported as unhandled.
  package var rootDismissHandler: (() -> Void)? {
    get { runtime.rootDismissHandler }
    set { runtime.rootDismissHandler = newValue }
  }

  /// Package hook for `ArborealTesting`'s `TestStore`, not API: when set, a debug report made
  /// while this store's update runs (an action dropped for a child that is not there, a route
  /// that `routes` does not list, …) is handed to it as well as to
  /// ``ArborealDiagnostics/droppedActionHandler``, every time (the handler's once-per-place
  /// reports included), so that the test store fails the test that made it. Debug builds only
  /// make reports.
  package var debugReportSink: ((String) -> Void)? {
    get { runtime.debugReportSink }
    set { runtime.debugReportSink = newValue }
  }

  /// Package hook for `ArborealTesting`'s `TestStore`, not API: asked before an effect whose
  /// hops the trace counts delivers an action, whether it must wait first (see
  /// `EffectDeliveryHold`). Held weakly: the test store owns this store.
  package var effectDeliveryHold: (any EffectDeliveryHold)? {
    get { runtime.effectDeliveryHold }
    set { runtime.effectDeliveryHold = newValue }
  }

  /// Handles an effect action that ``effectActionInterceptor`` received, exactly as the store
  /// would have handled it on arrival: in the effect's group (so its own effects belong to the
  /// same send handle), queued if the store is busy. Handle each ticket once.
  ///
  /// - Parameters:
  ///   - action: The intercepted action.
  ///   - ticket: The ticket that came with it.
  package func handleIntercepted(_ action: Model.Action, ticket: InterceptedActionTicket) {
    runtime.handle(action, heldIn: ticket.group, origin: ticket.origin, owner: ticket.owner)
  }

  /// The tasks of the running effects, oldest first: awaiting them waits for those effects.
  package var runningEffectTasks: [Task<Void, Never>] {
    runtime.table.effects.sorted { $0.key.rawValue < $1.key.rawValue }.compactMap(\.value.handle)
  }

  /// One line per running effect, oldest first: its number and its cancellation identifiers.
  package var runningEffectDescriptions: [String] {
    runningEffects.map(\.description)
  }

  /// The running effects, oldest first: each one's line (its number and its cancellation
  /// identifiers) and, with an ``effectExecutor``, what it waits for when a test clock said so.
  package var runningEffects: [(number: UInt64, description: String, waitingFor: String?)] {
    runtime.table.effects.sorted { $0.key.rawValue < $1.key.rawValue }.map { id, running in
      let ids = running.cancelIDs.filter { !$0.isMembership }.map(\.debugDescription)
      return (
        id.rawValue,
        "effect #\(id.rawValue)"
          + (ids.isEmpty ? "" : " (cancellable by \(ids.joined(separator: ", ")))"),
        runtime.trace?.note(of: id.rawValue)
      )
    }
  }

  /// The trace of the effects' hops (set with an ``effectExecutor``).
  package var effectTrace: EffectTrace? { runtime.trace }

  /// The numbers of the running effects (as in `effect #3`).
  package var runningEffectNumbers: Set<UInt64> {
    Set(runtime.table.effects.keys.map(\.rawValue))
  }

  /// Whether no effect runs and none waits for room in its queue.
  package var hasNoEffects: Bool { runtime.table.effects.isEmpty && !runtime.hasSuspendedEffects }

  /// How many of the effects' hops to the main actor have arrived (zero without an
  /// ``effectExecutor``).
  package var deliveryArrivals: Int { runtime.trace?.arrivals ?? 0 }

  /// How many of the effects' hops to the main actor are under way (zero without an
  /// ``effectExecutor``, when nothing counts them).
  package var pendingDeliveries: Int { runtime.trace?.pendingDeliveries ?? 0 }

  /// Whether the caller runs in the store's isolation: false when a wait lost its caller's
  /// isolation, and would step the effects from another thread. (A store made outside any actor
  /// answers true: its isolation has no actor to compare.)
  package func isInIsolation(_ isolation: isolated (any Actor)? = #isolation) -> Bool {
    guard let home = runtime.home.isolation else { return true }
    return isolation === home
  }

  /// Whether the store lives on the main actor.
  package var isOnTheMainActor: Bool { runtime.home.isolation === MainActor.shared }

  /// Whether effects of a store made outside any actor posted deliveries that are not handled
  /// yet (see `StoreHome`); false for a store on an actor.
  package var hasPendingMail: Bool { !(runtime.mailbox?.isEmpty ?? true) }

  /// How many effects are running; for this package's tests.
  var runningEffectCount: Int { runtime.table.effects.count }

  /// How many groups are open; for this package's tests.
  var openGroupCount: Int { runtime.table.groups.count }
}

extension Store {
  /// How many child models own running effects (or have descendants that do); for this
  /// package's tests.
  var childRecordCount: Int { runtime.lifetimes?.recordCount ?? 0 }

  /// How many routes to such children are watched; for this package's tests.
  var childWatchCount: Int { runtime.lifetimes?.watchCount ?? 0 }
}

extension Store {
  /// The effect table (running effects, groups, waiters); for this package's tests.
  var table: EffectRuntime<Model>.Table { runtime.table }

  /// How many routes the store follows; for this package's tests.
  var followedRouteCount: Int { runtime.followedRouteCount }

  /// How many places (a parent instance's route) the store watches, for its mounts and its
  /// lifetime records together; for this package's tests.
  var watchedPlaceCount: Int { runtime.watchedPlaceCount }
}

/// Package hook for `ArborealTesting`'s `TestStore`, not API: whether `model` is a model with
/// subscriptions (a ``SubscribingModel``), which start only where a route of its parent, listed
/// in the parent's ``ArborealModel/routes``, holds it.
package func subscribes(_ model: AnyObject) -> Bool {
  func subscribes<Model: ArborealModel>(_: Model) -> Bool { Model.subscribes }
  return (model as? any ArborealModel).map { subscribes($0) } ?? false
}
