/// The source of truth for a model: it applies actions to it, one at a time, on the main
/// actor, and runs the effects they return.
///
/// ```swift
/// let store = Store(state: Counter(), environment: Clock())
/// store.send(.increment)
/// print(store.state.count)  // 1
/// await store.send(.incrementLater).value
/// print(store.state.count)  // 2
/// ```
///
/// ## Sending
/// ``send(_:)`` runs the model's ``ArborealModel/update(action:environment:)`` synchronously,
/// inside one `withTransaction(_:)`: observers of the state run once after each action, with
/// every property it changed. An action sent while the store is busy (from inside an update,
/// from an observer it triggered, from a log handler) is queued and handled right after,
/// first in first out, before the outer `send` returns. The same actions in the same order
/// therefore always give the same state.
///
/// ## Effects
/// Each effect in the returned ``Fx`` runs in a detached task, off the main actor. The
/// actions it delivers come back through the store on the main actor, after the action that
/// started it. Cancelled effects deliver nothing more. Releasing the store cancels every
/// effect it runs; effects hold the store weakly, so they never keep it alive.
///
/// ## Cost
/// A send whose update returns ``Fx/none`` starts no task and allocates nothing in the store
/// (the tracking transaction around the update is the only cost besides `update` itself), and
/// formats no string unless a log handler is installed (``addLogHandler(logsValues:_:)``).
@MainActor
public final class Store<Model: ArborealModel>: ArborealStore, Sendable {
  /// The model. The reference never changes; its tracked properties change through actions.
  public let state: Model

  /// The services the model's effects use.
  public let environment: Model.Environment

  /// The log handlers, in the order they were added, each with whether it wants values
  /// (see ``addLogHandler(logsValues:_:)``) and the number its token removes it by. Read only
  /// when one is added or removed: `logDispatch` calls them.
  @exclusivity(unchecked) private var logHandlers: [LogHandlerSlot] = []
  /// Calls every handler with the plain entry or the one with values, as each asked; rebuilt
  /// when a handler is added or removed, so that logging an action touches no array of a type
  /// built from `Model` (whose metadata unspecialised code looks up on every use) when a
  /// single handler is installed.
  @exclusivity(unchecked) @usableFromInline var logDispatch:
    ((StoreLogEntry<Model.Action>, StoreLogEntry<Model.Action>) -> Void)?
  /// Whether a handler wants values.
  @exclusivity(unchecked) @usableFromInline var logsAnyValues = false
  /// Whether `logHandlers` is not empty: the one test a plain `send` makes.
  @exclusivity(unchecked) @usableFromInline var hasLogHandlers = false
  /// The number of the last handler added.
  @exclusivity(unchecked) private var lastLogHandlerID: UInt64 = 0

  /// A log handler and what it asked for.
  private struct LogHandlerSlot {
    let id: UInt64
    let logsValues: Bool
    let handler: (StoreLogEntry<Model.Action>) -> Void
  }

  // The number of the last action handled with a log handler installed (0 before the first):
  // `StoreLogEntry.sequence`. Effects started by an action remember its number, so that the
  // actions they deliver name it as their cause.
  @exclusivity(unchecked) @usableFromInline var logSequence = 0

  /// An action received while busy, with its group and a hold on it.
  private struct Queued {
    let action: Model.Action
    let group: GroupID
    /// nil for a sent action; for an effect's, the `logSequence` of the action that started
    /// the effect (0 if unknown).
    let origin: Int?
    /// For an action an effect of a child model delivered, that child (debug builds: see
    /// `ForwardProbe`).
    var owner: ChildLink? = nil
  }

  typealias Table = EffectTable<Task<Void, Never>, CheckedContinuation<Void, Never>>

  // Main-actor state whose accesses never overlap (none spans a call that could reach the
  // same property), so the dynamic exclusivity checks, a sizeable share of a plain send, are
  // switched off.

