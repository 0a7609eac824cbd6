import Arboreal
import ArborealTracking
import Synchronization

/// A store for tests that fails the test when something happens that the test did not assert:
/// a tracked property changed and not checked, an effect action not received, an effect still
/// running at the end.
///
/// ```swift
/// @MainActor @Test func loadsAFact() async {
///   let store = TestStore(
///     state: FactCounter(), environment: .init(fact: { "\($0) is a good number." }))
///   await store.send(.factButtonTapped) { model in
///     #expect(model.isLoading)
///   }
///   await store.receive(.factResponse("0 is a good number.")) { model in
///     #expect(model.isLoading == false)
///     #expect(model.fact == "0 is a good number.")
///   }
///   await store.finish()
/// }
/// ```
///
/// ## Exhaustivity
/// With ``exhaustivity`` `.on` (the default), each ``send(_:assert:fileID:filePath:line:column:)``
/// and ``receive(_:timeout:assert:fileID:filePath:line:column:)-(Model.Action,_,_,_,_,_,_)`` records every tracked
/// property the action changed (child models included) and every tracked property its
/// `assert` closure read; a property that changed but was not read fails the test with its
/// name and new value. Reading a property is what counts: `#expect(model.count == 1)` reads
/// `count`. Effect actions are *not* applied when they arrive: they wait in a queue until the
/// test receives them, in order, so that the test sees each step. Sending while received
/// actions wait fails. With `.off`, changes need no assertion, effect actions are applied as
/// they arrive, and `receive` skips to the first matching action (see ``Exhaustivity``).
///
/// ## End of the test
/// Call ``finish(timeout:fileID:filePath:line:column:)`` at the end of a test that starts
/// effects: it runs them, then fails on effects still running and (exhaustively) on actions
/// that arrived and were not received, listing them. If a test does not call `finish()`,
/// releasing the store still fails (at the line that created it) on unreceived actions and on
/// the effects still running after the test's last step. Releasing the store cancels its
/// effects.
///
/// ## Effects
/// The effects run on the test store's own ``TestExecutor``, one job at a time, in the order
/// the jobs arrive: the same test runs them in the same order on every run. `send` runs them
/// until none can go on; `receive`, `finish` and ``TestSendHandle/value`` run them until what
/// they wait for happens, and fail at once when nothing can go on first, naming what each
/// effect waits for. Exhaustively, during a step an effect runs at most one action ahead of the
/// test: its next action waits until the test has received the one before, as the app handles
/// each action before the effect goes on. A step never hangs: effects that deliver 10,000
/// actions no `receive` asked for, or run 10,000 turns without delivering, fail it, naming
/// each effect, the step that started it and what it delivered. Only effects that wait on work
/// outside the executor (a detached task, a real clock, I/O) need a wall-clock ``timeout``,
/// which a test opts into.
///
/// ## Mistakes the app would only log
/// In debug builds, what the store reports to `ArborealDiagnostics.droppedActionHandler`
/// during a step's updates fails that step, in either exhaustivity: an action for a child that
/// is not there (a button of an alert that is not up, a screen that was popped), a `forward`
/// through a route that `routes` does not list (in every test, though the handler hears it
/// once per process), effects returned together with `Fx.dismiss`. A test that sends such an
/// action on purpose says so with `withKnownIssue`.
///
/// In every build and either exhaustivity, a step that puts a `SubscribingModel` into the
/// state where no route listed in its parent's `routes` holds it fails: the
/// store would not start its subscriptions, and a child that only listens would never send
/// the action whose `forward` reports the missing route.
///
/// ## New models
/// Exhaustively, a model that a step put into the state (made during the step) is checked
/// whole: the assertion must read each of its tracked properties, recursively through the
/// new models it holds, or compare it with ``stateDifferences(_:_:)``.
///
/// ## Failures
/// Failures are reported where the test called the method, as Swift Testing issues when a
/// Swift Testing test is running, as XCTest failures otherwise.
///
/// ## Isolation
/// A test store lives where it is made, as a `Store` does: in a `@MainActor` test, in an actor
/// of the test's own, or in a nonisolated test (which Swift Testing runs in parallel with
/// others). Its calls are the same everywhere.
public final class TestStore<Model: ArborealModel> {
  /// The model under test. Read it in `assert` closures rather than here, so that the reads
  /// count as assertions.
  public var state: Model { store.state }

  /// The services the model's effects use.
  public var environment: Model.Environment { store.environment }

  /// Every child model the model's routes hold now, by place: the same list as
  /// `Store.children`.
  ///
  /// ```swift
  /// #expect(store.children.map(\.place) == ["MeetingList.path[id: 0]"])
  /// ```
  public var children: [ChildPlace] { store.children }

  /// Whether the model under test dismissed itself: its update returned `Fx.dismiss`, which
  /// in the app its presenting parent would have acted on.
  ///
  /// ```swift
  /// await store.send(.saveTapped) { model in … }
  /// #expect(store.isDismissed)
  /// ```
  ///
  /// Once it is true, a further ``send(_:assert:fileID:filePath:line:column:)`` fails the
  /// test (a dismissed screen receives no more actions from its user); effects already
  /// running still deliver, to be received.
  public private(set) var isDismissed = false

