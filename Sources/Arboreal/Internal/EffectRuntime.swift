/// What a ``Store`` runs besides `update`: the actions queued while it is busy, the effects and
/// their groups, the queue policy, the children that own effects, both kinds of
/// subscriptions (the model's and its children's), the routes it follows, the trace of the
/// effects' hops and the callers of `finish()`.
///
/// ## Design
/// The store is the front: its inlined `send` runs the update and hands the result to
/// ``finishSend(_:)``, and everything an action leaves behind happens here. The state
/// machines it coordinates each own one concern and check their own invariants:
/// `EffectTable` (running effects, identifiers, groups, waiters), `EffectQueues` (the queue
/// policy), `ChildLifetimes` (children that own effects and the watches that end them),
/// `Mounts` (the routes followed), `ActionQueue` (actions received while busy). This type
/// performs what they answer: the one place that performs a table's output is
/// ``perform(_:)``, and the one place an action's handling ends is ``finishHandling()``.
///
/// The runtime is only ever entered through its store: the store owns it (and nothing else
/// does), and effect tasks, send handles, child lifetimes and mounts hold the store weakly or
/// the runtime unowned. So `store` (unowned, unsafe) is alive whenever the runtime runs.
///
/// ## Invariants
/// Checked by ``checkInvariants()`` when built with `-DARBOREAL_INTERNAL_CHECKS`, where an
/// action's handling ends and where an effect ends:
/// 1. When the store is not handling an action, no action is queued.
/// 2. Every queued action and every suspended effect holds an open group.
/// 3. No subscription id runs twice, for the model or for a child.
/// 4. A caller of `finish()` waits only while an effect runs or waits for room.
/// 5. The table, the queue policy, the action queue and the child lifetimes hold their own
///    invariants.
@usableFromInline
final class EffectRuntime<Model: ArborealModel> {
  /// The store this runtime belongs to; see the type's comment for why it is alive.
  unowned(unsafe) var store: Store<Model>!

  /// An action received while busy, with its group and a hold on it.
  private struct Queued {
    let action: Model.Action
    let group: GroupID
    /// nil for a sent action; for an effect's, the `store.log.sequence` of the action that started
    /// the effect (0 if unknown).
    let origin: Int?
    /// For an action an effect of a child model delivered, that child (debug builds: see
    /// `ForwardProbe`).
    var owner: ChildLink? = nil
  }

  typealias Table = EffectTable<Task<Void, Never>, CheckedContinuation<Void, Never>>

  // Five fields switch the dynamic exclusivity checks off, each because a hot path touches it
  // (a check is a runtime call, dear beside a plain send), and each is safe for the same
  // reason: main-actor state whose accesses never overlap, none spanning a call that could
  // reach the same property (each is read or written in a statement of its own, and the state
  // machines are mutated by calls that return their output before it is performed). The
  // other fields keep their checks.

  /// True while an action is being handled: a `send` that finds it true queues its action
  /// instead of re-entering `update`. Set by the store's `send` (read by its inlined fast
  /// path) and cleared by ``finishHandling()``. Unchecked: every `send` reads and writes it.
  @exclusivity(unchecked) @usableFromInline var isHandling = false