  // True while an action is being handled; a `send` that finds it true queues its action
  // instead of re-entering `update`.
  @exclusivity(unchecked) @usableFromInline var isHandling = false
  // The actions received while busy, each with the effect group it belongs to and a hold on
  // that group (see `EffectTable`), so that its `SendHandle` can wait for effects that have not
  // started yet. Drained by the outermost handler before it returns, so the queue is empty
  // whenever the main actor is free.
  @exclusivity(unchecked) private var queue = ActionQueue<Queued>()
  // The running effects, their groups and the waiting handles. Only the main actor touches it,
  // except `deinit`, which runs when nothing else can reach the store. Read (never written) by
  // the hooks in `Store+Testing.swift`, hence not private.
  @exclusivity(unchecked) private(set) var table = Table()
  // The store's weak reference to itself that send handles hold, so that a handle never keeps
  // the store alive; made with the first handle that needs it.
  @exclusivity(unchecked) private var reference: HostReference?
  /// The callers of ``finish()`` waiting for the store to be idle.
  @exclusivity(unchecked) private var idleWaiters: [CheckedContinuation<Void, Never>] = []
  /// The ids of the subscriptions started, in the order they were started.
  @exclusivity(unchecked) private var activeSubscriptions: [CancelID] = []
  /// The queue policy: the effects waiting for room in their queue, and when each queue with
  /// spacing last started one (see `EffectQueues`).
  @exclusivity(unchecked) private var queues = EffectQueues<FxEntry<Model.Action>.Work>()
  /// Whether `resumeSuspended()` is running (it starts effects, which can call it again).
  @exclusivity(unchecked) private var isResuming = false
  /// The child models that own running effects, and the watches that end those effects when
  /// a child leaves the state; made with the first effect a `forward` started.
  @exclusivity(unchecked) private(set) var lifetimes: ChildLifetimes?
  /// For each child model whose subscriptions a `forward` reported, the ids of those
  /// started, in the order they were started; dropped when the child leaves the state.
  @exclusivity(unchecked) private var childSubscriptions: [ObjectIdentifier: ChildSubscriptions] =
    [:]
  /// The following of the model's ``ArborealModel/routes``; nil for a model without routes.
  @exclusivity(unchecked) private var mounts: Mounts?
  /// The observations made by ``follow(_:get:tag:)``, released with the store.
  @exclusivity(unchecked) private var followedStores: [TrackingToken] = []

  /// The executor the effects' tasks prefer (a task executor preference, SE-0417); nil, the
  /// default, runs them on the global concurrent executor.
  ///
  /// ```swift
  /// let store = Store(state: Feed(), environment: .live)
  /// store.effectExecutor = ioExecutor  // a pool of threads of your own
  /// ```
  ///
  /// Set it before sending: an effect already running keeps the executor it started on. An
  /// effect's code runs on it, and so do the child tasks it makes (`async let`, task groups);
  /// calls to an actor run on that actor. `ArborealTesting`'s `TestExecutor` runs effects one
  /// job at a time, in a fixed order, so that a test can step through them (a `TestStore` uses
  /// one of its own).
  public var effectExecutor: (any TaskExecutor)? {
    get { executorSetting }
    set {
      executorSetting = newValue
      // Effects already running keep the trace they started with.
      if let newValue { trace = EffectTrace(executor: newValue) }
    }
  }

  @exclusivity(unchecked) private var executorSetting: (any TaskExecutor)?

  /// The hops and waits of the effects, counted once ``effectExecutor`` has been set (a test
  /// steps through the effects with it); nil until then, and the effects pay nothing for it.
  @exclusivity(unchecked) private(set) var trace: EffectTrace?

