import Arboreal
import ArborealTesting
import Testing

/// Actomaton's README examples, ported as a new user would and run on an actor of the test's
/// own: the counter, the login flow whose two requests share an effect identifier, and the
/// timer made from an async sequence. Each runs exhaustively in a `TestStore`, and also in a
/// plain `Store` that an actor holds.
///
/// What felt awkward, next to Actomaton:
///
/// 1. An effect identifier does not cancel on its own. In Actomaton, starting an effect cancels
///    the running effect that has the same `EffectID`. Here `.cancellable(id:)` defaults to
///    `cancelInFlight: false`, so a port that keeps Actomaton's one line,
///    `.cancellable(id: LoginFlowID())`, compiles and runs. The forced logout then leaves the
///    login running, and its `loginOK` lands in `.loggingOut`, the "transition failed" branch.
///    With that line, `aForcedLogoutCancelsTheLoginInFlight` fails with "received loginOK
///    instead" (tried). The timer's restart needs the flag too. Nothing warns about it.
/// 2. A store on an actor means writing the actor yourself. `Actomaton` is the actor:
///    `await actomaton.send(.x)` and `await actomaton.state.count` work from anywhere. Here the
///    store is not `Sendable`, so outside code reaches it only through methods written for it
///    (`LoginSession.send(_:)`, `.phase`). The test's own function cannot read `store.state`.
/// 3. Where the store lives depends on where it is made, and nothing at the call site shows
///    it. `#isolation` is nil in an actor's `init`, sync or async, until every stored property
///    is set, and a `let store` is one of them. A store made in a `lazy var`'s initialiser
///    behaved the same.
///    The natural `actor Session { let store: Store<…>; init() { store = Store(…) } }`
///    therefore makes a store that lives on no actor. After a plain `store.send(.login)` with a
///    server that answers at once, `phase` was still `.loggingIn` one second later. It catches
///    up only when the actor awaits the store (`value`, `finish()`, `handleDelivered()`),
///    which, in the build this was written against, also binds the store to the actor. Only a
///    store made in an actor's method is on the actor from the start. `LoginSession` below
///    awaits every send, and so works either way.
/// 4. `handleDelivered()` returned 0 even though it handled the delivery: `phase` went from
///    `.loggingIn` to `.loggedIn` across the call, with no other await in between. The binding
///    handles what waited in the mailbox and drops that count
///    (`for item in mailbox.bind(to:) { _ = handleMailItem(item) }`).
/// 5. `Effect(id:sequence:)` has no counterpart. The port is a `.run { send in for await … }`
///    loop plus `.cancellable(id:cancelInFlight:)`, and the sequence had to be written by hand
///    (`Ticks`). The README's shape, an `AsyncStream` around a `Task { while true { sleep;
///    yield } }`, compiles and mostly passes in a `TestStore`, but it is flaky. In one batch of
///    2,000 runs it failed once with "receive(tick): no action arrived. No effect can go on".
///    The cause: a `Task {}` started inside an effect does not inherit the test executor (a
///    check printed preference true in the effect, false in the inner task). Its loop runs
///    outside the test store's stepping, and nothing warns. The README's loop also never
///    checks for cancellation; with a throwing `clock.sleep` under `try?` it spins forever
///    once cancelled.
/// 6. A plain `Store` with a `TestClock` needs the testing executor. The `Store`'s effects run
///    on the global executor. A plain `clock.sleep` inside an effect is booked only when the
///    effect's task reaches it, so `clock.advance(by:)` right after `send` races it: the
///    count stayed 0 in most of 50 runs. Setting `store.effectExecutor = TestExecutor()` and
///    calling `await store.runEffects()` before the first advance makes it deterministic (no
///    failure in 3,000 runs). The `TestClock` docs give this one line ("prefer the operators").
///    The login flow's plain-store test uses an `ImmediateClock` instead.
/// 7. Awaiting the task that `send` returns works differently in a `TestStore`. The README
///    does `let t = await actomaton.send(.login); await t.value`. A `TestStore`'s
///    `await handle.value` fails until every action the effects delivered has been received
///    (`awaitingTheSendBeforeReceivingFails`). That is by design, but it is the README's main
///    idiom.
/// 8. In an actor's method, a `withKnownIssue` closure does not take the actor's isolation on
///    its own. `await withKnownIssue { await handle.value }` stopped the whole test process
///    with "step(on:until:) ran off the isolation of its store of LoginFlow". Every other
///    test of the run died with it, and none of them was reported. The closure has to
///    capture the actor (`_ = self`), as a function with an `isolated` parameter must
///    capture that parameter. A failure recorded as an issue, rather than a precondition,
///    would have cost one test and not the run.
/// 9. State is a class. Actomaton's `State = Int` (the timer) and `enum State` (the login flow)
///    become a model class with a `TrackingRegistrar` and a `@Tracked` property (`count`,
///    `phase`), and the reducer's `switch (action, state)` becomes `switch (action, phase)`.
///    `state = .loggingIn` reads the same as `phase = .loggingIn`.
/// 10. Smaller spelling gaps:
///     - `Store(state: Counter())` does not compile. Only `TestStore` has the initialiser for
///       a `Void` environment, so a plain store needs `environment: ()`.
///     - Actomaton's effect may return `nil` for "no next action"; `Fx { }` must return one,
///       and `nil` means switching to `.run`. (In its favour, no
///       `if Task.isCancelled { return nil }` is needed: a cancelled effect's action is
///       dropped.)
///     - There is no `.cancel(ids:)`: it takes `.merge` of several `.cancel(id:)`.
///     - `EffectIDProtocol` types become any `Hashable & Sendable` value, so a string works
///       as well as a type.
/// 11. The documentation disagrees with the new isolation:
///     - `ArborealModel.update`'s comment still says it "runs synchronously on the main actor"
///       and that "the main actor is this method's alone".
///     - The Actomaton table in `ComingFromOtherLibraries.md` maps `Actomaton` to
///       "`Store<Model>` (on the main actor)". Its note says effect queues with "oldest first,
///       a fixed number in flight" policies have no equivalent, while the row above maps them
///       to `.queue(_:_:)` with `.oldest(_:whenFull:)`.
///     - `TestStoreIsolationTests` cites "Docs/Semantics.md, 'Where a store lives'", which
///       does not exist.
///     - `TestExecutor` runs its jobs on the main thread. An actor-hosted test store's effects
///       therefore run there while the test runs on its actor, which surprised me, though it
///       works.
/// 12. Test files share one module, and `PortedTimer`, `Trivia` and `Loader` were already
///     taken. The port's types live in the namespace `ActomatonPort`.
///
/// What carried over as is: `send` with its assertion closure, `receive`, `finish()` and
/// `clock.advance(by:)` work the same on an actor of the test's own as on the main actor, with
/// no `isolation` argument. A log handler that appends to a local array compiles on the actor.
enum ActomatonPort {}