  // The actions received while busy, each with the effect group it belongs to and a hold on
  // that group (see `EffectTable`), so that its `SendHandle` can wait for effects that have not
  // started yet. Drained by the outermost handler before it returns, so the queue is empty
  // whenever the main actor is free. Unchecked: every `send` asks whether it is empty.
  @exclusivity(unchecked) private var queue = ActionQueue<Queued>()
  // The running effects, their groups and the waiting handles. Only the main actor touches it,
  // except `deinit`, which runs when nothing else can reach the store. Read (never written) by
  // the hooks in `Store+Testing.swift`, hence not private. Unchecked: an effect's start,
  // each of its actions and its end go through it several times.
  @exclusivity(unchecked) private(set) var table = Table()
  // The store's weak reference to itself that send handles hold, so that a handle never keeps
  // the store alive; made with the first handle that needs it.
  private var reference: HostReference?
  /// The callers of ``finish()`` waiting for the store to be idle.
  private var idleWaiters: [CheckedContinuation<Void, Never>] = []
  /// The ids of the subscriptions started, in the order they were started.
  private var activeSubscriptions: [CancelID] = []
  /// The queue policy: the effects waiting for room in their queue, and when each queue with
  /// spacing last started one (see `EffectQueues`). Unchecked: every `perform(_:)` asks
  /// whether an effect is suspended.
  @exclusivity(unchecked) private var queues = EffectQueues<FxEntry<Model.Action>.Work>()
  /// Whether `resumeSuspended()` is running (it starts effects, which can call it again).
  private var isResuming = false
  /// The child models that own running effects, and the watches that end those effects when
  /// a child leaves the state; made with the first effect a `forward` started.
  private(set) var lifetimes: ChildLifetimes?
  /// For each child model whose subscriptions a `forward` reported, the ids of those
  /// started, in the order they were started; dropped when the child leaves the state.
  private var childSubscriptions: [ObjectIdentifier: ChildSubscriptions] = [:]
  /// The following of the model's ``ArborealModel/routes``; nil for a model without routes.
  /// Unchecked: every `send` asks whether it is nil.
  @exclusivity(unchecked) private var mounts: Mounts?
  /// The one watch of each place the lifetimes or the mounts follow, whose reading both read.
  private lazy var places = PlaceWatches()

  /// The executor the effects' tasks prefer (the store's `effectExecutor`); nil for the
  /// global concurrent executor.
  private(set) var executor: (any TaskExecutor)?

  /// The hops and waits of the effects, counted once an executor has been set (a test steps
  /// through the effects with it); nil until then, and the effects pay nothing for it.
  private(set) var trace: EffectTrace?

  /// The test store's hooks (see `Store+Testing.swift`): what receives effect actions instead
  /// of handling them, what a `Fx.dismiss` reaching the store calls, and what is asked before
  /// a traced effect delivers an action (held weakly: the test store owns the store).
  var effectActionInterceptor: ((Model.Action, InterceptedActionTicket) -> Void)?
  var rootDismissHandler: (() -> Void)?
  var debugReportSink: ((String) -> Void)?
  weak var effectDeliveryHold: (any EffectDeliveryHold)?

  /// The deliveries from the mailbox that a test store holds (see ``handleMail()``), oldest
  /// first; always empty for a store on an actor.
  private var heldMail: [Mailbox<Model>.Item] = []

  /// Whether the model has subscriptions (`Model.subscribes`), asked once: the store's code is
  /// not specialised for the model, and asking the type after each action is a witness call.
  private let subscribes = Model.subscribes

  /// Where the store lives, and how its effects reach it (see `StoreHome`).
  let home: StoreHome<Model>

  /// Makes a runtime whose effects prefer `executor`, for a store that lives in `isolation`;
  /// ``start(for:)`` attaches it to its store.
  init(executor: (any TaskExecutor)?, isolation: (any Actor)?) {
    home = StoreHome(isolation: isolation)
    if let executor { setExecutor(executor) }
  }

  /// Attaches the runtime to its store, starts the model's subscriptions and follows its
  /// routes.
  func start(for store: Store<Model>) {
    self.store = store
    home.store = store
    if subscribes { refreshSubscriptions() }
    guard !Model.routes.isEmpty else { return }
    mounts = Mounts(model: store.state, environment: store.environment, places: places) {
      [unowned self] fx in
      self.runMounted(fx)
    }
    isHandling = true
    settleMounts()
    isHandling = false
  }

  deinit {
    // Nonisolated: it runs on whichever thread released the store (which releases the
    // runtime), but then nothing else can reach either (effects and handles hold the store
    // weakly), so using `table` cannot race. Cancelled effects find the store gone and deliver
    // nothing; waiting handles return.
    let output = table.removeAll()
    for task in output.cancel { task.cancel() }
    for waiter in output.resume { waiter.resume() }
    for waiter in idleWaiters { waiter.resume() }
    let dropped = (home.mailbox?.close() ?? []) + heldMail
    #if DEBUG
      reportUnhandledMail(dropped)
    #else
      _ = dropped
    #endif
  }

