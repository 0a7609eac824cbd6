import ArborealTracking

/// Where a store lives, and the one way its effects reach it: the isolation that made the store
/// and, for a store made outside any actor, the mailbox its effects leave their results in.
///
/// ## Design
/// A store is not `Sendable`: it, its model and its runtime are used only in the isolation that
/// made it. An effect runs elsewhere (a detached task) and holds this home, which is
/// `Sendable`, never the store. What it delivers (an action, its end) comes back one of two
/// ways, fixed when the store is made:
/// - **An actor** (the main actor, or an actor of the user's own): the effect hops to it
///   (`await deliver(…, on: isolation)`, a method isolated to that actor) and the store handles
///   the delivery there, as the main-actor store always did.
/// - **No actor** (a nonisolated function, an actor's initialiser): there is no executor to hop
///   to, so the effect posts the delivery in the `mailbox` and goes on; the store's owner
///   handles what is posted, in order, when it next awaits the store (`finish()`, a handle's
///   `value`) or calls `handleDelivered()`: those run in the owner's isolation
///   (`nonisolated(nonsending)`). The effect does not wait for the owner: it may be several
///   actions ahead of the store (an effect on an actor waits for each hop), and a test clock
///   that waits for a woken effect to reach its next wait is not held up by an owner that is
///   itself waiting for the clock.
///
///   Such a store learns its actor the first time its owner awaits it from one (an actor that
///   made its store in its initialiser, where no actor is known yet, then awaits a handle in a
///   method): the mailbox is then bound to that actor, what waits in it is handled at once, and
///   later deliveries hop to the actor as above. A mailbox is bound once, and never unbound.
///
/// ## Invariants (why `@unchecked Sendable` holds)
/// - `fixedIsolation` is written once, by `init`, before any effect can read it (a weak
///   reference, loaded thread-safely); `mailbox` is a `let`, and `Sendable` (its state, the
///   actor it is bound to included, is locked).
/// - `store` is written once, by the store's initialiser, before any effect can start (so
///   before any other thread can read it), and only ever loaded in the store's isolation:
///   inside the methods isolated to `isolation`, or by the owner emptying the mailbox. Loading a
///   weak reference is thread-safe in the Swift runtime.
final class StoreHome<Model: ArborealModel>: @unchecked Sendable {
  /// The store; it holds this home through its runtime, never the other way round.
  weak var store: Store<Model>?
  /// The actor the store was made on; nil for a store made outside any actor. Weak: an actor
  /// that keeps its store would otherwise be kept by it (actor → store → runtime → home →
  /// actor) and never freed; once the actor is gone, so is everything it held, and effects
  /// deliver nothing.
  /// The main actor is kept as a flag, not as a weak reference: it lives for the whole program,
  /// and a weak reference to it would make a side table that nothing ever frees.
  var fixedIsolation: (any Actor)? { isOnTheMainActor ? MainActor.shared : actor }
  private let isOnTheMainActor: Bool
  private weak var actor: (any Actor)?
  /// Where effects leave their deliveries for a store made outside any actor; nil otherwise.
  let mailbox: Mailbox<Model>?

  init(isolation: (any Actor)?) {
    isOnTheMainActor = isolation === MainActor.shared
    if !isOnTheMainActor { actor = isolation }
    mailbox = isolation == nil ? Mailbox() : nil
  }

  /// The actor the store lives on: the one it was made on, or the one its mailbox was bound
  /// to; nil while the store has none.
  var isolation: (any Actor)? { fixedIsolation ?? mailbox?.boundActor }

  /// Delivers an effect's action to the store, in its isolation.
  func deliver(_ action: Model.Action, from effect: EffectID, origin: Int, owner: ChildLink?) async
  {
    guard let isolation = fixedIsolation ?? post(action, effect, origin, owner, traced: false)
    else { return }
    await receive(action, from: effect, origin: origin, owner: owner, on: isolation)
  }

  /// Delivers an action from an effect whose hops the trace counts (it counted this one's
  /// start); the delivery's end is counted when the store has it.
  func deliverTraced(
    _ action: Model.Action, from effect: EffectID, origin: Int, owner: ChildLink?,
    trace: EffectTrace
  ) async {
    guard let isolation = fixedIsolation ?? post(action, effect, origin, owner, traced: true)
    else {
      // Arrived once in the mailbox, and quiet once the effect is back from posting (at once):
      // a test store's step counts the mailbox's items as work itself, and a test clock must
      // not wait for an owner that is waiting for it.
      return trace.deliveryArrived()
    }
    await receiveTraced(
      action, from: effect, origin: origin, owner: owner, trace: trace, on: isolation)
  }

  /// Reports an effect's end to the store, in its isolation.
  func finish(_ effect: EffectID) async {
    guard let isolation = fixedIsolation ?? mailbox?.post(.finished(effect, traced: false))
    else { return }
    await finish(effect, on: isolation)
  }

  /// Reports the end of an effect whose hops the trace counts (it counted this one's start).
  func finishTraced(_ effect: EffectID, trace: EffectTrace) async {
    guard let isolation = fixedIsolation ?? mailbox?.post(.finished(effect, traced: true))
    else { return trace.deliveryArrived() }
    await finishTraced(effect, trace: trace, on: isolation)
  }

  /// Posts an action in the mailbox, for the owner to handle; once the mailbox is bound,
  /// returns its actor instead, to hop to.
  private func post(
    _ action: Model.Action, _ effect: EffectID, _ origin: Int, _ owner: ChildLink?, traced: Bool
  ) -> (any Actor)? {
    mailbox?.post(.action(action, effect: effect, origin: origin, owner: owner, traced: traced))
  }

