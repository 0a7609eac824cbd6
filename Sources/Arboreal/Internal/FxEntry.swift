/// One entry of an ``Fx``: work to start, or a cancellation to perform.
///
/// A store handles the entries of an `Fx` in order, so `.merge(.cancel(id: x), work)` cancels
/// the old `x` before the new work starts.
@usableFromInline
enum FxEntry<Action: Sendable>: Sendable {
  /// Start `Work` in a task of its own.
  case run(Work)
  /// Cancel every running effect tagged with the identifier.
  case cancel(CancelID)
  /// Deliver an action at once (`Fx.send(_:)`): the store handles it right after the action
  /// whose update returned it, before any effect's action, in the order of the entries.
  /// `owner` is the child model whose update returned it (the innermost `forward`'s link),
  /// nil for the store's own model: in debug builds the store reports the action if no
  /// update forwards it back to that child (see `ForwardProbe`).
  case send(Action, owner: ChildLink?)
  /// The model that returned it asks its parent to dismiss it (`Fx.dismiss`): a presentation or
  /// stack `forward` turns it into the parent's dismissing action; anywhere else the store
  /// reports it (debug builds) and ignores it.
  case dismiss
  /// The subscriptions a child model wants now (a `SubscribingModel` forwarded to with
  /// `forward`), evaluated after its update: the store starts those whose id is new for that
  /// child and cancels those whose id is gone. The owners are the child's link, then each
  /// parent's that forwarded it, as in `Work.owners`.
  case subscribe(owners: [ChildLink], [Subscription<Action>])

  /// Async work that may deliver actions.
  @usableFromInline
  struct Work: Sendable {
    /// The work. It calls `send` for each action it delivers; `send` returns once the store
    /// has handled the action (or dropped it, when the effect was cancelled or the store is
    /// gone).
    @usableFromInline var operation: @Sendable (_ send: @escaping Send) async -> Void
    /// The identifiers the effect can be cancelled by (empty: only by its handle or the
    /// store's release).
    @usableFromInline var cancelIDs: [CancelID] = []
    /// The identifiers (a subset of `cancelIDs`) whose running effects are cancelled before
    /// this one starts.
    @usableFromInline var cancelInFlightIDs: [CancelID] = []
    /// When set, the effect is dropped instead of started while an effect cancellable by this
    /// identifier runs (a throttle's window).
    @usableFromInline var unlessRunning: CancelID?
    /// The waits before the operation starts, first to last; the store books the first when
    /// it starts the effect.
    @usableFromInline var delays: [DelayStep] = []
    /// The queue the effect runs in, if any.
    @usableFromInline var queue: QueueSpec?
    /// The log number (`StoreLogEntry.sequence`) of the action whose update returned the
    /// effect, set by the store when it starts it; 0 when none was logged.
    @usableFromInline var origin = 0
    /// The child models the effect belongs to, innermost first: the model whose update
    /// returned it, then each parent that forwarded it, up to (not including) the model of
    /// the store. Empty for the store's own model's effects. Each `forward` appends its link.
    @usableFromInline var owners: [ChildLink] = []

    @usableFromInline
    init(
      operation: @escaping @Sendable (_ send: @escaping Send) async -> Void,
      cancelIDs: [CancelID] = [], cancelInFlightIDs: [CancelID] = [],
      unlessRunning: CancelID? = nil, delays: [DelayStep] = [], queue: QueueSpec? = nil,
      origin: Int = 0, owners: [ChildLink] = []
    ) {
      self.operation = operation
      self.cancelIDs = cancelIDs
      self.cancelInFlightIDs = cancelInFlightIDs
      self.unlessRunning = unlessRunning
      self.delays = delays
      self.queue = queue
      self.origin = origin
      self.owners = owners
    }
  }

  /// Delivers one action from an effect to its store.
  @usableFromInline
  typealias Send = @Sendable (Action) async -> Void

  /// The same entry as the parent of the child `scope` sees it: its actions transformed by
  /// `transform`, its identifiers scoped to the child, and (for work) cancellable with every
  /// other effect of the child by the child's membership identifier.
  ///
  /// With `link` (a `forward`), the work also belongs to the link's child.
  @inlinable
  func tag<Parent: Sendable>(
    _ transform: @escaping @Sendable (Action) -> Parent, scope: EffectScope,
    link: ChildLink? = nil
  ) -> FxEntry<Parent> {
    switch self {
    case .cancel(let id):
      return .cancel(id.scoped(in: scope))
    case .send(let action, let owner):
      return .send(transform(action), owner: owner ?? link)
    case .dismiss:
      // A `forward` that can dismiss its child converts it before tagging.
      return .dismiss
    case .subscribe(var owners, let subscriptions):
      if let link { owners.append(link) }
      return .subscribe(
        owners: owners,
        subscriptions.map { $0.tagged(transform, scope: scope, link: link) }
      )
    case .run(let work):
      let operation = work.operation
      var cancelIDs = work.cancelIDs.map { $0.scoped(in: scope) }
      cancelIDs.append(CancelID(member: scope))
      var owners = work.owners
      if let link { owners.append(link) }
      return .run(
        FxEntry<Parent>.Work(
          operation: { send in await operation { action in await send(transform(action)) } },
          cancelIDs: cancelIDs,
          cancelInFlightIDs: work.cancelInFlightIDs.map { $0.scoped(in: scope) },
          unlessRunning: work.unlessRunning?.scoped(in: scope),
          delays: work.delays,
          queue: work.queue.map { $0.scoped(in: scope) },
          owners: owners
        ))
    }
  }
}

/// An effect's body and the closure it sends actions with, handed to the effect's task, which
/// runs the body once and lets go of both as it returns (see `Store.launch`).
///
/// Invariant (why `@unchecked Sendable` holds): made on the main actor and handed to one task,
/// whose start happens after the init; only that task reads or clears `parts`, once.
final class EffectBody<Action: Sendable>: @unchecked Sendable {
  private var parts:
    (
      operation: @Sendable (_ send: @escaping FxEntry<Action>.Send) async -> Void,
      send: FxEntry<Action>.Send
    )?

  init(
    operation: @escaping @Sendable (_ send: @escaping FxEntry<Action>.Send) async -> Void,
    send: @escaping FxEntry<Action>.Send
  ) {
    parts = (operation, send)
  }

  /// Runs the body (with `wait` as the task-local `EffectWait`, when there is one) and lets go
  /// of it and of its `send` when it returns.
  func run(in wait: EffectWait?) async {
    guard let (operation, send) = parts else { return }
    parts = nil
    if let wait {
      await EffectWait.$current.withValue(wait) { await operation(send) }
    } else {
      await operation(send)
    }
  }
}