  #if DEBUG
    /// Reports the actions that effects of a store made outside any actor delivered and that
    /// its owner never handled (it never awaited the store, nor asked): on an actor they would
    /// have been handled by themselves, so losing them silently would hide a forgotten line.
    private func reportUnhandledMail(_ dropped: [Mailbox<Model>.Item]) {
      let actions = dropped.compactMap { item -> String? in
        guard case .action(let action, _, _, _, _) = item else { return nil }
        return "\(action)"
      }
      guard let first = actions.first else { return }
      let count = actions.count == 1 ? "1 action" : "\(actions.count) actions"
      ArborealDiagnostics.reportDroppedAction(
        "Arboreal: a Store<\(Model.self)> made outside any actor was released with \(count) "
          + "its effects delivered and nothing handled (the first: \(first)). Such a store "
          + "handles its effects' actions only when its owner awaits it (`finish()`, a send "
          + "handle's `value`) or calls `handleDelivered()`; make it on an actor to have them "
          + "handled as they arrive.")
    }
  #endif

  /// Sets the executor the effects prefer from now on; effects already running keep the one
  /// (and the trace) they started with.
  func setExecutor(_ executor: (any TaskExecutor)?) {
    self.executor = executor
    if let executor { trace = EffectTrace(executor: executor) }
  }

  /// The rest of a `send` once its update ran: starts the effects, handles the queued actions.
  @inline(__always)
  func finishSend(_ fx: Fx<Model.Action>) -> SendHandle {
    if fx.storage != nil { return startEffectsAndFinish(fx) }
    finishHandling()
    return SendHandle()
  }

  /// The end of handling an action, wherever it came from: handles the actions queued
  /// meanwhile, applies the routes' changes, refreshes the model's subscriptions, and marks
  /// the store free. The one place that does.
  @inline(__always)
  func finishHandling() {
    if !queue.isEmpty { drainQueue() }
    if mounts != nil { settleMounts() }
    if subscribes { refreshSubscriptions() }
    isHandling = false
    checkInvariants()
  }

  // MARK: Handling

  // The runtime's code is generic and not specialised for the model. Code that touches a type
  // built from `Model` (`Queued`, `FxEntry<Model.Action>`) looks up its metadata at run time,
  // at the top of the function that mentions it; so the slow paths live in functions of their
  // own, and a plain `send` looks up none.

  /// The rest of a `send` whose update returned effects: starts them in a new group, handles
  /// the queued actions and returns the group's handle.
  @inline(never)
  private func startEffectsAndFinish(_ fx: Fx<Model.Action>) -> SendHandle {
    let group = table.openGroup()
    run(fx, in: group)
    perform(table.release(group))
    finishHandling()
    return handle(for: group)
  }

  /// A handle on a group, referring to the store weakly.
  private func handle(for group: GroupID) -> SendHandle {
    if let reference { return SendHandle(reference: reference, group: group) }
    let made = HostReference(store)
    reference = made
    return SendHandle(reference: made, group: group)
  }

  /// Queues an action received while busy, in a group of its own, held until it is handled.
  @inline(never)
  func enqueue(_ action: Model.Action) -> SendHandle {
    #if DEBUG
      ForwardProbe.noteQueued()
    #endif
    let group = table.openGroup()
    queue.append(Queued(action: action, group: group, origin: nil))
    return handle(for: group)
  }

  /// Handles the queued actions, in order, including those queued meanwhile.
  ///
  /// Callers check `queue.isEmpty` (a plain integer) first: entering this function looks up
  /// the generic metadata of the queued element, which a plain `send` must not pay for.
  @inline(never)
  private func drainQueue() {
    while let next = queue.popFirst() {
      let fx = store.apply(next.action, origin: next.origin, owner: next.owner)
      if !fx.isNone { run(fx, in: next.group) }
      perform(table.release(next.group))
    }
  }

  /// The hold to wait on before handling an action that a traced effect delivers: the test
  /// store's, when it must hold the effect back (see `EffectDeliveryHold`); nil to go on.
  func hold(for effect: EffectID) -> (any EffectDeliveryHold)? {
    guard let hold = effectDeliveryHold, hold.mustHold(effect.rawValue) else { return nil }
    return hold
  }