// MARK: - Example 1: the counter

extension ActomatonPort {
  /// Actomaton's `State { count }` and its reducer, as one model.
  final class Counter: ArborealModel {
    enum Action: Sendable, Equatable {
      case increment
      case decrement
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var count = 0

    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .increment: count += 1
      case .decrement: count -= 1
      }
      return .none
    }
  }
}

// MARK: - Example 2: logging in and out

extension ActomatonPort {
  /// The login flow: four phases, and one effect identifier shared by the login and logout
  /// requests, so that starting one cancels the other (Actomaton does that for any two effects
  /// with the same identifier; here it takes `cancelInFlight: true`).
  final class LoginFlow: ArborealModel {
    enum Phase: Sendable, Equatable {
      case loggedOut, loggingIn, loggedIn, loggingOut
    }

    enum Action: Sendable, Equatable {
      case login, loginOK, logout, logoutOK
      case forceLogout
    }

    /// The identifier of both requests.
    struct LoginFlowID: Hashable, Sendable {}

    /// The server the flow talks to, and where a refused transition goes (the README prints
    /// it).
    struct Environment: Sendable {
      var login: @Sendable (_ userID: String) async throws -> Void
      var logout: @Sendable () async throws -> Void
      var report: @Sendable (_ message: String) async -> Void
    }

