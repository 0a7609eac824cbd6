import Arboreal
import ArborealTesting
import Testing

/// TCA's "Navigation stack" case study, ported as a user would with routes only: a root with a
/// stack of three kinds of screen. Screen A counts and fetches a fact, and dismisses itself;
/// screen B asks the root to push screens without knowing them; screen C runs a timer that
/// ends when it is popped. The root pushes A → B → C at once, goes back to a screen, and pops
/// to the root.
enum PortedNavigation {
  /// The services every screen uses.
  struct Services: Sendable {
    var fact: @Sendable (Int) async throws -> String
    var clock: any Clock<Duration>
  }

  struct FactFailed: Error {}

  final class ScreenA: ArborealModel {
    enum Action: Sendable, Equatable {
      case decrementTapped
      case incrementTapped
      case dismissTapped
      case factTapped
      case factResponse(String?)
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var count: Int
    @Tracked private(set) var fact: String?
    @Tracked private(set) var isLoading = false

    init(count: Int = 0) { self.count = count }

    func update(action: Action, environment: Services) -> Fx<Action> {
      switch action {
      case .decrementTapped:
        count -= 1
        return .none
      case .incrementTapped:
        count += 1
        return .none
      case .dismissTapped:
        return .dismiss
      case .factTapped:
        isLoading = true
        let count = count
        return Fx {
          .factResponse(try await environment.fact(count))
        } catch: { _ in
          .factResponse(nil)
        }
      case .factResponse(let fact):
        isLoading = false
        self.fact = fact
        return .none
      }
    }
  }

  /// Knows no other screen: the root hears its buttons and pushes.
  final class ScreenB: ArborealModel {
    enum Action: Sendable, Equatable {
      case screenATapped
      case screenBTapped
      case screenCTapped
    }

    let registrar = TrackingRegistrar()

    func update(action: Action, environment: Services) -> Fx<Action> { .none }
  }

  final class ScreenC: ArborealModel {
    enum Action: Sendable, Equatable {
      case startTapped
      case stopTapped
      case timerTicked
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var count: Int
    @Tracked private(set) var isTimerRunning = false

    init(count: Int = 0) { self.count = count }

    func update(action: Action, environment: Services) -> Fx<Action> {
      switch action {
      case .startTapped:
        isTimerRunning = true
        return .run { send in
          while true {
            do { try await environment.clock.sleep(for: .seconds(1)) } catch { return }
            await send(.timerTicked)
          }
        }
        .cancellable(id: "timer")
      case .stopTapped:
        isTimerRunning = false
        return .cancel(id: "timer")
      case .timerTicked:
        count += 1
        return .none
      }
    }
  }

  final class Root: ArborealModel {
    enum Path: ModelCases {
      case screenA(ScreenA)
      case screenB(ScreenB)
      case screenC(ScreenC)

      enum Action: Sendable, Equatable {
        case screenA(ScreenA.Action)
        case screenB(ScreenB.Action)
        case screenC(ScreenC.Action)
      }

      typealias Environment = Services

      var child: CaseChild<Path> {
        switch self {
        case .screenA(let screen): .model(screen, action: Action.screenA)
        case .screenB(let screen): .model(screen, action: Action.screenB)
        case .screenC(let screen): .model(screen, action: Action.screenC)
        }
      }

      static func child(of action: Action) -> CaseAction<Path> {
        switch action {
        case .screenA(let action): .model(action, in: Path.screenA)
        case .screenB(let action): .model(action, in: Path.screenB)
        case .screenC(let action): .model(action, in: Path.screenC)
        }
      }
    }

    enum Action: Sendable, Equatable {
      case goBackToScreen(StackElementID)
      case goToABCTapped
      case path(StackAction<Path.Action>)
      case popToRoot
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var path = ModelStack<Path>()

    static let path = ChildRoute.stack(\Root.path, tag: Action.path)
    static let routes: [ChildRoute<Root>] = [path]