  /// An action delivered by a running effect. Called on the main actor, from the effect's
  /// task.
  func receive(
    _ action: Model.Action, from effect: EffectID, origin: Int, owner: ChildLink?
  ) {
    // A cancelled (or finished) effect delivers nothing.
    guard let group = table.group(ofRunning: effect) else { return }
    // The hold keeps the group open while the action is handled, even if the update cancels
    // the very effect that delivered it.
    table.retain(group)
    if let effectActionInterceptor {
      effectActionInterceptor(
        action,
        InterceptedActionTicket(
          group: group, origin: origin, effect: effect.rawValue, owner: owner))
      return
    }
    handle(action, heldIn: group, origin: origin, owner: owner)
  }

  /// Handles an action that holds `group` (an effect's action), then releases the hold.
  ///
  /// Internal rather than private for the store's `handleIntercepted(_:ticket:)`.
  func handle(_ action: Model.Action, heldIn group: GroupID, origin: Int, owner: ChildLink?) {
    if isHandling {
      queue.append(Queued(action: action, group: group, origin: origin, owner: owner))
      return
    }
    isHandling = true
    let fx = store.apply(action, origin: origin, owner: owner)
    if !fx.isNone { run(fx, in: group) }
    perform(table.release(group))
    finishHandling()
  }

  // MARK: Routes

  /// Applies the readings of the routes that changed: children that entered the state start
  /// their subscriptions, those that left are no longer followed; then handles what that
  /// queued, until the routes are still.
  @inline(never)
  private func settleMounts() {
    guard let mounts else { return }
    while mounts.isDirty {
      mounts.flush()
      if !queue.isEmpty { drainQueue() }
    }
  }

  /// How many routes the store follows; for this package's tests.
  var followedRouteCount: Int { mounts?.watchCount ?? 0 }

  /// How many places the store watches; for this package's tests.
  var watchedPlaceCount: Int { places.count }

  /// Runs an `Fx` made for a child that entered the state (its subscriptions), in a group no
  /// handle refers to.
  private func runMounted(_ fx: Fx<Model.Action>) {
    let group = table.openGroup()
    run(fx, in: group)
    perform(table.release(group))
  }

  // MARK: Subscriptions

  /// Starts the subscriptions whose id is new and cancels those whose id is gone.
  ///
  /// - Complexity: O(*s* log *s*) for *s* subscriptions, plus their starts and cancellations.
  @inline(never)
  private func refreshSubscriptions() {
    guard let wanted = store.state.currentSubscriptions(environment: store.environment) else {
      return
    }
    activeSubscriptions = reconcile(running: activeSubscriptions, wanted: wanted)
  }

  /// Cancels the running subscriptions whose id is not wanted any more and starts the wanted
  /// ones whose id is new, each in a group of its own that no handle refers to (awaiting a
  /// send never waits for a subscription).
  ///
  /// - Returns: The ids now running, in the order they were started.
  /// - Complexity: O(*s*) for *s* subscriptions, plus their starts and cancellations.
  private func reconcile(
    running: [CancelID], wanted: [Subscription<Model.Action>]
  ) -> [CancelID] {
    let wantedIDs = Set(wanted.map(\.id))
    let runningIDs = Set(running)
    var kept: [CancelID] = []
    for id in running {
      if wantedIDs.contains(id) {
        kept.append(id)
      } else {
        perform(table.cancel(CancelID(SubscriptionKey(id: id))))
      }
    }
    for subscription in wanted where !runningIDs.contains(subscription.id) {
      kept.append(subscription.id)
      let group = table.openGroup()
      run(subscription.fx().cancellable(id: SubscriptionKey(id: subscription.id)), in: group)
      perform(table.release(group))
    }
    return kept
  }

