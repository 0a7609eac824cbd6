/// The source of truth for a model: it applies actions to it, one at a time, in the isolation
/// that made it (the main actor, an actor of yours, or a nonisolated function), and runs the
/// effects they return off it.
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
/// ## Isolation
/// A store belongs to the isolation that made it, and so do its model, its view stores and
/// its send handles: it is not `Sendable`, so the compiler keeps it there. Made on the main
/// actor (a view, a command-line tool's top-level code) it works on the main actor; made in an
/// actor's method it works on that actor, and its updates run there:
///
/// ```swift
/// actor Session {
///   let store: Store<TodoList>
///   init() { store = Store(state: TodoList(), environment: .live) }
///   func add(_ title: String) async { await store.send(.add(title)).value }
/// }
/// ```
///
/// Effects' actions come back to that actor. A store made where no actor is known yet (a
/// nonisolated function, or an actor's initialiser, where `#isolation` is nil until every
/// stored property is set) handles its effects' actions when its owner awaits it
/// (``finish()``, a handle's ``SendHandle/value``) or calls ``handleDelivered(isolation:)``;
/// the first such await from an actor binds the store to it, and from then on the actions
/// arrive there by themselves, as for a store made on it.
///
/// ## Effects
/// Each effect in the returned ``Fx`` runs in a detached task, off the store's isolation. The
/// actions it delivers come back through the store in its isolation, after the action that
/// started it. Cancelled effects deliver nothing more. Releasing the store cancels every
/// effect it runs; effects hold the store weakly, so they never keep it alive.
///
/// ## Cost
/// A send whose update returns ``Fx/none`` starts no task and allocates nothing in the store
/// (the tracking transaction around the update is the only cost besides `update` itself), and
/// formats no string unless a log handler is installed (``addLogHandler(logsValues:_:)``).
public final class Store<Model: ArborealModel>: ArborealStore {
  /// The model. The reference never changes; its tracked properties change through actions.
  public let state: Model

  /// The services the model's effects use.
  public let environment: Model.Environment

  // The store is a front (this file): the model, the environment, `send` and the fields its
  // inlined fast path touches. Logging is `StoreLog`; everything an action leaves behind
  // (queued actions, effects, subscriptions, routes, idle waiters) is the `EffectRuntime`,
  // which also owns `isHandling`. The log is the store's isolated state, read and written in statements
  // of its own, never across a call that could reach it, so its dynamic exclusivity checks
  // (a sizeable share of a plain send) are off.

  /// The log handlers and the number of the last action logged (see `StoreLog`).
  @exclusivity(unchecked) @usableFromInline var log = StoreLog<Model.Action>()

  /// What runs besides `update`; owned by this store alone.
  @usableFromInline let runtime: EffectRuntime<Model>