  private func receive(
    _ action: Model.Action, from effect: EffectID, origin: Int, owner: ChildLink?,
    on isolation: isolated any Actor
  ) {
    store?.receive(action, from: effect, origin: origin, owner: owner)
  }

  private func receiveTraced(
    _ action: Model.Action, from effect: EffectID, origin: Int, owner: ChildLink?,
    trace: EffectTrace, on isolation: isolated any Actor
  ) async {
    guard let store else { return trace.deliveryArrived() }
    await store.receiveTraced(
      action, from: effect, origin: origin, owner: owner, isolation: isolation)
  }

  private func finish(_ effect: EffectID, on isolation: isolated any Actor) {
    store?.finish(effect)
  }

  private func finishTraced(
    _ effect: EffectID, trace: EffectTrace, on isolation: isolated any Actor
  ) {
    guard let store else { return trace.deliveryArrived() }
    store.finishTraced(effect)
  }
}

/// What the effects of a store made outside any actor deliver, kept until the store's owner
/// handles it (see `StoreHome`).
///
/// ## Invariants
/// Its state is only touched under its lock. After `close()` (the store is gone) nothing is
/// kept and every waiter is resumed; a later `post` is dropped and a later `next()` returns at
/// once.
final class Mailbox<Model: ArborealModel>: Sendable {
  /// One delivery: an effect's action or its end. `traced`: the effect's trace counted it, and
  /// counts its end when the owner takes it.
  enum Item: Sendable {
    case action(Model.Action, effect: EffectID, origin: Int, owner: ChildLink?, traced: Bool)
    case finished(EffectID, traced: Bool)

    /// The effect that posted it.
    var effect: EffectID {
      switch self {
      case .action(_, let effect, _, _, _), .finished(let effect, _): effect
      }
    }
  }

  private struct State {
    var items: [Item] = []
    var waiters: [CheckedContinuation<Void, Never>] = []
    var isClosed = false
    /// The actor the owner awaited the store from, once it did (see `StoreHome`); weak, as
    /// `StoreHome.fixedIsolation` is.
    /// (The main actor is kept as a flag, as in `StoreHome`.)
    weak var boundActor: (any Actor)?
    var isBoundToTheMainActor = false
    /// Whether the mailbox was bound (the actor may be gone since).
    var isBound = false

    /// The actor it is bound to, while it lives.
    var bound: (any Actor)? { isBoundToTheMainActor ? MainActor.shared : boundActor }
  }

  private let state = Locked.make(State())

  /// Keeps a delivery, and wakes the owner if it waits; once the mailbox is bound, keeps
  /// nothing and returns the actor to deliver to instead.
  @discardableResult
  func post(_ item: Item) -> (any Actor)? {
    let (waiters, bound) = state.withLock {
      state -> ([CheckedContinuation<Void, Never>], (any Actor)?) in
      if state.isBound { return ([], state.bound) }
      guard !state.isClosed else { return ([], nil) }
      state.items.append(item)
      defer { state.waiters = [] }
      return (state.waiters, nil)
    }
    for waiter in waiters { waiter.resume() }
    return bound
  }

  /// The actor the mailbox is bound to; nil until it is.
  var boundActor: (any Actor)? { state.withLock { $0.bound } }

  /// Whether the mailbox was bound to an actor (which may be gone since).
  var isBound: Bool { state.withLock { $0.isBound } }

  /// Binds the mailbox to `actor`, once, and returns what waited in it, oldest first, for the
  /// owner to handle now; later posts return the actor. Returns nothing when already bound.
  func bind(to actor: any Actor) -> [Item] {
    let (items, waiters) = state.withLock { state -> ([Item], [CheckedContinuation<Void, Never>]) in
      guard !state.isBound, !state.isClosed else { return ([], []) }
      if actor === MainActor.shared {
        state.isBoundToTheMainActor = true
      } else {
        state.boundActor = actor
      }
      state.isBound = true
      defer {
        state.items = []
        state.waiters = []
      }
      return (state.items, state.waiters)
    }
    for waiter in waiters { waiter.resume() }
    return items
  }

  /// Takes everything kept so far, oldest first.
  func take() -> [Item] {
    state.withLock { state in
      defer { state.items = [] }
      return state.items
    }
  }

  /// Whether something waits to be taken.
  var isEmpty: Bool { state.withLock { $0.items.isEmpty } }

  /// Returns once something was posted (at once if something waits, or the mailbox is closed).
  func next() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let now = state.withLock { state -> Bool in
        if !state.items.isEmpty || state.isClosed { return true }
        state.waiters.append(continuation)
        return false
      }
      if now { continuation.resume() }
    }
  }

  /// Drops what is kept and wakes every waiter: the store is gone. Returns what was dropped,
  /// oldest first.
  @discardableResult
  func close() -> [Item] {
    let (waiters, dropped) = state.withLock { state in
      state.isClosed = true
      defer {
        state.items = []
        state.waiters = []
      }
      return (state.waiters, state.items)
    }
    for waiter in waiters { waiter.resume() }
    return dropped
  }
}

/// The isolation of the caller: in a `nonisolated(nonsending)` function, its own caller's.
func callerIsolation(_ isolation: isolated (any Actor)? = #isolation) -> (any Actor)? {
  isolation
}