  /// Starts the subscriptions of a child whose id is new and cancels those whose id is gone,
  /// as for the store's model; their effects belong to the child, so they also end when it
  /// leaves the state.
  ///
  /// - Complexity: O(*s*) for *s* subscriptions, plus their starts and cancellations.
  private func refreshSubscriptions(
    of owners: [ChildLink], wanted: [Subscription<Model.Action>]
  ) {
    guard let child = owners.first else { return }
    // An entry is the child's only while the child lives: a freed child's identifier may name
    // a new model later.
    let running = childSubscriptions[child.id].flatMap { $0.child === child.child ? $0.ids : nil }
    if running == nil, wanted.isEmpty { return }
    // A child that left in this very action subscribes to nothing.
    if childLifetimes().admit(owners) != nil {
      childSubscriptions[child.id] = nil
      return
    }
    let kept = reconcile(running: running ?? [], wanted: wanted)
    childSubscriptions[child.id] =
      kept.isEmpty ? nil : ChildSubscriptions(child: child.child, ids: kept)
  }

  // MARK: Effects

  /// Performs the entries of `fx` in order: cancellations, and effects started in `group`.
  ///
  /// `cancelInFlight` cancels the effects that were running before this `Fx`, once, up front:
  /// effects merged into the same `Fx` under the same id are siblings, and starting one must
  /// not cancel another.
  private func run(_ fx: Fx<Model.Action>, in group: GroupID) {
    // In first-seen order, each once (a set beside the array: an `Fx` merging the effects of
    // many children holds as many identifiers).
    var inFlight: [CancelID] = []
    var seen = Set<CancelID>()
    for case .run(let work) in fx.effects {
      for id in work.cancelInFlightIDs where seen.insert(id).inserted { inFlight.append(id) }
    }
    for id in inFlight {
      perform(table.cancel(id))
      dropSuspended { $0.work.cancelIDs.contains(id) }
    }
    for effect in fx.effects {
      switch effect {
      case .cancel(let id):
        perform(table.cancel(id))
        dropSuspended { $0.work.cancelIDs.contains(id) }
      case .run(let work):
        start(work, in: group)
      case .send(let action, let owner):
        deliverNow(action, in: group, owner: owner)
      case .dismiss:
        reportUnhandledDismiss()
      case .subscribe(let owners, let subscriptions):
        refreshSubscriptions(of: owners, wanted: subscriptions)
      }
    }
  }

  /// An action an update returned with `Fx.send(_:)`: queued behind the action being handled
  /// (the store is busy), in `group`, as if an effect of the group had delivered it at once;
  /// the test store's interceptor receives it like any effect action. `owner` is the child
  /// whose update returned it, if any.
  private func deliverNow(_ action: Model.Action, in group: GroupID, owner: ChildLink?) {
    guard table.retain(group) else { return }
    if let effectActionInterceptor {
      effectActionInterceptor(
        action,
        InterceptedActionTicket(group: group, origin: store.log.sequence, effect: nil, owner: owner)
      )
      return
    }
    queue.append(Queued(action: action, group: group, origin: store.log.sequence, owner: owner))
  }

  /// A `Fx.dismiss` that reached the store: no presentation or stack `forward` was between the
  /// model that returned it and the store's model. Handed to ``rootDismissHandler`` when a test
  /// store set one; otherwise reported in debug builds, then ignored.
  private func reportUnhandledDismiss() {
    if let rootDismissHandler {
      rootDismissHandler()
      return
    }
    #if DEBUG
      ArborealDiagnostics.reportDroppedAction(
        "Arboreal: `Fx.dismiss` reached the store of \(Model.self) and was ignored: the model "
          + "that returned it is not presented. Forward a `PresentationAction` or a "
          + "`StackAction` to it, whose `forward` dismisses it.")
    #endif
  }

  // Inlined into `run`, with `launch`: the runtime is not specialised, and each function
  // that touches `Work` looks up its metadata at run time, once per call.
  @inline(__always)
  private func start(_ work: FxEntry<Model.Action>.Work, in group: GroupID) {
    if let window = work.unlessRunning, table.isRunning(window) { return }
    // An effect of a child that is no longer in the state (it left in the action that
    // returned the effect) never starts.
    if !work.owners.isEmpty, childLifetimes().admit(work.owners) != nil { return }
    var work = work
    work.origin = store.log.sequence
    if let queue = work.queue, !admit(&work, to: queue, in: group) { return }
    launch(work, in: group)
  }