  /// Package hook for `ArborealTesting`'s `TestStore`, not API: when set, an action delivered
  /// by a running effect is handed to it instead of being handled, together with a ticket
  /// that keeps the effect's group open; the interceptor later handles it with
  /// ``handleIntercepted(_:ticket:)`` (or never, and the group stays open until the store is
  /// released). Only the effect-delivery path reads it: a plain `send` never does.
  ///
  /// The stored hooks are declared here, as a stored property cannot live in an extension;
  /// the others are in `Store+Testing.swift`.
  @exclusivity(unchecked) package var effectActionInterceptor:
    ((Model.Action, InterceptedActionTicket) -> Void)?

  /// Package hook for `ArborealTesting`'s `TestStore`, not API: when set, a `Fx.dismiss` that
  /// reaches the store (the model under test dismissed itself) calls it instead of being
  /// reported as unhandled.
  @exclusivity(unchecked) package var rootDismissHandler: (@MainActor () -> Void)?

  /// Package hook for `ArborealTesting`'s `TestStore`, not API: asked before an effect whose
  /// hops the trace counts delivers an action, whether it must wait first (see
  /// `EffectDeliveryHold`). Held weakly: the test store owns this store.
  @exclusivity(unchecked) package weak var effectDeliveryHold: (any EffectDeliveryHold)?

  /// Creates a store for a model.
  ///
  /// - Parameters:
  ///   - state: The model; the store keeps it for its whole life.
  ///   - environment: The services the model's effects use.
  ///   - effectExecutor: The executor the effects' tasks prefer (see ``effectExecutor``); nil,
  ///     the default, for the global concurrent executor. Given here, it also runs the
  ///     subscriptions a ``SubscribingModel`` starts while the store is made.
  public init(
    state: Model, environment: Model.Environment, effectExecutor: (any TaskExecutor)? = nil
  ) {
    self.state = state
    self.environment = environment
    if let effectExecutor {
      executorSetting = effectExecutor
      trace = EffectTrace(executor: effectExecutor)
    }
    if Model.subscribes { refreshSubscriptions() }
    if !Model.routes.isEmpty {
      mounts = Mounts(model: state, environment: environment) { [unowned self] fx in
        self.runMounted(fx)
      }
      isHandling = true
      settleMounts()
      isHandling = false
      #if DEBUG
        PlaceRegistry.register(self)
      #endif
    }
  }

  /// Creates a store for a model and sends it a first action (to load data, start a timer).
  ///
  /// ```swift
  /// let store = Store(state: Feed(), environment: api, action: .refresh)
  /// ```
  ///
  /// - Parameters:
  ///   - state: The model; the store keeps it for its whole life.
  ///   - environment: The services the model's effects use.
  ///   - action: The first action, handled before the initialiser returns.
  public convenience init(state: Model, environment: Model.Environment, action: Model.Action) {
    self.init(state: state, environment: environment)
    send(action)
  }

  deinit {
    // Nonisolated: it runs on whichever thread released the store, but then nothing else can
    // reach the store (effects and handles hold it weakly), so using `table` cannot race.
    // Cancelled effects find the store gone and deliver nothing; waiting handles return.
    let output = table.removeAll()
    for task in output.cancel { task.cancel() }
    for waiter in output.resume { waiter.resume() }
    for waiter in idleWaiters { waiter.resume() }
  }

  /// Sends an action to the model.
  ///
  /// The model's update runs before `send` returns, inside one transaction, unless the store
  /// is already handling an action: then this one is queued and handled right after the
  /// current one (first in, first out), still before the outermost `send` returns.
  ///
  /// ```swift
  /// store.send(.increment)  // handled now; the handle is discarded
  /// await store.send(.load).value  // wait for the load effect and its actions
  /// ```
  ///
  /// - Parameter action: The action.
  /// - Returns: A handle that waits for, or cancels, the effects the action starts.
  /// - Complexity: One update, plus one for each action queued meanwhile.
  @discardableResult
  @inlinable
  public func send(_ action: Model.Action) -> SendHandle {
    // Inlined, so that the call to `update` is specialised for the model in the caller's
    // module; everything but the plain path (queueing, logging, effects) stays out of line.
    if isHandling || hasLogHandlers {
      return isHandling ? sendSlowly(action) : sendLogged(action)
    }
    isHandling = true
    let opened = openTransaction()
    let fx = state.update(action: action, environment: environment)
    if let opened { closeTransaction(opened) }
    return finishSend(fx)
  }