    let registrar = TrackingRegistrar()
    let userID: String
    @Tracked private(set) var phase = Phase.loggedOut

    init(userID: String) {
      self.userID = userID
    }

    func update(action: Action, environment: Environment) -> Fx<Action> {
      switch (action, phase) {
      case (.login, .loggedOut):
        phase = .loggingIn
        let userID = self.userID
        // As in the README, a failed request still ends the phase. A cancelled one delivers
        // nothing: the store drops its action.
        return Fx {
          try? await environment.login(userID)
          return .loginOK
        }
        .cancellable(id: LoginFlowID(), cancelInFlight: true)
      case (.loginOK, .loggingIn):
        phase = .loggedIn
        return .none
      case (.logout, .loggedIn), (.forceLogout, .loggingIn), (.forceLogout, .loggedIn):
        phase = .loggingOut
        return Fx {
          try? await environment.logout()
          return .logoutOK
        }
        .cancellable(id: LoginFlowID(), cancelInFlight: true)
      case (.logoutOK, .loggingOut):
        phase = .loggedOut
        return .none
      default:
        let phase = self.phase
        return .run { _ in
          await environment.report("State transition failed: \(action) in \(phase)")
        }
      }
    }
  }

  /// A fake authentication server. Each request takes a second on its clock, and the server
  /// notes how each one ended, cancellations included (the README's `isLoginCancelled`).
  actor FakeAuthServer {
    private let clock: any Clock<Duration>
    private(set) var events: [String] = []

    init(clock: any Clock<Duration>) {
      self.clock = clock
    }

    /// The flow's environment, talking to this server.
    nonisolated var environment: LoginFlow.Environment {
      LoginFlow.Environment(
        login: { try await self.request("login \($0)") },
        logout: { try await self.request("logout") },
        report: { await self.note($0) })
    }

    /// The events whose text starts with `prefix`, in order.
    func events(of prefix: String) -> [String] {
      events.filter { $0.hasPrefix(prefix) }
    }

    private func note(_ event: String) {
      events.append(event)
    }

    private func request(_ name: String) async throws {
      events.append(name)
      do {
        try await clock.sleep(for: .seconds(1))
      } catch {
        events.append("\(name) cancelled")
        throw error
      }
      events.append("\(name) ok")
    }
  }
}

// MARK: - Example 3: the timer

extension ActomatonPort {
  /// The timer: `start` runs an effect made from an async sequence of ticks, and `stop` cancels
  /// it by its identifier. Actomaton's state is the `Int` itself; a model needs a property.
  final class Timer: ArborealModel {
    enum Action: Sendable, Equatable {
      case start, tick, stop
    }

    struct TimerID: Hashable, Sendable {}

    struct Environment: Sendable {
      var clock: any Clock<Duration>
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var count = 0

    func update(action: Action, environment: Environment) -> Fx<Action> {
      switch action {
      case .start:
        return .run { send in
          for await _ in Ticks(every: .seconds(1), on: environment.clock) {
            await send(.tick)
          }
        }
        .cancellable(id: TimerID(), cancelInFlight: true)
      case .tick:
        count += 1
        return .none
      case .stop:
        return .cancel(id: TimerID())
      }
    }
  }

  /// An endless sequence that yields every `interval` on `clock`, and ends when its task is
  /// cancelled. It replaces the README's `AsyncStream` around a sleeping task: its sleeps run
  /// in the effect's own task.
  struct Ticks: AsyncSequence, Sendable {
    let interval: Duration
    let clock: any Clock<Duration>

    init(every interval: Duration, on clock: any Clock<Duration>) {
      self.interval = interval
      self.clock = clock
    }

    struct AsyncIterator: AsyncIteratorProtocol {
      let interval: Duration
      let clock: any Clock<Duration>