  /// Applies the queue's policy to an effect about to start (see `EffectQueues`): cancels the
  /// oldest of a full `newest` queue, drops or suspends the effect when an `oldest` queue is
  /// full, and delays it to respect the queue's spacing.
  ///
  /// - Returns: Whether to start the effect now.
  private func admit(
    _ work: inout FxEntry<Model.Action>.Work, to queue: QueueSpec, in group: GroupID
  ) -> Bool {
    switch queues.admit(work, in: queue, group: group, running: table.running(queue.id)) {
    case .drop:
      return false
    case .suspend:
      // The suspended effect keeps a hold on its group until it starts or is dropped.
      table.retain(group)
      return false
    case .start(let delay):
      if let delay { delayStart(&work, by: delay, on: queue) }
      return true
    case .startCancelling(let effects, let delay):
      for effect in effects { perform(table.cancel(effect: effect)) }
      if let delay { delayStart(&work, by: delay, on: queue) }
      return true
    }
  }

  /// Makes an effect wait `delay` on its queue's clock before it starts.
  private func delayStart(
    _ work: inout FxEntry<Model.Action>.Work, by delay: Duration, on queue: QueueSpec
  ) {
    guard let spacing = queue.spacing else { return }
    work.delays.insert(DelayStep(duration: delay, clock: spacing.clock), at: 0)
  }

  /// Starts the suspended effects whose queue has room, first in first out.
  private func resumeSuspended() {
    guard queues.hasSuspended, !isResuming else { return }
    isResuming = true
    defer { isResuming = false }
    while let next = queues.nextResumable(running: { self.table.running($0).count }) {
      var work = next.work
      if let delay = next.delay, let queue = work.queue { delayStart(&work, by: delay, on: queue) }
      launch(work, in: next.group)
      perform(table.release(next.group))
    }
  }

  /// Takes the suspended effects that match out of their queues, releasing their groups.
  private func dropSuspended(
    where matches: (EffectQueues<FxEntry<Model.Action>.Work>.Suspended) -> Bool
  ) {
    guard queues.hasSuspended else { return }
    for group in queues.removeSuspended(where: matches) { perform(table.release(group)) }
  }

  /// Starts an admitted effect's task.
  @inline(__always)
  private func launch(_ work: FxEntry<Model.Action>.Work, in group: GroupID) {
    // In-flight effects were cancelled by `run(_:in:)` before any of its effects started.
    // Starting an effect cancels and resumes nothing; the caller performs the next table
    // output (the release of its hold on the group).
    guard let effect = table.start(in: group, cancelIDs: work.cancelIDs) else { return }
    // Both closures hold the store weakly: a running effect never keeps it alive, and once it
    // is gone they do nothing. They call the store, not the runtime: the store is then the
    // call's `self`, alive until it returns, and so is the runtime it owns. With an
    // `effectExecutor`, each hop to the main actor is counted in the trace before it is
    // enqueued and when it arrives, even when the store is gone by then (see `EffectTrace`).
    let origin = work.origin
    let trace = self.trace
    let home = self.home
    // The child whose update each action must reach, checked in debug builds.
    #if DEBUG
      let owner = work.owners.first
    #else
      let owner: ChildLink? = nil
    #endif
    let send: FxEntry<Model.Action>.Send
    let finish: @Sendable () async -> Void
    if let trace {
      send = { action in
        trace.deliveryBegan()
        await home.deliverTraced(action, from: effect, origin: origin, owner: owner, trace: trace)
        trace.deliveryReturned()
      }
      finish = {
        trace.deliveryBegan()
        await home.finishTraced(effect, trace: trace)
        trace.deliveryReturned()
      }
    } else {
      send = { action in
        await home.deliver(action, from: effect, origin: origin, owner: owner)
      }
      finish = { await home.finish(effect) }
    }
    // A test clock names what a traced effect waits for through the task-local `EffectWait`,
    // and learns which store's effects it wakes (the first delay is booked here).
    let wait = trace.map { EffectWait(trace: $0, effect: effect.rawValue) }
    var operation = work.operation
    var settle: (@Sendable () -> Void)?
    if !work.delays.isEmpty {
      (operation, settle) = EffectWait.$current.withValue(wait) {
        DelayStep.delaying(operation, by: work.delays)
      }
    }
    // Detached: the effect runs on the `effectExecutor` if set, otherwise on the global
    // concurrent executor, never on the main actor. Its `finish` cannot run before the
    // handle is attached below: both need the main actor, which this code holds. It runs at
    // the priority of the task that sent the action (for an action an effect delivered, that
    // effect's).
    // The body and its `send` go into a box the task empties as it starts: what they hold (a
    // forwarded effect's child, through its link) goes when the body returns, before the end
    // is reported, not whenever the task's own context is freed on its thread afterwards. A
    // program that exits once its effects have ended then holds no model of theirs.
    let body = EffectBody(operation: operation, send: send)
    let task = Task.detached(executorPreference: executor, priority: Task.currentPriority) {
      [body, settle] in
      await body.run(in: wait)
      await finish()
      settle?()
    }
    if let orphan = table.attach(task, to: effect) { orphan.cancel() }
  }