  /// Whether unasserted changes and effect actions fail the test; `.on` by default.
  ///
  /// ```swift
  /// store.exhaustivity = .off
  /// await store.send(.refresh)  // changes pass unasserted
  /// await store.receive(.loaded(42))  // skips any action before it
  /// ```
  ///
  /// Switching to `.off` handles the actions waiting to be received, in order; switching to
  /// `.on` forgets the actions that arrived while it was `.off`.
  public var exhaustivity: Exhaustivity {
    didSet {
      guard exhaustivity != oldValue else { return }
      switch exhaustivity {
      case .off:
        let waiting = received
        received = []
        for item in waiting {
          // Kept before it is handled: the actions its update sends come after it.
          received.append(.handled(item.action))
          if case .waiting(let action, let ticket) = item {
            handleIntercepted(action, ticket: ticket)
          }
        }
      case .on:
        received = []
      }
      releaseHolds()
    }
  }

  /// An action an effect delivered, as `received` keeps it.
  private enum Received {
    /// Exhaustive mode: held back until a `receive` handles it with its ticket.
    case waiting(Model.Action, InterceptedActionTicket)
    /// Non-exhaustive mode: handled when it arrived; kept until a `receive` skips past it.
    case handled(Model.Action)

    var action: Model.Action {
      switch self {
      case .waiting(let action, _), .handled(let action): action
      }
    }

    /// Whether it still waits to be handled.
    var isWaiting: Bool {
      if case .waiting = self { true } else { false }
    }
  }

  /// How long to wait on the wall clock for effects that wait on work outside the test (an
  /// actor with work from elsewhere, a detached task, a real clock, I/O); nil, the default,
  /// for not waiting at all.
  ///
  /// ```swift
  /// store.timeout = .seconds(3)  // the effects call a real server
  /// ```
  ///
  /// The effects run on the test store's ``TestExecutor``: ``TestSendHandle/value``,
  /// ``receive(_:timeout:assert:fileID:filePath:line:column:)-(Model.Action,_,_,_,_,_,_)`` and
  /// ``finish(timeout:fileID:filePath:line:column:)`` run their jobs until what they wait for
  /// happens, and fail at once when no effect can go on, naming what each waits for. Work
  /// outside the executor goes on without the test store, so it cannot tell when it is done:
  /// with a timeout, those calls wait up to it for such work before they fail. An upper
  /// bound, not a delay: a test that passes never waits for it. `receive` and `finish` also
  /// take a timeout of their own.
  public var timeout: Duration?