      mutating func next() async -> Void? {
        do {
          try await clock.sleep(for: interval)
          return ()
        } catch {
          return nil
        }
      }
    }

    func makeAsyncIterator() -> AsyncIterator {
      AsyncIterator(interval: interval, clock: clock)
    }
  }
}

// MARK: - Tests

@Suite struct PortedActomatonTests {
  @Test func theCounterCountsBothWays() async {
    await CounterTests().countsBothWays()
  }

  @Test func theCounterInAPlainStoreOnAnActor() async {
    await CounterTests().inAPlainStore()
  }

  @Test func loginThenLogoutCancelsNothing() async {
    await LoginFlowTests().loginThenLogout()
  }

  @Test func aForcedLogoutCancelsTheLoginInFlight() async {
    await LoginFlowTests().forceLogoutWhileLoggingIn()
  }

  @Test func aForcedLogoutWhenLoggedInLogsOut() async {
    await LoginFlowTests().forceLogoutWhenLoggedIn()
  }

  @Test func aRefusedTransitionIsReportedAndTheLoginGoesOn() async {
    await LoginFlowTests().refusedTransitionsWhileLoggingIn()
  }

  @Test func awaitingTheSendBeforeReceivingFails() async {
    await LoginFlowTests().awaitingTheSendBeforeReceiving()
  }

  @Test func theLoginFlowInAPlainStoreOnAnActor() async {
    await LoginFlowTests().inAPlainStore()
  }

  @Test func theLoginFlowInAStoreTheActorMadeInItsInit() async {
    let session = LoginSession(userID: "ada")
    #expect(await session.phase == .loggedOut)
    #expect(await session.send(.login) == .loggedIn)
    #expect(await session.send(.logout) == .loggedOut)
    #expect(await session.send(.login) == .loggedIn)
    #expect(await session.send(.forceLogout) == .loggedOut)
    #expect(
      await session.server.events == [
        "login ada", "login ada ok", "logout", "logout ok",
        "login ada", "login ada ok", "logout", "logout ok",
      ])
  }

  @Test func theTimerTicksUntilStopped() async {
    await TimerTests().ticksUntilStopped()
  }

  @Test func startingTheTimerAgainRestartsIt() async {
    await TimerTests().startingAgainRestarts()
  }

  @Test func theTimerInAPlainStoreOnAnActor() async {
    await TimerTests().inAPlainStore()
  }
}