  func finish(_ effect: EffectID) {
    perform(table.finish(effect))
    checkInvariants()
  }

  /// The end of an effect whose hop the trace counted.
  func finishTraced(_ effect: EffectID) {
    trace?.deliveryArrived()
    finish(effect)
  }

  /// The lifetime records, made on first use.
  private func childLifetimes() -> ChildLifetimes {
    if let lifetimes { return lifetimes }
    let made = ChildLifetimes(
      places: places,
      leave: { [unowned self] link in self.childLeft(link) },
      isBusy: { [unowned self] link in self.table.isRunning(link.membership) })
    lifetimes = made
    return made
  }

  /// A child with effects left the state: its effects, and those of its descendants, end now
  /// and deliver nothing more; the suspended ones never start.
  private func childLeft(_ link: ChildLink) {
    childSubscriptions[link.id] = nil
    perform(table.cancel(link.membership))
    dropSuspended { $0.work.cancelIDs.contains(link.membership) }
  }

  /// Whether effects wait for room in their queue; for the test hooks.
  var hasSuspendedEffects: Bool { queues.hasSuspended }

  private func resumeIdleWaiters() {
    let waiters = idleWaiters
    idleWaiters = []
    for waiter in waiters { waiter.resume() }
  }

  /// Waits until no effect runs and none waits for room in its queue (the store's
  /// `finish()`), in the store's isolation (the caller's). For a store made outside any actor,
  /// handles what its effects posted meanwhile.
  nonisolated(nonsending) func waitUntilIdle() async {
    bind(to: callerIsolation())
    // Actions are queued only while an update runs, and handled before the store's isolation
    // is free again: so once no effect runs, nothing is queued either.
    if let mailbox {
      handleMail()
      while !table.effects.isEmpty || queues.hasSuspended {
        await mailbox.next()
        handleMail()
      }
      return
    }
    while !table.effects.isEmpty || queues.hasSuspended {
      await withCheckedContinuation { idleWaiters.append($0) }
    }
  }

  /// Handles what the effects of a store made outside any actor posted, oldest first (see
  /// `StoreHome`), and returns how many deliveries it handled; its owner calls it, in the
  /// store's isolation, when it awaits the store.
  ///
  /// A test store may hold an effect's delivery, as it holds a hop to its actor (see
  /// `EffectDeliveryHold`): the delivery, and every later one of the same effect, waits in
  /// `heldMail`, quiet, and is asked about again at each call.
  @discardableResult
  func handleMail() -> Int {
    guard let mailbox = home.mailbox, !isHandling else { return 0 }
    if mailbox.isBound, heldMail.isEmpty { return 0 }
    var handled = 0
    if !heldMail.isEmpty {
      let held = heldMail
      heldMail = []
      for item in held { handled += handleMailItem(item) }
    }
    for item in mailbox.take() { handled += handleMailItem(item) }
    return handled
  }

  /// Handles one delivery from the mailbox, or holds it; returns 1 if it was handled.
  private func handleMailItem(_ item: Mailbox<Model>.Item) -> Int {
    let effect = item.effect
    switch item {
    case .action(let action, _, let origin, let owner, let traced):
      if heldMail.contains(where: { $0.effect == effect }) || (traced && hold(for: effect) != nil) {
        heldMail.append(item)
        return 0
      }
      receive(action, from: effect, origin: origin, owner: owner)
    case .finished:
      if heldMail.contains(where: { $0.effect == effect }) {
        heldMail.append(item)
        return 0
      }
      finish(effect)
    }
    return 1
  }