  /// The observations made by ``follow(_:get:tag:isolation:)``, released with the store.
  private var followedStores: [TrackingToken] = []

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
    get { runtime.executor }
    set { runtime.setExecutor(newValue) }
  }

  /// Creates a store for a model.
  ///
  /// - Parameters:
  ///   - state: The model; the store keeps it for its whole life.
  ///   - environment: The services the model's effects use.
  ///   - effectExecutor: The executor the effects' tasks prefer (see ``effectExecutor``); nil,
  ///     the default, for the global concurrent executor. Given here, it also runs the
  ///     subscriptions a ``SubscribingModel`` starts while the store is made.
  ///   - isolation: Where the store lives: the caller's isolation; leave the default.
  public init(
    state: Model, environment: Model.Environment, effectExecutor: (any TaskExecutor)? = nil,
    isolation: isolated (any Actor)? = #isolation
  ) {
    self.state = state
    self.environment = environment
    runtime = EffectRuntime(executor: effectExecutor, isolation: isolation)
    runtime.start(for: self)
    #if DEBUG
      SubscriptionCheck.check(Model.self)
    #endif
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
  ///   - isolation: Where the store lives: the caller's isolation; leave the default.
  public convenience init(
    state: Model, environment: Model.Environment, action: Model.Action,
    isolation: isolated (any Actor)? = #isolation
  ) {
    self.init(state: state, environment: environment, isolation: isolation)
    send(action)
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
    if runtime.isHandling || log.hasHandlers {
      return runtime.isHandling ? sendSlowly(action) : sendLogged(action)
    }
    runtime.isHandling = true
    let opened = openTransaction()
    #if DEBUG
      let fx = namingPlaces { state.update(action: action, environment: environment) }
    #else
      let fx = state.update(action: action, environment: environment)
    #endif
    if let opened { closeTransaction(opened) }
    return finishSend(fx)
  }

  /// Runs `update` with this store as the thread's updating store (`ThreadSlots`), so that a
  /// debug report made inside it names a model by its place in this store
  /// (`Gallery.albums[id: 2].photos[id: 5] (Photo)`); debug builds call it around each
  /// update, in every isolation.
  @usableFromInline
  func namingPlaces(_ update: () -> Fx<Model.Action>) -> Fx<Model.Action> {
    let saved = ThreadSlots.updatingStore
    ThreadSlots.updatingStore = self
    defer { ThreadSlots.updatingStore = saved }
    return update()
  }

  /// `send(_:)` while busy or logging.
  @usableFromInline
  func sendSlowly(_ action: Model.Action) -> SendHandle {
    if runtime.isHandling { return runtime.enqueue(action) }
    runtime.isHandling = true
    return finishSend(apply(action, origin: nil))
  }

  /// `send(_:)` with a log handler installed, while not busy. Inlinable, so that it is
  /// specialised for the model in the caller's module with `send`: unspecialised, building
  /// the log entry looks up the metadata of `StoreLogEntry<Model.Action>` and its nested
  /// types on every action, which costs more than the rest of the logging.
  @inlinable @inline(never)
  func sendLogged(_ action: Model.Action) -> SendHandle {
    runtime.isHandling = true
    return finishSend(applyLogging(action, origin: nil))
  }

  /// The rest of a `send` once its update ran: starts the effects, handles the queued actions.
  @usableFromInline
  func finishSend(_ fx: Fx<Model.Action>) -> SendHandle {
    runtime.finishSend(fx)
  }

  /// Runs the update in one transaction, recording its changes for the log handler if any.
  ///
  /// `origin` is nil for a sent action, and for an effect's action the number of the action
  /// that started the effect. Called by the runtime for queued and effect actions.
  func apply(
    _ action: Model.Action, origin: Int?, owner: ChildLink? = nil
  ) -> Fx<Model.Action> {
    #if DEBUG
      if let owner {
        return ForwardProbe.expecting(action, from: owner) { apply(action, origin: origin) }
      }
    #endif
    if log.hasHandlers { return applyLogging(action, origin: origin) }
    // Opened and closed around the call rather than through `withTransaction`'s closure: a
    // closure here costs a context and a dynamic isolation check on every send.
    let opened = openTransaction()
    defer { if let opened { closeTransaction(opened) } }
    #if DEBUG
      return namingPlaces { state.update(action: action, environment: environment) }
    #else
      return state.update(action: action, environment: environment)
    #endif
  }

  /// Runs the update in one transaction, records the properties it changed and passes them to
  /// the log handler.
  ///
  /// Inlinable for ``sendLogged(_:)``; an effect's action takes the unspecialised copy.
  @inlinable @inline(never)
  func applyLogging(_ action: Model.Action, origin: Int?) -> Fx<Model.Action> {
    let fx: Fx<Model.Action>
    // Taken now: a handler may add or remove handlers.
    let dispatch = log.dispatch
    let single = log.singleHandler
    let steps = log.stepHandlers
    let logsValues = log.logsAnyValues
    log.sequence += 1
    let sequence = log.sequence
    // Opened and closed around the recording rather than through `withTransaction`'s
    // closure, as in `apply(_:origin:)`.
    let (opened, mark) = openTransactionRecording(keepingValues: logsValues)
    #if DEBUG
      fx = namingPlaces { state.update(action: action, environment: environment) }
    #else
      fx = state.update(action: action, environment: environment)
    #endif
    // With values, each change keeps them; without, only the keys are needed. (No optional
    // of the recorded changes: its metadata would be looked up at run time on every send.)
    guard logsValues else {
      let changes = endChangeRecordingKeys(mark, closing: opened)
      if let steps {
        // Each recorder is handed a step of its own, which it moves into its queue.
        for handler in steps {
          handler(LoggedStep(sequence: sequence, action: action, origin: origin, changes: changes))
        }
      }
      guard single != nil || dispatch != nil else { return fx }
      let entry = StoreLogEntry(
        action: action, changes: changes, sequence: sequence, cause: StoreLog.cause(of: origin),
        changedValues: [])
      if let single { single(entry) } else { dispatch?(entry, entry) }
      return fx
    }
    let recorded = endChangeRecording(mark, keepingValues: true, closing: opened)
    let changes = TrackingChanges(recorded: recorded)
    if let steps {
      for handler in steps {
        handler(LoggedStep(sequence: sequence, action: action, origin: origin, changes: changes))
      }
    }
    let cause = StoreLog<Model.Action>.cause(of: origin)
    let plain = StoreLogEntry(
      action: action, changes: changes, sequence: sequence, cause: cause, changedValues: [])
    // Values are described once, for the handlers that asked for them.
    let valued = StoreLogEntry(
      action: action, changes: changes, sequence: sequence, cause: cause,
      changedValues: StoreLog<Model.Action>.describe(recorded))
    if let single { single(valued) } else { dispatch?(plain, valued) }
    return fx
  }

  // MARK: Children

  /// The place ``children`` lists for `model`; nil for a model the routes do not hold (the
  /// store's own model among them).
  ///
  /// - Complexity: O(*n*) for *n* children.
  func childPlace(of model: AnyObject) -> String? {
    // `children` names no child of a model without routes: skip the walk.
    guard !Model.routes.isEmpty else { return nil }
    return children.first { $0.model === model }?.place
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
  /// idle already. Runs in the caller's isolation, which is the store's.
  nonisolated(nonsending) public func finish() async {
    await runtime.waitUntilIdle()
  }

  /// Handles what the effects of a store made outside any actor have delivered so far (their
  /// actions, in order, and their ends), and returns how many deliveries it handled.
  ///
  /// A store made on an actor handles each delivery as it arrives, and this returns 0. A store
  /// made where no actor is known (a nonisolated function, an actor's synchronous `init`) has
  /// no executor for its effects to come back to: what they deliver waits until its owner
  /// awaits the store (``finish()``, a handle's ``SendHandle/value``) or calls this, for
  /// example between the values of a subscription it waits for:
  ///
  /// ```swift
  /// while store.state.messages.isEmpty {
  ///   store.handleDelivered()
  ///   await Task.yield()
  /// }
  /// ```
  ///
  /// Called from an actor, it also binds such a store to that actor: from then on its effects'
  /// actions hop there as they arrive, as for a store made on it.
  ///
  /// - Parameter isolation: The caller's isolation, which is the store's; leave the default.
  /// - Returns: How many actions and effect ends it handled.
  @discardableResult
  public func handleDelivered(isolation: isolated (any Actor)? = #isolation) -> Int {
    runtime.bind(to: isolation) + runtime.handleMail()
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
  /// `get` read that gives a value different from the previous one, in this store's isolation
  /// (both stores live in the same one). This
  /// store follows until the returned token is cancelled or this store is released; it keeps
  /// `other` alive, not this store. (A ``Subscription`` is something else: a source of
  /// actions that a model asks for as a function of its own state.)
  ///
  /// - Parameters:
  ///   - other: The store to follow.
  ///   - get: Derives the value from the other store's model; its reads are tracked.
  ///   - tag: Makes this store's action of a value.
  ///   - isolation: The caller's isolation, which is both stores'; leave the default.
  /// - Returns: A token that stops following when cancelled; the store keeps it too.
  @discardableResult
  public func follow<Other: ArborealStore, Value: Equatable & SendableMetatype>(
    _ other: Other,
    get: @escaping (Other.Model) -> Value,
    tag: @escaping (Value) -> Model.Action,
    isolation: isolated (any Actor)? = #isolation
  ) -> TrackingToken {
    send(tag(get(other.state)))
    // The observer runs in this isolation, the stores' (see `IsolatedBox`).
    let reader = IsolatedBox(value: { get(other.state) })
    let sender = IsolatedBox(value: { [weak self] (value: Value) in _ = self?.send(tag(value)) })
    let token = observe(isolation: isolation, { reader.value() }) { _, value in
      sender.value(value)
    }
    followedStores.append(token)
    return token
  }
}

// What a running effect reports, in the store's isolation: an action it delivers, and its end.
// The effect's task calls these through the store's `StoreHome` (which holds it weakly, and
// strongly for the call), so that the store, and the runtime it owns, live until the runtime
// has handled it.
extension Store {
  func receive(_ action: Model.Action, from effect: EffectID, origin: Int, owner: ChildLink?) {
    runtime.receive(action, from: effect, origin: origin, owner: owner)
  }

  /// An action from an effect whose hop the trace counted. One async function, with no await
  /// but the hold's: between the trace's count of the arrival and the handling there is no
  /// suspension, where a test store stepping the effects would see nothing counted and stop.
  ///
  /// The hold's await can itself suspend before its body runs: in a task with an executor
  /// preference (every traced effect's), `withCheckedContinuation` called on the main actor
  /// goes once round the main queue first. So the delivery stays counted until the body runs,
  /// and the body asks again whether to hold: by then the test may have received what the
  /// first answer waited for.
  func receiveTraced(
    _ action: Model.Action, from effect: EffectID, origin: Int, owner: ChildLink?,
    isolation: isolated (any Actor)?
  ) async {
    if runtime.hold(for: effect) != nil {
      await withCheckedContinuation { continuation in
        guard let hold = runtime.hold(for: effect) else { return continuation.resume() }
        // Quiet while held: the hold counts the delivery again when it lets it go on.
        runtime.trace?.deliveryHeld()
        hold.hold(effect.rawValue, until: continuation)
      }
    }
    runtime.trace?.deliveryArrived()
    runtime.receive(action, from: effect, origin: origin, owner: owner)
  }

  func finish(_ effect: EffectID) {
    runtime.finish(effect)
  }

  func finishTraced(_ effect: EffectID) {
    runtime.finishTraced(effect)
  }
}

// What a `SendHandle` needs: answered by the runtime. The handle refers to the store (weakly),
// not to the runtime, so that the runtime is only entered through a live store.
extension Store: EffectHost {
  func addWaiter(_ waiter: CheckedContinuation<Void, Never>, for group: GroupID) -> Bool {
    runtime.addWaiter(waiter, for: group)
  }

  var nextMail: (@Sendable () async -> Void)? {
    guard let mailbox = runtime.mailbox else { return nil }
    return { await mailbox.next() }
  }

  func handleMail() {
    runtime.handleMail()
  }

  func bind(to isolation: (any Actor)?) {
    runtime.bind(to: isolation)
  }

  func cancel(group: GroupID) {
    runtime.cancel(group: group)
  }

  func isOpen(_ group: GroupID) -> Bool {
    runtime.isOpen(group)
  }
}

extension Store: ChildPlaceNaming {}

extension Store: DebugReportReceiving {
  func receiveDebugReport(_ message: String) {
    runtime.debugReportSink?(message)
  }
}