  // A plain `Store` whose package hook `effectActionInterceptor` hands every effect action to
  // `effectDidDeliver(_:ticket:)` with a ticket that keeps the effect's group open, and whose
  // effects run on `executor`.
  private let store: Store<Model>
  // Runs the effects' jobs one at a time, on the main thread; the test store steps them.
  private let executor = TestExecutor()
  // Counts the hops of the effects to the main actor; a delivery let go after a hold counts
  // again (see `EffectDeliveryHold`).
  private let trace: EffectTrace?
  // What the test store knows of each running effect, by number: the step that started it and
  // what it delivered; for failures that name the effect.
  private var effectNotes: [UInt64: EffectNote] = [:]
  // How many actions were ever put in `received` while exhaustive: an action's number in that
  // order is its place; the oldest still waiting is number `appended - received.count`.
  private var appended: UInt64 = 0
  // Whether `runEffects` is running the effects now: only then are deliveries held.
  private var isStepping = false
  // The deliveries held until the test receives what came before them, oldest first (see
  // `mustHold(_:)`); all let go when the step ends.
  private var holds: [(effect: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
  // The effects still running after the test's last step, each with what it waits for;
  // behind a lock so that `deinit`, which cannot reach the store's main-actor state, can
  // report them. Empty after `finish()`.
  private let runningAtLastStep = Locked<[String]>.make([])
  // Where failures found by `deinit` are reported.
  private let createdAt: CallerLocation
  // The effect actions, oldest first, that arrived and that no `receive` has taken yet: with
  // `.on`, all `.waiting` (not handled); with `.off`, all `.handled` (applied on arrival).
  // Switching exhaustivity converts or clears them.
  private var received: [Received] = []
  // The handles of every send, to cancel leftover effects at `finish`.
  private var handles: [SendHandle] = []
  // Whether a wait that ran off the store's actor was reported (once per test store).
  private var reportedWrongIsolation = false
  // The debug reports made during the store's updates since the test's last step (an action
  // for a child that is not there, a route `routes` misses, …): each fails the test at the
  // step that made it. Debug builds only make them.
  private var debugReports: [String] = []

  /// Creates a test store for a model.
  ///
  /// ```swift
  /// let store = TestStore(state: Search(), environment: .mock, exhaustivity: .off)
  /// ```
  ///
  /// - Parameters:
  ///   - state: The model under test.
  ///   - environment: The services its effects use (usually test doubles).
  ///   - exhaustivity: Whether every change and effect action must be asserted.
  ///   - fileID: Where failures found when the store is released are reported.
  ///   - filePath: Where failures found when the store is released are reported.
  ///   - line: Where failures found when the store is released are reported.
  ///   - column: Where failures found when the store is released are reported.
  ///   - isolation: Where the test store lives: the caller's isolation; leave the default.
  public init(
    state: Model,
    environment: Model.Environment,
    exhaustivity: Exhaustivity = .on,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) {
    self.store = Store(
      state: state, environment: environment, effectExecutor: executor, isolation: isolation)
    self.exhaustivity = exhaustivity
    self.createdAt = CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    self.trace = store.effectTrace
    store.effectActionInterceptor = { [weak self] action, ticket in
      self?.effectDidDeliver(action, ticket: ticket)
    }
    store.effectDeliveryHold = self
    store.rootDismissHandler = { [weak self] in self?.isDismissed = true }
    store.debugReportSink = { [weak self] in self?.debugReports.append($0) }
  }

  /// Creates a test store for a model whose environment is `Void`.
  ///
  /// ```swift
  /// let store = TestStore(state: Counter())
  /// ```
  ///
  /// - Parameters:
  ///   - state: The model under test.
  ///   - exhaustivity: Whether every change and effect action must be asserted.
  ///   - fileID: Where failures found when the store is released are reported.
  ///   - filePath: Where failures found when the store is released are reported.
  ///   - line: Where failures found when the store is released are reported.
  ///   - column: Where failures found when the store is released are reported.
  ///   - isolation: Where the test store lives: the caller's isolation; leave the default.
  public convenience init(
    state: Model,
    exhaustivity: Exhaustivity = .on,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) where Model.Environment == Void {
    self.init(
      state: state, environment: (), exhaustivity: exhaustivity,
      fileID: fileID, filePath: filePath, line: line, column: column, isolation: isolation)
  }

  deinit {
    // The held deliveries go on, to find their effects cancelled by the store's release.
    for hold in holds {
      trace?.deliveryBegan()
      hold.continuation.resume()
    }
    // Nonisolated, like every deinit, but nothing else can reach the test store any more, so
    // reading `received` cannot race. The running effects live in the store's main-actor
    // table, which a deinit cannot query: each step leaves a copy in `runningAtLastStep`.
    let unhandled = received.filter(\.isWaiting)
    if !unhandled.isEmpty {
      reportFailure(
        "The test store was released with \(Self.count(unhandled.count, "unreceived action")): "
          + Self.list(unhandled.map(\.action))
          + "\nReceive them with `await store.receive(…)`, and end the test with "
          + "`await store.finish()`.",
        at: createdAt)
    }
    let running = runningAtLastStep.withLock { $0 }
    if !running.isEmpty {
      reportFailure(
        "The test store was released while \(Self.count(running.count, "effect")) "
          + "\(running.count == 1 ? "was" : "were") running: \(running.joined(separator: "; "))"
          + "\nEnd the test with `await store.finish()`, after cancelling the effects that "
          + "never end.",
        at: createdAt)
    }
  }

  // MARK: Sending

  /// Sends an action, applies it at once, then runs `assert` on the model.
  ///
  /// ```swift
  /// await store.send(.increment) { model in
  ///   #expect(model.count == 1)
  /// }
  /// ```
  ///
  /// Exhaustively, the test fails if the action (or an action it queued) changed a tracked
  /// property that `assert` did not read, naming each with its new value, and if actions that
  /// effects delivered are still waiting to be received. Effects the action starts run; their
  /// actions wait for ``receive(_:timeout:assert:fileID:filePath:line:column:)-(Model.Action,_,_,_,_,_,_)``.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - assert: Checks the model after the update; an error it throws fails the test.
  ///   - fileID: Where failures are reported; the caller's by default.
  ///   - filePath: Where failures are reported; the caller's by default.
  ///   - line: Where failures are reported; the caller's by default.
  ///   - column: Where failures are reported; the caller's by default.
  /// - Returns: The handle on the effects the action started; awaiting its
  ///   ``TestSendHandle/value`` before receiving their actions fails at once.
  @discardableResult
  nonisolated(nonsending) public func send(
    _ action: Model.Action,
    assert: ((Model) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestSendHandle {
    let location = CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let label = "send(\(action))"
    if isDismissed {
      reportFailure(
        "\(label) was sent after \(Model.self) dismissed itself (`Fx.dismiss`): its user "
          + "cannot send it anything any more.",
        at: location)
    }
    if exhaustivity == .on, !received.isEmpty {
      reportFailure(
        "\(label) was sent while \(Self.count(received.count, "received action")) "
          + "had not been handled: \(Self.list(received.map(\.action)))\n"
          + "Receive them with `await store.receive(…)` first.",
        at: location)
    }
    let ((handle, start), changes) = withChangeRecording(keepingValues: true) {
      (store.send(action), changeRecordingStart)
    }
    noteNewEffects(startedBy: "\(label) at \(location.fileID):\(location.line)")
    handles.append(handle)
    check(label, changes: changes, newSince: start, assert: assert, at: location)
    // Exhaustively, an effect goes no further than one action ahead of the test (see
    // `mustHold(_:)`), so this ends even for an effect that never stops delivering.
    await runEffects(until: { false }, timeout: nil, at: location, label: label)
    failOnDebugReports(label, at: location)
    return TestSendHandle(handle: handle, waiter: self, label: label, location: location)
  }

  /// Fails the test once for each debug report the store's updates made since the last step:
  /// what the app would only log (an action dropped for a child that is not there, a route
  /// that `routes` does not list) is a mistake the test must not pass over.
  private func failOnDebugReports(_ label: String, at location: CallerLocation) {
    guard !debugReports.isEmpty else { return }
    let reports = debugReports
    debugReports.removeAll()
    for report in reports {
      reportFailure("\(label): \(report)", at: location)
    }
  }

  /// Runs the effects until those of a send are done; fails when they cannot finish, listing
  /// the actions that wait to be received or the effects and what they wait for.
  nonisolated(nonsending) func wait(
    for handle: SendHandle, label: String, at location: CallerLocation
  ) async {
    // An action waiting to be received keeps the handle open: no need to go on.
    await runEffects(
      until: { handle.isFinished || (exhaustivity == .on && !received.isEmpty) },
      timeout: timeout, at: location, label: "\(label).value")
    if handle.isFinished { return }
    let waiting =
      received.isEmpty
      ? " " + pendingSummary()
      : " \(Self.count(received.count, "action")) delivered by effects "
        + "\(received.count == 1 ? "waits" : "wait") to be received: "
        + Self.list(received.map(\.action)) + "."
    reportFailure(
      "\(label).value: the effects cannot finish\(Self.within(timeout)).\(waiting)\n"
        + "Receive the actions they deliver with `await store.receive(…)` before awaiting "
        + "the handle, or end the test with `await store.finish()`.",
      at: location)
  }

  /// Sends an action like ``send(_:assert:fileID:filePath:line:column:)``, with the state
  /// before it at hand: `before` reads what the assertion compares against, right before the
  /// action is applied.
  ///
  /// ```swift
  /// await store.send(.increment, capturing: \.count) { model, count in
  ///   #expect(model.count == count + 1)
  /// }
  /// ```
  ///
  /// What `before` reads does not count as checked: the assertion must still read each
  /// property the action changed.
  ///
  /// - Parameters:
  ///   - action: The action.
  ///   - before: Reads the values to compare against from the model before the action.
  ///   - assert: Checks the model after the update, given what `before` read; an error it
  ///     throws fails the test.
  ///   - fileID: Where failures are reported; the caller's by default.
  ///   - filePath: Where failures are reported; the caller's by default.
  ///   - line: Where failures are reported; the caller's by default.
  ///   - column: Where failures are reported; the caller's by default.
  /// - Returns: The handle on the effects the action started.
  @discardableResult
  nonisolated(nonsending) public func send<Before>(
    _ action: Model.Action,
    capturing before: (Model) -> Before,
    assert: @escaping (Model, Before) throws -> Void,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestSendHandle {
    let captured = before(store.state)
    return await send(
      action, assert: { try assert($0, captured) }, fileID: fileID, filePath: filePath,
      line: line, column: column)
  }

  // MARK: Asserting

  /// Checks the model without sending anything: runs `body` on the model, as the `assert`
  /// closure of a send would.
  ///
  /// ```swift
  /// await store.send(.increment) { #expect($0.count == 1) }
  /// store.assert { model in
  ///   #expect(model.count == 1)
  ///   #expect(!model.isLoading)
  /// }
  /// ```
  ///
  /// Nothing changes, so nothing can go unasserted: it checks the state at any point of a test.
  /// Exhaustively, it fails, like a send, when actions that effects delivered are waiting to be
  /// received, since the state it checks is not yet the one they lead to.
  ///
  /// - Parameters:
  ///   - body: Checks the model; an error it throws fails the test.
  ///   - fileID: Where failures are reported; the caller's by default.
  ///   - filePath: Where failures are reported; the caller's by default.
  ///   - line: Where failures are reported; the caller's by default.
  ///   - column: Where failures are reported; the caller's by default.
  public func assert(
    _ body: (Model) throws -> Void,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    if exhaustivity == .on, !received.isEmpty {
      reportFailure(
        "assert was called while \(Self.count(received.count, "received action")) "
          + "had not been handled: \(Self.list(received.map(\.action)))\n"
          + "Receive them with `await store.receive(…)` first.",
        at: location)
    }
    withoutActuallyEscaping(body) { body in
      check("assert", changes: [], assert: body, at: location)
    }
  }

  /// Runs `body` with ``exhaustivity`` set to `exhaustivity`, then sets it back to its previous
  /// value, even when `body` throws.
  ///
  /// ```swift
  /// await store.withExhaustivity(.off) {
  ///   await store.send(.refresh)  // changes and effect actions pass unasserted
  /// }
  /// await store.finish()  // passes: the actions arrived while it was off
  /// ```
  ///
  /// Both switches behave as setting ``exhaustivity`` does. Turning it off at the start handles
  /// the actions waiting to be received; turning it back on at the end forgets the actions that
  /// arrived while it was off, so neither a later `send` nor `finish()` fails on them. An
  /// action that arrives after the body returns waits to be received as usual. Turning it on
  /// for the body of a non-exhaustive store makes the body's actions wait for `receive`; those
  /// still waiting when it ends are handled then.
  ///
  /// - Parameters:
  ///   - exhaustivity: The exhaustivity while `body` runs.
  ///   - body: The steps of the test to run with it.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  @discardableResult
  nonisolated(nonsending) public func withExhaustivity<Result, Failure: Error>(
    _ exhaustivity: Exhaustivity,
    _ body: nonisolated(nonsending) () async throws(Failure) -> Result
  ) async throws(Failure) -> Result {
    let previous = self.exhaustivity
    self.exhaustivity = exhaustivity
    defer { self.exhaustivity = previous }
    return try await body()
  }

  // MARK: Receiving

  // The three `receive` forms (an action, a predicate, a case) are deliberate twins: each
  // repeats the caller-location parameters, which must be the public function's own default
  // arguments to capture the test's file and line, and calls the one `receive(expected:…)`.

  /// Waits for the next action an effect delivers, checks that it is `action`, applies it and
  /// runs `assert` on the model.
  ///
  /// ```swift
  /// await store.send(.load)
  /// await store.receive(.loaded(42)) { model in
  ///   #expect(model.count == 42)
  /// }
  /// ```
  ///
  /// Exhaustively, the test fails when no action arrives before no effect can go on (or within
  /// `timeout`, when one is given, for work outside the test), when the next one is
  /// a different action (which is then applied anyway, without `assert`, so that the store
  /// goes on as the app would), and when the action changes a property `assert` did not read.
  /// With ``exhaustivity`` `.off`, the actions before the first equal one are skipped (they
  /// were applied when they arrived).
  ///
  /// - Parameters:
  ///   - action: The action expected.
  ///   - timeout: A wall-clock bound for effects that wait on work outside the test (the
  ///     store's ``timeout`` when nil); an upper bound, not a delay.
  ///   - assert: Checks the model after the update; an error it throws fails the test.
  ///   - fileID: Where failures are reported; the caller's by default.
  ///   - filePath: Where failures are reported; the caller's by default.
  ///   - line: Where failures are reported; the caller's by default.
  ///   - column: Where failures are reported; the caller's by default.
  nonisolated(nonsending) public func receive(
    _ action: Model.Action,
    timeout: Duration? = nil,
    assert: ((Model) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Model.Action: Equatable {
    await receive(
      expected: "\(action)", timeout: timeout ?? self.timeout, matching: { $0 == action },
      assert: assert,
      at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Waits for the next action an effect delivers, checks it with `predicate`, applies it and
  /// runs `assert` on the model: for actions that are not `Equatable`, or to match a case
  /// whatever its payload.
  ///
  /// ```swift
  /// await store.receive(where: { if case .failed = $0 { true } else { false } }) { model in
  ///   #expect(model.error != nil)
  /// }
  /// ```
  ///
  /// The same rules as ``receive(_:timeout:assert:fileID:filePath:line:column:)-(Model.Action,_,_,_,_,_,_)`` apply.
  ///
  /// - Parameters:
  ///   - predicate: Whether an action is the one expected.
  ///   - timeout: A wall-clock bound for effects that wait on work outside the test (the
  ///     store's ``timeout`` when nil); an upper bound, not a delay.
  ///   - assert: Checks the model after the update; an error it throws fails the test.
  ///   - fileID: Where failures are reported; the caller's by default.
  ///   - filePath: Where failures are reported; the caller's by default.
  ///   - line: Where failures are reported; the caller's by default.
  ///   - column: Where failures are reported; the caller's by default.
  nonisolated(nonsending) public func receive(
    where predicate: (Model.Action) -> Bool,
    timeout: Duration? = nil,
    assert: ((Model) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      expected: "an action matching the predicate", timeout: timeout ?? self.timeout,
      matching: predicate,
      assert: assert,
      at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Waits for the next action an effect delivers and checks that it is of the case
  /// `casePattern` makes, whatever its payload (which need not be `Equatable`); then applies it
  /// and runs `assert` on the model.
  ///
  /// ```swift
  /// await store.receive(Search.Action.resultsLoaded) { model in
  ///   #expect(model.results.count == 3)
  /// }
  /// ```
  ///
  /// Pass the case itself, `Action.resultsLoaded`, not a value of it. The same rules as
  /// ``receive(_:timeout:assert:fileID:filePath:line:column:)-(Model.Action,_,_,_,_,_,_)`` apply.
  ///
  /// - Parameters:
  ///   - casePattern: The case expected: a case of `Model.Action` with associated values.
  ///   - timeout: A wall-clock bound for effects that wait on work outside the test (the
  ///     store's ``timeout`` when nil).
  ///   - assert: Checks the model after the update; an error it throws fails the test.
  ///   - fileID: Where failures are reported; the caller's by default.
  ///   - filePath: Where failures are reported; the caller's by default.
  ///   - line: Where failures are reported; the caller's by default.
  ///   - column: Where failures are reported; the caller's by default.
  nonisolated(nonsending) public func receive<Payload>(
    _ casePattern: @escaping (Payload) -> Model.Action,
    timeout: Duration? = nil,
    assert: ((Model) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receive(
      expected: "a case taking \(Payload.self)", timeout: timeout ?? self.timeout,
      matching: { CaseMatch.action($0, isCaseOf: casePattern) },
      assert: assert,
      at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  nonisolated(nonsending) private func receive(
    expected: String,
    timeout: Duration?,
    matching predicate: (Model.Action) -> Bool,
    assert: ((Model) throws -> Void)?,
    at location: CallerLocation
  ) async {
    let wait = ReceiveWait(label: "receive(\(expected))", timeout: timeout, location: location)
    switch exhaustivity {
    case .on: await receiveNext(wait, matching: predicate, assert: assert)
    case .off: await skipToMatch(wait, matching: predicate, assert: assert)
    }
    failOnDebugReports(wait.label, at: location)
    recordRunningEffects()
  }

  /// What both modes of `receive` need to wait and report: the call's label, its wall-clock
  /// timeout if any, and where to report failures.
  private struct ReceiveWait {
    let label: String
    let timeout: Duration?
    let location: CallerLocation
  }

  /// Exhaustive `receive`: waits for the next action held back, handles it, and fails when it
  /// does not match (after handling it, so that the store goes on as the app would) or when
  /// its changes are not asserted.
  nonisolated(nonsending) private func receiveNext(
    _ wait: ReceiveWait,
    matching predicate: (Model.Action) -> Bool,
    assert: ((Model) throws -> Void)?
  ) async {
    guard
      await runEffects(
        until: { !received.isEmpty }, timeout: wait.timeout, at: wait.location,
        label: wait.label)
    else {
      reportFailure(
        "\(wait.label): no action arrived\(Self.within(wait.timeout)). " + pendingSummary(),
        at: wait.location)
      return
    }
    // Exhaustively, every entry waits (switching to `.on` clears the handled ones).
    guard case .waiting(let action, let ticket) = received.removeFirst() else { return }
    let (start, changes) = withChangeRecording(keepingValues: true) {
      handleIntercepted(action, ticket: ticket)
      return changeRecordingStart
    }
    releaseHolds()
    guard predicate(action) else {
      reportFailure("\(wait.label): received \(action) instead.", at: wait.location)
      return
    }
    check(
      "receive(\(action))", changes: changes, newSince: start, assert: assert,
      at: wait.location)
  }

  /// Non-exhaustive `receive`: skips the actions that arrived (handled already) up to the
  /// first that matches, waiting for more while none does; fails when none arrives in time.
  nonisolated(nonsending) private func skipToMatch(
    _ wait: ReceiveWait,
    matching predicate: (Model.Action) -> Bool,
    assert: ((Model) throws -> Void)?
  ) async {
    let found = await runEffects(
      until: { received.contains { predicate($0.action) } }, timeout: wait.timeout,
      at: wait.location, label: wait.label)
    guard found, let index = received.firstIndex(where: { predicate($0.action) }) else {
      received.removeAll()
      reportFailure(
        "\(wait.label): no such action arrived\(Self.within(wait.timeout)). "
          + pendingSummary(),
        at: wait.location)
      return
    }
    received.removeFirst(index + 1)
    check(wait.label, changes: [], assert: assert, at: wait.location)
  }

  // MARK: Finishing

  /// Runs the effects until they have all ended, then fails on those still running and, when
  /// exhaustive, on actions that arrived and were not received, listing them.
  ///
  /// ```swift
  /// await store.send(.load)
  /// await store.receive(.loaded(42)) { #expect($0.count == 42) }
  /// await store.finish()
  /// ```
  ///
  /// It fails as soon as no effect can go on, naming what each one still running waits for
  /// (with `timeout`, it first waits up to it for work outside the test). Effects still running
  /// then are cancelled (after the failure), and so are the effects of the actions still
  /// waiting, so that nothing outlives the test. Call it at the end of every test that starts
  /// effects.
  ///
  /// - Parameters:
  ///   - timeout: A wall-clock bound for effects that wait on work outside the test (the
  ///     store's ``timeout`` when nil); an upper bound, not a delay.
  ///   - fileID: Where failures are reported; the caller's by default.
  ///   - filePath: Where failures are reported; the caller's by default.
  ///   - line: Where failures are reported; the caller's by default.
  ///   - column: Where failures are reported; the caller's by default.
  /// - Complexity: O(*e*) per effect that ends, for *e* running effects.
  nonisolated(nonsending) public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let timeout = timeout ?? self.timeout
    // Exhaustively, an action waiting to be received fails the test anyway: no need to go on.
    await runEffects(
      until: { store.hasNoEffects || (exhaustivity == .on && !received.isEmpty) },
      timeout: timeout, at: location, label: "finish()")
    let done = store.hasNoEffects
    if exhaustivity == .on, !received.isEmpty {
      // The effects stopped at the first action to receive; those still running are cancelled
      // below, and named here.
      let running = done ? [] : effectLines()
      reportFailure(
        "finish(): \(Self.count(received.count, "effect action")) arrived and "
          + "\(received.count == 1 ? "was" : "were") not received: "
          + Self.list(received.map(\.action))
          + (running.isEmpty
            ? ""
            : "\nStill running, now cancelled:\n"
              + running.map { "  \($0)" }.joined(separator: "\n")),
        at: location)
    } else if !done {
      let running = effectLines()
      reportFailure(
        "finish(): \(Self.count(running.count, "effect")) cannot finish"
          + "\(Self.within(timeout)):\n"
          + running.map { "  \($0)" }.joined(separator: "\n")
          + "\nCancel the effects that never end in the test (send the action that stops "
          + "them), advance the test clock they wait for, or give the store a `timeout` for "
          + "work outside the test.",
        at: location)
    }
    received.removeAll()
    for handle in handles { handle.cancel() }
    handles.removeAll()
    failOnDebugReports("finish()", at: location)
    runningAtLastStep.withLock { $0 = [] }
    releaseHolds()
    // The tasks of the effects that ended (or were just cancelled) wind down now, not at some
    // later step: what they hold is released before the test goes on.
    _ = await store.step(on: executor, until: { executor.pendingJobs == 0 })
  }

  // MARK: Helpers

  /// Runs `assert` recording its reads, then fails on the changes it did not read and on the
  /// properties it did not read of the models the step put into the state (see `NewModels`):
  /// those made after `start`, the start of the step's change recording.
  private func check(
    _ label: String,
    changes: [RecordedChange],
    newSince start: UInt64 = .max,
    assert: ((Model) throws -> Void)?,
    at location: CallerLocation
  ) {
    var accesses = Set<RecordedAccess>()
    if let assert {
      let model = store.state
      let (thrown, reads) = withAccessRecording { () -> (any Error)? in
        do {
          try assert(model)
          return nil
        } catch {
          return error
        }
      }
      accesses = reads
      if let thrown {
        reportFailure("\(label): the assertion threw \(thrown).", at: location)
      }
    }
    checkUnfollowedModels(label, changes: changes, newSince: start, at: location)
    guard exhaustivity == .on else { return }
    checkNewModels(label, changes: changes, newSince: start, accesses: accesses, at: location)
    let unasserted = ChangeSummary.unasserted(changes, accesses: accesses)
    guard !unasserted.isEmpty else { return }
    reportFailure(
      "\(label) changed \(Self.count(unasserted.count, "tracked property", plural: "tracked properties")) that the "
        + "assertion did not check:\n"
        + unasserted.map { "  \(ChangeSummary.describe($0))" }.joined(separator: "\n")
        + "\nRead each one in the `assert` closure (`#expect(model.property == …)`), "
        + "or set `exhaustivity = .off`.",
      at: location)
  }

  /// Fails on each subscribing model the step put into the state where no listed route holds
  /// it: its subscriptions would not start (until an action forwarded to it, if one ever
  /// is), and a model that only listens never gets one. Whatever the exhaustivity: the app
  /// would not work.
  ///
  /// - Complexity: O(1) when the step made no model; otherwise the search of `NewModels`,
  ///   plus O(*n*) for the store's *n* children when a new model subscribes.
  private func checkUnfollowedModels(
    _ label: String,
    changes: [RecordedChange],
    newSince start: UInt64,
    at location: CallerLocation
  ) {
    guard start != .max, !changes.isEmpty else { return }
    let subscribing = NewModels.made(in: changes, start: start).filter { subscribes($0.model) }
    guard !subscribing.isEmpty else { return }
    let followed = Set(store.children.map { ObjectIdentifier($0.model) })
    for made in subscribing where !followed.contains(ObjectIdentifier(made.model)) {
      let owner = made.change.model.map { "\(type(of: $0))" } ?? "its parent"
      reportFailure(
        "\(label) put \(type(of: made.model)), a subscribing model, into "
          + "\(made.change.key.qualifiedName), where no route listed in \(owner).routes holds "
          + "it: its subscriptions do not start (only when an action is forwarded to it, if one "
          + "ever is). Declare the place's route and list it: `static let routes: "
          + "[ChildRoute<\(owner)>] = [...]`.",
        at: location)
    }
  }

  /// Fails on the properties the assertion did not read of the models the step put into the
  /// state, listing them by model.
  private func checkNewModels(
    _ label: String,
    changes: [RecordedChange],
    newSince start: UInt64,
    accesses: Set<RecordedAccess>,
    at location: CallerLocation
  ) {
    guard !changes.isEmpty else { return }
    let unchecked = NewModels.unchecked(in: changes, start: start, accesses: accesses)
    guard !unchecked.isEmpty else { return }
    // A few models in full; an action that adds thousands would otherwise print them all.
    let shown = 5
    // Where the model's routes hold each one: `MeetingList.path[id: 0].detail`.
    var places: [ObjectIdentifier: String] = [:]
    for child in store.children { places[ObjectIdentifier(child.model)] = child.place }
    var models = unchecked.prefix(shown).map { model in
      let at = places[model.id].map { " (at \($0))" } ?? ""
      return "  \(model.model), new in \(model.place)\(at):\n"
        + model.properties.map { "    \($0)" }.joined(separator: "\n")
    }
    if unchecked.count > shown {
      models.append("  and \(Self.count(unchecked.count - shown, "more new model"))")
    }
    var types: [String] = []
    for model in unchecked where !types.contains(model.typeName) { types.append(model.typeName) }
    let first = unchecked[0]
    reportFailure(
      "\(label) put \(Self.count(unchecked.count, "new model")) "
        + "(\(types.joined(separator: ", "))) into the state whose tracked properties the "
        + "assertion did not check:\n" + models.joined(separator: "\n")
        + "\nRead each one in the `assert` closure, compare the new \(first.typeName) as a "
        + "whole with the one you expect (`#expect(stateDifferences(model.\(first.property)"
        + "\(first.caseAccessor), "
        + "\(first.typeName)(…)) == [])`), or set `exhaustivity = .off`.",
      at: location)
  }

  /// Called by the store, on the main actor, for each action an effect delivers.
  private func effectDidDeliver(_ action: Model.Action, ticket: InterceptedActionTicket) {
    if let effect = ticket.effect { effectNotes[effect, default: EffectNote()].delivered(action) }
    switch exhaustivity {
    case .on:
      received.append(.waiting(action, ticket))
      appended += 1
      // The effect's next action waits until the test has received this one.
      if let effect = ticket.effect { effectNotes[effect, default: EffectNote()].mark = appended }
    case .off:
      // Kept before it is handled: the actions its update sends come after it.
      received.append(.handled(action))
      handleIntercepted(action, ticket: ticket)
    }
  }

  /// Handles an action an effect delivered, noting the effects its update started.
  private func handleIntercepted(_ action: Model.Action, ticket: InterceptedActionTicket) {
    store.handleIntercepted(action, ticket: ticket)
    noteNewEffects(
      startedBy: ticket.effect.map { "\(action), delivered by effect #\($0)" }
        ?? "\(action), sent by an update")
  }

  /// Notes the step that started each running effect the test store did not know yet, and
  /// forgets the effects that ended.
  private func noteNewEffects(startedBy step: @autoclosure () -> String) {
    let running = store.runningEffectNumbers
    effectNotes = effectNotes.filter { running.contains($0.key) }
    var cause: String?
    for effect in running where effectNotes[effect]?.startedBy == nil {
      cause = cause ?? step()
      effectNotes[effect, default: EffectNote()].startedBy = cause
      // A new effect delivers nothing before the test has received what was sent before it
      // started (an `Fx.send` or `Fx.dismiss` of the same update, as the app handles those
      // first).
      effectNotes[effect]?.mark = appended
    }
  }

  /// Lets go the held deliveries that may go on now, oldest first: those whose effect ended
  /// and those no action waits before any more.
  private func releaseHolds() {
    guard !holds.isEmpty else { return }
    let running = store.runningEffectNumbers
    var kept: [(effect: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
    for hold in holds {
      if running.contains(hold.effect), mustHold(hold.effect) {
        kept.append(hold)
      } else {
        trace?.deliveryBegan()
        hold.continuation.resume()
      }
    }
    holds = kept
  }

  /// What the test store knows of a running effect.
  private struct EffectNote {
    /// The step that started it: `send(start) at Feature.swift:12`; nil when it started
    /// otherwise (a subscription).
    var startedBy: String?
    /// How many actions it delivered.
    var count = 0
    /// The number (see `appended`) its next action waits for: none of the actions before it
    /// may still wait to be received. Set when it starts and at each action it delivers.
    var mark: UInt64 = 0
    /// The last few it delivered, described, oldest first.
    var last: [String] = []

    mutating func delivered(_ action: some Sendable) {
      count += 1
      last.append("\(action)")
      if last.count > 3 { last.removeFirst() }
    }

    /// `, started by send(start) at Feature.swift:12, delivered 10000 actions (… tick, tick)`
    var summary: String {
      (startedBy.map { ", started by \($0)" } ?? "")
        + (count == 0
          ? ""
          : ", delivered \(count) action\(count == 1 ? "" : "s") (the last: "
            + last.joined(separator: ", ") + ")")
    }
  }

  /// Runs the effects on the executor until `done()`; when none can go on and `timeout` is
  /// given, waits up to it on the wall clock for work outside the executor, looking again
  /// every millisecond. Fails when the effects run without ever delivering (see
  /// `StepOutcome.busy`). Records the effects still running for `deinit`.
  ///
  /// - Returns: `done()`.
  @discardableResult
  nonisolated(nonsending) private func runEffects(
    until done: () -> Bool, timeout: Duration?, at location: CallerLocation? = nil,
    label: String = "send"
  ) async -> Bool {
    if !reportedWrongIsolation, !store.isInIsolation() {
      reportedWrongIsolation = true
      reportFailure(
        "\(label) ran off the actor its test store lives on, from another thread than its "
          + "effects' deliveries. In an actor's method, a closure given to a function that "
          + "takes an async closure (`withKnownIssue { … }`) runs off the actor unless it "
          + "captures the actor: write `_ = self` in it.",
        at: location ?? createdAt)
    }
    isStepping = true
    defer {
      // The held deliveries go on when the test next waits on anything: a test that waits on
      // something the effect does after it (a signal of its own) sees it happen.
      isStepping = false
      releaseHolds()
      recordRunningEffects()
    }
    let deadline = timeout.map { ContinuousClock.now + $0 }
    while true {
      switch await store.step(on: executor, until: done) {
      case .done:
        return true
      case .busy:
        reportFailure(StepOutcome.busyMessage(label), at: location ?? createdAt)
        return done()
      case .flooded:
        reportFailure(
          StepOutcome.floodMessage(label, effects: effectLines()), at: location ?? createdAt)
        return done()
      case .idle:
        guard let deadline, ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(1))
      }
    }
  }

  /// One line per running effect, oldest first: its number, its cancellation identifiers, the
  /// step that started it, what it delivered and what it waits for.
  private func effectLines() -> [String] {
    store.pendingEffectLines { effect in
      (effectNotes[effect]?.summary ?? "")
        + (holds.contains { $0.effect == effect }
          ? ", its next action held until the test receives the one before it" : "")
    }
  }

  /// Keeps the running effects where `deinit` can read them.
  private func recordRunningEffects() {
    let running = store.hasNoEffects ? [] : effectLines()
    runningAtLastStep.withLock { $0 = running }
  }

  /// `No effect is running.`, or the effects still running with what each waits for.
  private func pendingSummary() -> String {
    let running = effectLines()
    return running.isEmpty
      ? "No effect is running."
      : "No effect can go on:\n" + running.map { "  \($0)" }.joined(separator: "\n")
  }

  /// ` within 1.0 seconds` for a wall-clock timeout, nothing without one.
  private nonisolated static func within(_ timeout: Duration?) -> String {
    timeout.map { " within \($0)" } ?? ""
  }

  /// `1 action`, `2 actions`; `plural` for nouns that do not take an s.
  private nonisolated static func count(
    _ count: Int, _ noun: String, plural: String? = nil
  ) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
  }

  private nonisolated static func list(_ actions: [Model.Action]) -> String {
    actions.map { "\($0)" }.joined(separator: ", ")
  }

}

extension TestStore: SendHandleWaiter {}

extension TestStore: EffectDeliveryHold {
  /// Whether effect `effect` must wait before it delivers: exhaustively, while a step of the
  /// test store runs the effects and an action that arrived before the effect's last delivery
  /// (or before it started) still waits to be received.
  ///
  /// In a step, an effect thereby never runs more than one action ahead of the test, as in the
  /// app, where each action an effect sends is handled before the effect goes on: a timer on a
  /// clock that does not wait delivers one tick per `receive`, and the toggle that stops it
  /// finds no tick waiting. Between steps, and while a `TestClock` advances, effects deliver
  /// everything they can.
  package func mustHold(_ effect: UInt64) -> Bool {
    guard isStepping, exhaustivity == .on, !received.isEmpty, !executor.isAdvancing else {
      return false
    }
    let oldestWaiting = appended - UInt64(received.count)
    return oldestWaiting < effectNotes[effect, default: EffectNote()].mark
  }

  /// Keeps a held delivery until `mustHold(_:)` lets it go.
  package func hold(_ effect: UInt64, until continuation: CheckedContinuation<Void, Never>) {
    holds.append((effect, continuation))
  }
}
