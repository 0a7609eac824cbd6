// The test hooks of `Store`: `package` ones for `ArborealTesting`'s `TestStore` and internal
// ones for this package's tests. None is API. The stored hooks (`effectActionInterceptor`,
// `rootDismissHandler`) are declared in `Store.swift`, since an extension cannot hold a stored
// property.

extension Store {
  /// Handles an effect action that ``effectActionInterceptor`` received, exactly as the store
  /// would have handled it on arrival: in the effect's group (so its own effects belong to the
  /// same send handle), queued if the store is busy. Handle each ticket once.
  ///
  /// - Parameters:
  ///   - action: The intercepted action.
  ///   - ticket: The ticket that came with it.
  package func handleIntercepted(_ action: Model.Action, ticket: InterceptedActionTicket) {
    handle(action, heldIn: ticket.group, origin: ticket.origin, owner: ticket.owner)
  }

  /// The tasks of the running effects, oldest first: awaiting them waits for those effects.
  package var runningEffectTasks: [Task<Void, Never>] {
    table.effects.sorted { $0.key.rawValue < $1.key.rawValue }.compactMap(\.value.handle)
  }

  /// One line per running effect, oldest first: its number and its cancellation identifiers.
  package var runningEffectDescriptions: [String] {
    runningEffects.map(\.description)
  }

  /// The running effects, oldest first: each one's line (its number and its cancellation
  /// identifiers) and, with an ``effectExecutor``, what it waits for when a test clock said so.
  package var runningEffects: [(number: UInt64, description: String, waitingFor: String?)] {
    table.effects.sorted { $0.key.rawValue < $1.key.rawValue }.map { id, running in
      let ids = running.cancelIDs.filter { !$0.isMembership }.map(\.debugDescription)
      return (
        id.rawValue,
        "effect #\(id.rawValue)"
          + (ids.isEmpty ? "" : " (cancellable by \(ids.joined(separator: ", ")))"),
        trace?.note(of: id.rawValue)
      )
    }
  }

  /// The trace of the effects' hops (set with an ``effectExecutor``).
  package var effectTrace: EffectTrace? { trace }

  /// The numbers of the running effects (as in `effect #3`).
  package var runningEffectNumbers: Set<UInt64> {
    Set(table.effects.keys.map(\.rawValue))
  }

  /// Whether no effect runs and none waits for room in its queue.
  package var hasNoEffects: Bool { table.effects.isEmpty && !hasSuspendedEffects }

  /// How many of the effects' hops to the main actor have arrived (zero without an
  /// ``effectExecutor``).
  package var deliveryArrivals: Int { trace?.arrivals ?? 0 }

  /// How many of the effects' hops to the main actor are under way (zero without an
  /// ``effectExecutor``, when nothing counts them).
  package var pendingDeliveries: Int { trace?.pendingDeliveries ?? 0 }

  /// How many effects are running; for this package's tests.
  var runningEffectCount: Int { table.effects.count }

  /// How many groups are open; for this package's tests.
  var openGroupCount: Int { table.groups.count }
}

extension Store {
  /// How many child models own running effects (or have descendants that do); for this
  /// package's tests.
  var childRecordCount: Int { lifetimes?.recordCount ?? 0 }

  /// How many routes to such children are watched; for this package's tests.
  var childWatchCount: Int { lifetimes?.watchCount ?? 0 }
}