    func update(action: Action, environment: Services) -> Fx<Action> {
      switch action {
      case .goBackToScreen(let id):
        path.pop(to: id)
        return .none
      case .goToABCTapped:
        path.push(.screenA(ScreenA()))
        path.push(.screenB(ScreenB()))
        path.push(.screenC(ScreenC()))
        return .none
      case .path(let action):
        let fx = forward(action, to: Self.path, environment: environment)
        guard !fx.isDropped, case .element(_, .screenB(let tapped)) = action else { return fx }
        switch tapped {
        case .screenATapped: path.push(.screenA(ScreenA()))
        case .screenBTapped: path.push(.screenB(ScreenB()))
        case .screenCTapped: path.push(.screenC(ScreenC()))
        }
        return fx
      case .popToRoot:
        path.removeAll()
        return .none
      }
    }
  }
}

@Suite actor PortedNavigationStackTests {
  typealias Root = PortedNavigation.Root
  typealias Path = Root.Path

  private func makeStore(
    clock: TestClock = TestClock(),
    fact: @escaping @Sendable (Int) async throws -> String = { "\($0) is a good number." }
  ) -> TestStore<Root> {
    TestStore(state: Root(), environment: .init(fact: fact, clock: clock))
  }

  /// Pushes A → B → C, each new screen checked whole (the test store asks it of new models).
  private func goToABC(_ store: TestStore<Root>) async {
    await store.send(.goToABCTapped) {
      #expect($0.path.count == 3)
      #expect(
        stateDifferences($0.path[id: 0, case: Path.screenA], PortedNavigation.ScreenA()) == [])
      #expect($0.path[id: 1, case: Path.screenB] != nil)
      #expect(
        stateDifferences($0.path[id: 2, case: Path.screenC], PortedNavigation.ScreenC()) == [])
    }
  }

  @Test func goingToABCPushesThreeScreensAndGoingBackPopsAboveOne() async {
    let store = makeStore()
    await goToABC(store)
    await store.send(.goBackToScreen(0)) { #expect($0.path.elementIDs == [0]) }
    await store.send(.popToRoot) { #expect($0.path.isEmpty) }
    await store.finish()
  }

  @Test func screenBAsksTheRootToPushWithoutKnowingTheScreens() async {
    let store = makeStore()
    await goToABC(store)
    await store.send(.path(.element(id: 1, action: .screenB(.screenCTapped)))) {
      #expect($0.path.count == 4)
      #expect(
        stateDifferences($0.path[id: 3, case: Path.screenC], PortedNavigation.ScreenC()) == [])
    }
    await store.send(.path(.element(id: 1, action: .screenB(.screenATapped)))) {
      #expect($0.path.count == 5)
      #expect(
        stateDifferences($0.path[id: 4, case: Path.screenA], PortedNavigation.ScreenA()) == [])
    }
    // A tap from a screen that was popped is dropped, and the root pushes nothing; the test
    // store fails on the drop, as on every action for a child that is not there.
    await store.send(.goBackToScreen(0)) { #expect($0.path.elementIDs == [0]) }
    await withKnownIssue {
      _ = self  // on the suite's actor, where the test store lives
      await store.send(.path(.element(id: 1, action: .screenB(.screenBTapped))))
    } matching: {
      $0.description.contains("dropped screenBTapped sent to Root.path[id: 1]")
    }
    await store.finish()
  }

  @Test func screenACountsFetchesAFactAndDismissesItself() async {
    let store = makeStore()
    await goToABC(store)
    let screenA: (Root) -> PortedNavigation.ScreenA? = { $0.path[id: 0, case: Path.screenA] }
    await store.send(.path(.element(id: 0, action: .screenA(.incrementTapped)))) {
      #expect(screenA($0)?.count == 1)
    }
    await store.send(.path(.element(id: 0, action: .screenA(.factTapped)))) {
      #expect(screenA($0)?.isLoading == true)
    }
    await store.receive(
      .path(.element(id: 0, action: .screenA(.factResponse("1 is a good number."))))
    ) {
      #expect(screenA($0)?.isLoading == false)
      #expect(screenA($0)?.fact == "1 is a good number.")
    }
    // Dismissing screen A pops it and everything above it.
    await store.send(.path(.element(id: 0, action: .screenA(.dismissTapped))))
    await store.receive(.path(.popFrom(id: 0))) { #expect($0.path.isEmpty) }
    await store.finish()
  }

  @Test func aFailedFactClearsTheLoading() async {
    let store = makeStore(fact: { _ in throw PortedNavigation.FactFailed() })
    await goToABC(store)
    await store.send(.path(.element(id: 0, action: .screenA(.factTapped)))) {
      #expect($0.path[id: 0, case: Path.screenA]?.isLoading == true)
    }
    await store.receive(.path(.element(id: 0, action: .screenA(.factResponse(nil))))) {
      #expect($0.path[id: 0, case: Path.screenA]?.isLoading == false)
    }
    await store.finish()
  }

  @Test func screenCsTimerEndsWhenItIsPopped() async {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    await goToABC(store)
    let screenC: (Root) -> PortedNavigation.ScreenC? = { $0.path[id: 2, case: Path.screenC] }
    await store.send(.path(.element(id: 2, action: .screenC(.startTapped)))) {
      #expect(screenC($0)?.isTimerRunning == true)
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: 2, action: .screenC(.timerTicked)))) {
      #expect(screenC($0)?.count == 1)
    }
    // Popping screen C ends its timer: nothing is left running, and a later tick never comes.
    await store.send(.goBackToScreen(1)) { #expect($0.path.count == 2) }
    await clock.advance(by: .seconds(5))
    await store.finish()
  }
}