  /// `send(_:)` while busy or logging.
  @usableFromInline
  func sendSlowly(_ action: Model.Action) -> SendHandle {
    if isHandling { return enqueue(action) }
    isHandling = true
    return finishSend(apply(action, origin: nil))
  }

  /// `send(_:)` with a log handler installed, while not busy. Inlinable, so that it is
  /// specialised for the model in the caller's module with `send`: unspecialised, building
  /// the log entry looks up the metadata of `StoreLogEntry<Model.Action>` and its nested
  /// types on every action, which costs more than the rest of the logging.
  @inlinable @inline(never)
  func sendLogged(_ action: Model.Action) -> SendHandle {
    isHandling = true
    return finishSend(applyLogging(action, origin: nil))
  }

  /// The rest of a `send` once its update ran: starts the effects, handles the queued actions.
  @usableFromInline
  func finishSend(_ fx: Fx<Model.Action>) -> SendHandle {
    if fx.storage != nil { return startEffectsAndFinish(fx) }
    if !queue.isEmpty { drainQueue() }
    if mounts != nil { settleMounts() }
    if Model.subscribes { refreshSubscriptions() }
    isHandling = false
    return SendHandle()
  }

  // MARK: Handling

  // The store's code is generic and not specialised for the model. Code that touches a type
  // built from `Model` (`Queued`, `StoreLogEntry<Model.Action>`) looks up its metadata at run
  // time, at the top of the function that mentions it; so the slow paths live in functions of
  // their own, and a plain `send` looks up none.

  /// The rest of a `send` whose update returned effects: starts them in a new group, handles
  /// the queued actions and returns the group's handle.
  @inline(never)
  private func startEffectsAndFinish(_ fx: Fx<Model.Action>) -> SendHandle {
    let group = table.openGroup()
    run(fx, in: group)
    perform(table.release(group))
    if !queue.isEmpty { drainQueue() }
    if mounts != nil { settleMounts() }
    if Model.subscribes { refreshSubscriptions() }
    isHandling = false
    return handle(for: group)
  }

  /// A handle on a group, referring to this store weakly.
  private func handle(for group: GroupID) -> SendHandle {
    if let reference { return SendHandle(reference: reference, group: group) }
    let made = HostReference(self)
    reference = made
    return SendHandle(reference: made, group: group)
  }

  /// Queues an action received while busy, in a group of its own, held until it is handled.
  @inline(never)
  private func enqueue(_ action: Model.Action) -> SendHandle {
    #if DEBUG
      ForwardProbe.noteQueued()
    #endif
    let group = table.openGroup()
    queue.append(Queued(action: action, group: group, origin: nil))
    return handle(for: group)
  }

  /// Runs the update in one transaction, recording its changes for the log handler if any.
  ///
  /// `origin` is nil for a sent action, and for an effect's action the number of the action
  /// that started the effect.
  private func apply(
    _ action: Model.Action, origin: Int?, owner: ChildLink? = nil
  ) -> Fx<Model.Action> {
    #if DEBUG
      if let owner {
        return ForwardProbe.expecting(action, from: owner) { apply(action, origin: origin) }
      }
    #endif
    if hasLogHandlers { return applyLogging(action, origin: origin) }
    // Opened and closed around the call rather than through `withTransaction`'s closure: a
    // closure here costs a context and a dynamic isolation check on every send.
    let opened = openTransaction()
    defer { if let opened { closeTransaction(opened) } }
    return state.update(action: action, environment: environment)
  }