actor CounterTests {
  func countsBothWays() async {
    let store = TestStore(state: ActomatonPort.Counter())
    await store.send(.increment) { #expect($0.count == 1) }
    await store.send(.increment) { #expect($0.count == 2) }
    await store.send(.decrement) { #expect($0.count == 1) }
    await store.send(.decrement) { #expect($0.count == 0) }
    await store.finish()
  }

  /// The README's `main`, with the store made in this method, so that it lives on this actor.
  func inAPlainStore() async {
    let store = Store(state: ActomatonPort.Counter(), environment: ())
    #expect(store.state.count == 0)
    store.send(.increment)
    #expect(store.state.count == 1)
    store.send(.increment)
    #expect(store.state.count == 2)
    store.send(.decrement)
    #expect(store.state.count == 1)
    store.send(.decrement)
    #expect(store.state.count == 0)
    await store.finish()
  }
}

actor LoginFlowTests {
  /// A store on a fake server whose requests take a second on `clock`.
  private func makeStore(
    clock: TestClock
  ) -> (TestStore<ActomatonPort.LoginFlow>, ActomatonPort.FakeAuthServer) {
    let server = ActomatonPort.FakeAuthServer(clock: clock)
    let store = TestStore(
      state: ActomatonPort.LoginFlow(userID: "ada"), environment: server.environment)
    return (store, server)
  }

  /// The README's `test_login_logout`: nothing is cancelled.
  func loginThenLogout() async {
    let clock = TestClock()
    let (store, server) = makeStore(clock: clock)
    await store.send(.login) { #expect($0.phase == .loggingIn) }
    await clock.advance(by: .seconds(1))
    await store.receive(.loginOK) { #expect($0.phase == .loggedIn) }
    await store.send(.logout) { #expect($0.phase == .loggingOut) }
    await clock.advance(by: .seconds(1))
    await store.receive(.logoutOK) { #expect($0.phase == .loggedOut) }
    await store.finish()
    #expect(await server.events == ["login ada", "login ada ok", "logout", "logout ok"])
  }

  /// The README's `test_login_forceLogout`: the logout request, sharing the login's
  /// identifier, cancels the login in flight.
  func forceLogoutWhileLoggingIn() async {
    let clock = TestClock()
    let (store, server) = makeStore(clock: clock)
    await store.send(.login) { #expect($0.phase == .loggingIn) }
    // The README sleeps a millisecond, then interrupts.
    await clock.advance(by: .milliseconds(500))
    await store.send(.forceLogout) { #expect($0.phase == .loggingOut) }
    // The login's second is up too, but it was cancelled: only `logoutOK` arrives.
    await clock.advance(by: .seconds(1))
    await store.receive(.logoutOK) { #expect($0.phase == .loggedOut) }
    await store.finish()
    #expect(await server.events(of: "login") == ["login ada", "login ada cancelled"])
    #expect(await server.events(of: "logout") == ["logout", "logout ok"])
  }

  func forceLogoutWhenLoggedIn() async {
    let clock = TestClock()
    let (store, server) = makeStore(clock: clock)
    await store.send(.login) { #expect($0.phase == .loggingIn) }
    await clock.advance(by: .seconds(1))
    await store.receive(.loginOK) { #expect($0.phase == .loggedIn) }
    await store.send(.forceLogout) { #expect($0.phase == .loggingOut) }
    await clock.advance(by: .seconds(1))
    await store.receive(.logoutOK) { #expect($0.phase == .loggedOut) }
    await store.finish()
    #expect(await server.events == ["login ada", "login ada ok", "logout", "logout ok"])
  }

  /// In the README's reducer, a login is taken only when logged out: a second login is a
  /// refused transition. A fire-and-forget effect reports it, nothing changes, and the login
  /// in flight goes on.
  func refusedTransitionsWhileLoggingIn() async {
    let clock = TestClock()
    let (store, server) = makeStore(clock: clock)
    await store.send(.login) { #expect($0.phase == .loggingIn) }
    await store.send(.login)
    await store.send(.logoutOK)
    await clock.advance(by: .seconds(1))
    await store.receive(.loginOK) { #expect($0.phase == .loggedIn) }
    await store.send(.logout) { #expect($0.phase == .loggingOut) }
    await store.send(.loginOK)
    await clock.advance(by: .seconds(1))
    await store.receive(.logoutOK) { #expect($0.phase == .loggedOut) }
    await store.finish()
    #expect(
      await server.events == [
        "login ada",
        "State transition failed: login in loggingIn",
        "State transition failed: logoutOK in loggingIn",
        "login ada ok",
        "logout",
        "State transition failed: loginOK in loggingOut",
        "logout ok",
      ])
  }

  /// The README waits on the task that `send` returns. A test store's handle can only finish
  /// once the test has received what the effect delivered.
  func awaitingTheSendBeforeReceiving() async {
    let clock = TestClock()
    let (store, _) = makeStore(clock: clock)
    let login = await store.send(.login) { #expect($0.phase == .loggingIn) }
    await clock.advance(by: .seconds(1))
    await withKnownIssue {
      _ = self
      await login.value
    } matching: {
      $0.description.contains("loginOK")
    }
    await store.receive(.loginOK) { #expect($0.phase == .loggedIn) }
    await login.value
    #expect(login.isFinished)
    await store.finish()
  }

  /// The README's two tests in a plain store. The store is made in this method, so it lives
  /// on this actor. `send` returns a handle whose `value` waits for the effects, as
  /// Actomaton's task does.
  func inAPlainStore() async {
    let server = ActomatonPort.FakeAuthServer(clock: ImmediateClock())
    let store = Store(
      state: ActomatonPort.LoginFlow(userID: "ada"), environment: server.environment)
    var handled: [ActomatonPort.LoginFlow.Action] = []
    store.addLogHandler { handled.append($0.action) }

    var handle = store.send(.login)
    #expect(store.state.phase == .loggingIn)
    await handle.value
    #expect(store.state.phase == .loggedIn)
    handle = store.send(.logout)
    #expect(store.state.phase == .loggingOut)
    await handle.value
    #expect(store.state.phase == .loggedOut)
    #expect(await server.events == ["login ada", "login ada ok", "logout", "logout ok"])

    // Nothing runs between the two sends, so the forced logout always finds the login in
    // flight, however far its task got: the store drops its `loginOK` even if it is already on
    // its way.
    store.send(.login)
    #expect(store.state.phase == .loggingIn)
    handle = store.send(.forceLogout)
    #expect(store.state.phase == .loggingOut)
    await handle.value
    #expect(store.state.phase == .loggedOut)
    await store.finish()
    #expect(
      handled == [.login, .loginOK, .logout, .logoutOK, .login, .forceLogout, .logoutOK])
  }
}

/// The login flow as a new user holds it: an actor that makes its store in `init` (where
/// `#isolation` is still nil, see point 3) and awaits each send. Everything outside code reads
/// goes through a method of its own.
actor LoginSession {
  let server = ActomatonPort.FakeAuthServer(clock: ImmediateClock())
  private let store: Store<ActomatonPort.LoginFlow>

  init(userID: String) {
    store = Store(state: ActomatonPort.LoginFlow(userID: userID), environment: server.environment)
  }

  var phase: ActomatonPort.LoginFlow.Phase { store.state.phase }

  /// Sends `action` and returns the phase once its effects have ended.
  func send(_ action: ActomatonPort.LoginFlow.Action) async -> ActomatonPort.LoginFlow.Phase {
    await store.send(action).value
    return store.state.phase
  }
}

actor TimerTests {
  /// The README's `test_timer`, on a test clock.
  func ticksUntilStopped() async {
    let clock = TestClock()
    let store = TestStore(state: ActomatonPort.Timer(), environment: .init(clock: clock))
    await store.send(.start)
    for count in 1...3 {
      await clock.advance(by: .seconds(1))
      await store.receive(.tick) { #expect($0.count == count) }
    }
    await store.send(.stop)
    // Long enough: a stopped timer delivers nothing more.
    await clock.advance(by: .seconds(10))
    await store.finish()
  }

  /// A second `start` cancels the running timer (the same identifier), so the ticks restart
  /// from it.
  func startingAgainRestarts() async {
    let clock = TestClock()
    let store = TestStore(state: ActomatonPort.Timer(), environment: .init(clock: clock))
    await store.send(.start)
    await clock.advance(by: .milliseconds(500))
    await store.send(.start)
    // The first timer's tick would be due now.
    await clock.advance(by: .milliseconds(500))
    await clock.advance(by: .milliseconds(500))
    await store.receive(.tick) { #expect($0.count == 1) }
    await clock.advance(by: .seconds(1))
    await store.receive(.tick) { #expect($0.count == 2) }
    await store.send(.stop)
    await store.finish()
  }

  /// A plain store with a test clock: its effects run on a test executor, and run up to their
  /// first sleep before the clock moves (see point 6).
  func inAPlainStore() async {
    let clock = TestClock()
    let store = Store(state: ActomatonPort.Timer(), environment: .init(clock: clock))
    store.effectExecutor = TestExecutor()
    store.send(.start)
    await store.runEffects()
    #expect(store.state.count == 0)
    for count in 1...3 {
      await clock.advance(by: .seconds(1))
      #expect(store.state.count == count)
    }
    store.send(.stop)
    await clock.advance(by: .seconds(10))
    await store.finish()
    #expect(store.state.count == 3)
  }
}