  /// Cancels tasks and resumes waiters, after the table is consistent again; wakes the callers
  /// of `finish()` when no effect runs any more. The one place that performs a table's output.
  private func perform(_ output: Table.Output) {
    if queues.hasSuspended { resumeSuspended() }
    if !idleWaiters.isEmpty, table.effects.isEmpty { resumeIdleWaiters() }
    if output.isEmpty { return }
    for task in output.cancel { task.cancel() }
    for waiter in output.resume { waiter.resume() }
  }

  // MARK: Invariants

  #if ARBOREAL_INTERNAL_CHECKS
    /// Asserts invariants 1 to 5 (built with `-DARBOREAL_INTERNAL_CHECKS`).
    ///
    /// - Complexity: O(*e* × *i* + *g* + *q* + *s*) for the table's *e* effects with *i*
    ///   identifiers and *g* groups, *q* queued actions and *s* subscriptions.
    @inline(never)
    func checkInvariants() {
      precondition(
        isHandling || queue.isEmpty, "EffectRuntime: an action queued while not handling")
      for queued in queue.waiting {
        precondition(table.isOpen(queued.group), "EffectRuntime: a queued action's group is closed")
      }
      for suspended in queues.suspended {
        precondition(
          table.isOpen(suspended.group), "EffectRuntime: a suspended effect's group is closed")
      }
      precondition(
        Set(activeSubscriptions).count == activeSubscriptions.count,
        "EffectRuntime: a subscription runs twice")
      for entry in childSubscriptions.values {
        precondition(
          Set(entry.ids).count == entry.ids.count,
          "EffectRuntime: a child's subscription runs twice")
      }
      precondition(
        idleWaiters.isEmpty || !table.effects.isEmpty || queues.hasSuspended,
        "EffectRuntime: a caller of finish() waits on an idle store")
      table.checkInvariants()
      queues.checkInvariants()
      queue.checkInvariants()
      lifetimes?.checkInvariants()
    }
  #else
    /// Does nothing: the checks are built with `-DARBOREAL_INTERNAL_CHECKS`.
    @inline(__always)
    func checkInvariants() {}
  #endif
}

/// The subscriptions started for one child model, and the model, held weakly.
private struct ChildSubscriptions {
  weak var child: AnyObject?
  let ids: [CancelID]
}

/// The cancellation identifier of a running subscription: a type of its own, so that no
/// identifier a model uses can equal it.
private struct SubscriptionKey: Hashable, Sendable, CustomDebugStringConvertible {
  let id: CancelID

  /// `subscription "tick"`, for the list of running effects in a test failure.
  var debugDescription: String { "subscription \(id.debugDescription)" }
}

// What a `SendHandle` asks of its store (`EffectHost`), answered by the runtime.
extension EffectRuntime {
  func addWaiter(_ waiter: CheckedContinuation<Void, Never>, for group: GroupID) -> Bool {
    table.addWaiter(waiter, to: group)
  }

  /// The mailbox of a store made outside any actor and not yet bound to one; nil for a store
  /// on an actor.
  var mailbox: Mailbox<Model>? {
    guard let mailbox = home.mailbox, !mailbox.isBound else { return nil }
    return mailbox
  }

  /// Binds a store made outside any actor to the actor its owner awaits it from (see
  /// `StoreHome`), and handles what waited in its mailbox; nothing for a store on an actor, or
  /// for a caller on none.
  /// - Returns: How many deliveries it handled.
  @discardableResult
  func bind(to isolation: (any Actor)?) -> Int {
    guard let isolation, let mailbox = home.mailbox, home.fixedIsolation == nil else { return 0 }
    var handled = 0
    for item in mailbox.bind(to: isolation) { handled += handleMailItem(item) }
    return handled
  }

  func cancel(group: GroupID) {
    perform(table.cancel(group: group))
    dropSuspended { $0.group == group }
  }

  func isOpen(_ group: GroupID) -> Bool {
    table.isOpen(group)
  }
}