  /// Runs the update in one transaction, records the properties it changed and passes them to
  /// the log handler.
  ///
  /// Inlinable for ``sendLogged(_:)``; an effect's action takes the unspecialised copy.
  @inlinable @inline(never)
  func applyLogging(_ action: Model.Action, origin: Int?) -> Fx<Model.Action> {
    let fx: Fx<Model.Action>
    // Taken now: a handler may add or remove handlers.
    let dispatch = logDispatch
    let logsValues = logsAnyValues
    logSequence += 1
    let sequence = logSequence
    // Opened and closed around the recording rather than through `withTransaction`'s
    // closure, as in `apply(_:origin:)`.
    let opened = openTransaction()
    let mark = beginChangeRecording()
    fx = state.update(action: action, environment: environment)
    // With values, each change keeps them; without, only the keys are needed. (No optional
    // of the recorded changes: its metadata would be looked up at run time on every send.)
    guard logsValues else {
      let changes = endChangeRecordingKeys(mark)
      if let opened { closeTransaction(opened) }
      let entry = StoreLogEntry(
        action: action, changes: changes, sequence: sequence, cause: Self.cause(of: origin),
        changedValues: [])
      dispatch?(entry, entry)
      return fx
    }
    let recorded = endChangeRecording(mark, keepingValues: true)
    if let opened { closeTransaction(opened) }
    let changes = TrackingChanges(recorded: recorded)
    let cause = Self.cause(of: origin)
    let plain = StoreLogEntry(
      action: action, changes: changes, sequence: sequence, cause: cause, changedValues: [])
    // Values are described once, for the handlers that asked for them.
    let valued = StoreLogEntry(
      action: action, changes: changes, sequence: sequence, cause: cause,
      changedValues: Self.describe(recorded))
    dispatch?(plain, valued)
    return fx
  }

  /// The cause of a logged action: `origin` is nil for a sent action, and for an effect's
  /// action the number of the action that started the effect.
  @inlinable
  static func cause(of origin: Int?) -> StoreLogEntry<Model.Action>.Cause {
    origin.map { .effect(startedBy: $0 > 0 ? $0 : nil) } ?? .sent
  }

  /// Each changed property once, first change first, with the value before its first write
  /// and the value after its last (read from the model when a write kept none).
  @usableFromInline
  static func describe(
    _ changes: RecordedChanges
  ) -> [StoreLogEntry<Model.Action>.ChangedValue] {
    // A loop, not `map`: in this generic context `map` is not specialised.
    var described: [StoreLogEntry<Model.Action>.ChangedValue] = []
    described.reserveCapacity(changes.count)
    for index in changes.indices {
      let change = changes[index]
      if let values = change.values {
        described.append(
          .init(
            key: change.key, before: String(reflecting: values.before),
            after: String(reflecting: values.after)))
      } else {
        described.append(
          .init(
            key: change.key, before: nil,
            after: change.currentValue.map { String(reflecting: $0) }))
      }
    }
    return described
  }

  /// Handles the queued actions, in order, including those queued meanwhile.
  ///
  /// Callers check `queue.isEmpty` (a plain integer) first: entering this function looks up
  /// the generic metadata of the queued element, which a plain `send` must not pay for.
  @inline(never)
  private func drainQueue() {
    while let next = queue.popFirst() {
      let fx = apply(next.action, origin: next.origin, owner: next.owner)
      if !fx.isNone { run(fx, in: next.group) }
      perform(table.release(next.group))
    }
  }

  /// An action delivered by a running effect whose hop the trace counted.
  private func receiveTraced(
    _ action: Model.Action, from effect: EffectID, origin: Int, owner: ChildLink?
  ) async {
    if let hold = effectDeliveryHold, hold.mustHold(effect.rawValue) {
      // Quiet while held: the hold counts the delivery again when it lets it go on.
      trace?.deliveryEnded()
      await withCheckedContinuation { hold.hold(effect.rawValue, until: $0) }
    }
    trace?.deliveryEnded()
    receive(action, from: effect, origin: origin, owner: owner)
  }

  /// An action delivered by a running effect. Called on the main actor, from the effect's
  /// task.
  private func receive(
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
  /// Internal rather than private for ``handleIntercepted(_:ticket:)``.
  func handle(_ action: Model.Action, heldIn group: GroupID, origin: Int, owner: ChildLink?) {
    if isHandling {
      queue.append(Queued(action: action, group: group, origin: origin, owner: owner))
      return
    }
    isHandling = true
    defer { isHandling = false }
    let fx = apply(action, origin: origin, owner: owner)
    if !fx.isNone { run(fx, in: group) }
    perform(table.release(group))
    if !queue.isEmpty { drainQueue() }
    if mounts != nil { settleMounts() }
    if Model.subscribes { refreshSubscriptions() }
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

  /// Runs an `Fx` made for a child that entered the state (its subscriptions), in a group no
  /// handle refers to.
  private func runMounted(_ fx: Fx<Model.Action>) {
    let group = table.openGroup()
    run(fx, in: group)
    perform(table.release(group))
  }

  /// The place ``children`` lists for `model`; nil for a model the routes do not hold (the
  /// store's own model among them).
  ///
  /// - Complexity: O(*n*) for *n* children.
  func childPlace(of model: AnyObject) -> String? {
    children.first { $0.model === model }?.place
  }

  /// Every child model that the model's ``ArborealModel/routes`` (and theirs, in turn) hold
  /// now, depth first in the order of the routes, each with its place in the state:
  /// `MeetingList.path[id: 2].detail`.
  ///
  /// ```swift
  /// for child in store.children { print(child.place) }
  /// ```
  ///
  /// For tools: a test, a debugger, a recording viewer. Empty for a model without routes.
  ///
  /// - Complexity: O(*n*) for *n* children, plus a reflection per case of an enumeration.
  public var children: [ChildPlace] {
    var places: [ChildPlace] = []
    for route in Model.routes {
      for entry in route.entries(state) {
        route.list(state, entry, "\(Model.self)", &places)
      }
    }
    return places
  }

  // MARK: Subscriptions

  /// Starts the subscriptions whose id is new and cancels those whose id is gone.
  ///
  /// - Complexity: O(*s* log *s*) for *s* subscriptions, plus their starts and cancellations.
  @inline(never)
  private func refreshSubscriptions() {
    guard let wanted = state.currentSubscriptions(environment: environment) else { return }
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
        InterceptedActionTicket(group: group, origin: logSequence, effect: nil, owner: owner))
      return
    }
    queue.append(Queued(action: action, group: group, origin: logSequence, owner: owner))
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

  private func start(_ work: FxEntry<Model.Action>.Work, in group: GroupID) {
    if let window = work.unlessRunning, table.isRunning(window) { return }
    // An effect of a child that is no longer in the state (it left in the action that
    // returned the effect) never starts.
    if !work.owners.isEmpty, childLifetimes().admit(work.owners) != nil { return }
    var work = work
    work.origin = logSequence
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
  private func launch(_ work: FxEntry<Model.Action>.Work, in group: GroupID) {
    // In-flight effects were cancelled by `run(_:in:)` before any of its effects started.
    // Starting an effect cancels and resumes nothing; the caller performs the next table
    // output (the release of its hold on the group).
    guard let effect = table.start(in: group, cancelIDs: work.cancelIDs) else { return }
    // Both closures hold the store weakly: a running effect never keeps it alive, and once it
    // is gone they do nothing. With an `effectExecutor`, each hop to the main actor is counted
    // in the trace before it is enqueued and when it arrives, even when the store is gone by
    // then (see `EffectTrace`).
    let origin = work.origin
    let trace = self.trace
    // The child whose update each action must reach, checked in debug builds.
    #if DEBUG
      let owner = work.owners.first
    #else
      let owner: ChildLink? = nil
    #endif
    let send: FxEntry<Model.Action>.Send
    let finish: @Sendable () async -> Void
    if let trace {
      send = { [weak self] action in
        trace.deliveryBegan()
        guard let self else { return trace.deliveryEnded() }
        await self.receiveTraced(action, from: effect, origin: origin, owner: owner)
      }
      finish = { [weak self] in
        trace.deliveryBegan()
        guard let self else { return trace.deliveryEnded() }
        await self.finishTraced(effect)
      }
    } else {
      send = { [weak self] action in
        await self?.receive(action, from: effect, origin: origin, owner: owner)
      }
      finish = { [weak self] in await self?.finish(effect) }
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
    let task = Task.detached(executorPreference: executorSetting, priority: Task.currentPriority) {
      [body, settle] in
      await body.run(in: wait)
      await finish()
      settle?()
    }
    if let orphan = table.attach(task, to: effect) { orphan.cancel() }
  }

  private func finish(_ effect: EffectID) {
    perform(table.finish(effect))
  }

  /// The end of an effect whose hop the trace counted.
  private func finishTraced(_ effect: EffectID) {
    trace?.deliveryEnded()
    finish(effect)
  }

  /// The lifetime records, made on first use.
  private func childLifetimes() -> ChildLifetimes {
    if let lifetimes { return lifetimes }
    let made = ChildLifetimes(
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

  // MARK: Idle

  /// Waits until the store is idle: no effect is running and no action is waiting to be
  /// handled.
  ///
  /// ```swift
  /// store.send(.save)
  /// store.send(.refresh)
  /// await store.finish()  // both effects, and the effects of their actions, have ended
  /// ```
  ///
  /// Unlike awaiting one ``SendHandle``, it waits for every effect, whoever started it: a
  /// command-line tool calls it before exiting, a test before checking the state. It does not
  /// stop the store: later sends work as before. An effect that never ends (a timer nobody
  /// cancels) keeps it waiting; a cancelled effect counts as ended at once (it delivers
  /// nothing more), and releasing the store makes it return. Returns at once when the store is
  /// idle already.
  public func finish() async {
    // Actions are queued only while an update runs, and handled before the main actor is
    // free again: so once no effect runs, nothing is queued either.
    while !table.effects.isEmpty || queues.hasSuspended {
      await withCheckedContinuation { idleWaiters.append($0) }
    }
  }

  /// Cancels tasks and resumes waiters, after the table is consistent again; wakes the callers
  /// of ``finish()`` when no effect runs any more.
  private func perform(_ output: Table.Output) {
    if queues.hasSuspended { resumeSuspended() }
    if !idleWaiters.isEmpty, table.effects.isEmpty { resumeIdleWaiters() }
    if output.isEmpty { return }
    for task in output.cancel { task.cancel() }
    for waiter in output.resume { waiter.resume() }
  }
}

extension Store {
  /// Sends an action to this store each time a value derived from another store changes:
  /// how one feature follows another's state without either holding the other.
  ///
  /// ```swift
  /// cart.follow(session, get: \.userID, tag: Cart.Action.userChanged)
  /// ```
  ///
  /// `tag(value)` is sent at once with the current value, then after every change of what
  /// `get` read that gives a value different from the previous one, on the main actor. This
  /// store follows until the returned token is cancelled or this store is released; it keeps
  /// `other` alive, not this store. (A ``Subscription`` is something else: a source of
  /// actions that a model asks for as a function of its own state.)
  ///
  /// - Parameters:
  ///   - other: The store to follow.
  ///   - get: Derives the value from the other store's model; its reads are tracked.
  ///   - tag: Makes this store's action of a value.
  /// - Returns: A token that stops following when cancelled; the store keeps it too.
  @discardableResult
  public func follow<Other: ArborealStore, Value: Equatable>(
    _ other: Other,
    get: @escaping (Other.Model) -> Value,
    tag: @escaping (Value) -> Model.Action
  ) -> TrackingToken {
    send(tag(get(other.state)))
    let token = observe({ get(other.state) }) { [weak self] _, value in
      self?.send(tag(value))
    }
    followedStores.append(token)
    return token
  }
}

extension Store {
  /// Adds a handler that is called after each action the store handles, with the action, its
  /// number and cause, and the tracked properties its update changed.
  ///
  /// ```swift
  /// let log = store.addLogHandler { entry in print(entry) }  // "increment → count"
  /// store.addLogHandler(logsValues: true) { entry in print(entry.changedValues.map(\.after)) }
  /// log.cancel()  // the first handler is called no more
  /// ```
  ///
  /// Handlers run on the main actor after the update's observers, in the order they were
  /// added; actions delivered by effects are logged too. Each is independent of the others:
  /// a recorder and a change log both see every action, and removing one leaves the other.
  ///
  /// While a handler is installed, each update records its changes, which makes writes to
  /// tracked properties on every thread take their slow path for the duration of the
  /// update; without one, `send` records nothing.
  ///
  /// - Parameters:
  ///   - logsValues: Whether the entries this handler gets describe each changed property's
  ///     old and new values (``StoreLogEntry/changedValues``). Describing a value
  ///     (`String(reflecting:)`) costs time on every logged action, and keeping the old value
  ///     keeps it alive until the entry is built: ask for it for debugging, not for a
  ///     recording that must stay cheap.
  ///   - handler: Called with each entry.
  /// - Returns: A token whose `cancel()` removes the handler; the store keeps the handler
  ///   until then, whether or not the token is kept.
  @discardableResult
  public func addLogHandler(
    logsValues: Bool = false, _ handler: @escaping (StoreLogEntry<Model.Action>) -> Void
  ) -> LogHandlerToken {
    lastLogHandlerID += 1
    let id = lastLogHandlerID
    logHandlers.append(LogHandlerSlot(id: id, logsValues: logsValues, handler: handler))
    rebuildLogDispatch()
    return LogHandlerToken { [weak self] in self?.removeLogHandler(id) }
  }

  private func removeLogHandler(_ id: UInt64) {
    logHandlers.removeAll { $0.id == id }
    rebuildLogDispatch()
  }

  /// Makes `logDispatch` call the handlers in `logHandlers`, in order: the one handler
  /// directly, or each in turn.
  private func rebuildLogDispatch() {
    let slots = logHandlers
    hasLogHandlers = !slots.isEmpty
    logsAnyValues = slots.contains { $0.logsValues }
    switch slots.count {
    case 0:
      logDispatch = nil
    case 1:
      let handler = slots[0].handler
      logDispatch =
        slots[0].logsValues ? { _, valued in handler(valued) } : { plain, _ in handler(plain) }
    default:
      logDispatch = { plain, valued in
        for slot in slots { slot.handler(slot.logsValues ? valued : plain) }
      }
    }
  }
}

/// Removes a log handler added with ``Store/addLogHandler(logsValues:_:)``.
///
/// ```swift
/// let log = store.addLogHandler { print($0) }
/// log.cancel()
/// ```
@MainActor
public final class LogHandlerToken: Sendable {
  private var remove: (() -> Void)?

  init(remove: @escaping () -> Void) {
    self.remove = remove
  }

  /// Removes the handler; later calls do nothing.
  public func cancel() {
    let remove = self.remove
    self.remove = nil
    remove?()
  }
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

extension Store: EffectHost {
  func addWaiter(_ waiter: CheckedContinuation<Void, Never>, for group: GroupID) -> Bool {
    table.addWaiter(waiter, to: group)
  }

  func cancel(group: GroupID) {
    perform(table.cancel(group: group))
    dropSuspended { $0.group == group }
  }

  func isOpen(_ group: GroupID) -> Bool {
    table.isOpen(group)
  }
}
