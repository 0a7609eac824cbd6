import Arboreal
import ArborealTesting
import Testing

/// Children that come and go, through the test store: a stack of timer screens, a presented
/// editor, dismissal from the child, and the subscriptions of nested children.
enum ComeAndGo {
  // article begins: timer
  /// A screen with a timer that runs while `isRunning`, and that can ask to be dismissed.
  final class Timer: SubscribingModel {
    enum Action: Sendable, Equatable {
      case start
      case stop
      case tick
      case close
    }

    struct Environment: Sendable {
      var clock: any Clock<Duration>
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var isRunning: Bool
    @Tracked private(set) var ticks = 0

    init(isRunning: Bool = false) {
      self.isRunning = isRunning
    }

    func update(action: Action, environment: Environment) -> Fx<Action> {
      switch action {
      case .start:
        isRunning = true
      case .stop:
        isRunning = false
      case .tick:
        ticks += 1
      case .close:
        return .dismiss
      }
      return .none
    }

    func subscriptions(environment: Environment) -> [Subscription<Action>] {
      isRunning ? [.every(.seconds(1), clock: environment.clock, id: "tick") { .tick }] : []
    }
  }
  // article ends: timer

  // article begins: stack
  /// A parent with a stack of timers and a presented timer; it lists no subscription, only
  /// where its children are.
  final class Root: ArborealModel {
    enum Action: Sendable, Equatable {
      case path(StackAction<Timer.Action>)
      case sheet(PresentationAction<Timer.Action>)
      case push
      case present
      case pushRunning
      case presentRunning
    }

    // Each route declared once; listed, the store follows them: a timer's work starts when it
    // is pushed or presented, by any write, and ends when it leaves.
    static let path = ChildRoute.stack(\Root.path, tag: Action.path)
    static let sheet = ChildRoute.child(\Root.sheet, tag: Action.sheet)
    static let routes: [ChildRoute<Root>] = [path, sheet]

    let registrar = TrackingRegistrar()
    @Tracked private(set) var path = ModelStack<Timer>()
    @Tracked private(set) var sheet: Timer?

    func update(action: Action, environment: Timer.Environment) -> Fx<Action> {
      switch action {
      case .path(let action):
        return forward(action, to: Self.path, environment: environment)
      case .sheet(let action):
        return forward(action, to: Self.sheet, environment: environment)
      case .push:
        path.push(Timer())
      case .present:
        sheet = Timer()
      case .pushRunning:
        path.push(Timer(isRunning: true))  // ticks from the start, with no action sent to it
      case .presentRunning:
        sheet = Timer(isRunning: true)
      }
      return .none
    }
  }
  // article ends: stack
}

@MainActor @Suite struct ChildrenComeAndGoTests {
  typealias Root = ComeAndGo.Root
  typealias Timer = ComeAndGo.Timer
  let first = StackElementID(rawValue: 0)

  // article begins: stack-test
  @Test func aPushedScreensTimerTicksUntilItIsPopped() async {
    let clock = TestClock()
    let store = TestStore(state: Root(), environment: .init(clock: clock))
    await store.send(.push) { #expect(stateDifferences($0.path[id: first], Timer()) == []) }
    await store.send(.path(.element(id: first, action: .start))) {
      #expect($0.path[id: first]?.isRunning == true)
    }
    await clock.advance(by: .seconds(2))
    await store.receive(.path(.element(id: first, action: .tick))) {
      #expect($0.path[id: first]?.ticks == 1)
    }
    await store.receive(.path(.element(id: first, action: .tick))) {
      #expect($0.path[id: first]?.ticks == 2)
    }
    await store.send(.path(.popFrom(id: first))) { #expect($0.path.isEmpty) }
    // Popped: its timer ended within the action, so no tick arrives (one would fail the
    // exhaustive test) and no effect is left for `finish` to wait for.
    await clock.advance(by: .seconds(5))
    await store.finish()
  }
  // article ends: stack-test

  @Test func aScreenPushedRunningTicksWithoutAnActionAndStopsWhenPopped() async {
    let clock = TestClock()
    let store = TestStore(state: Root(), environment: .init(clock: clock))
    await store.send(.pushRunning) {
      #expect(stateDifferences($0.path[id: first], Timer(isRunning: true)) == [])
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.path(.element(id: first, action: .tick))) {
      #expect($0.path[id: first]?.ticks == 1)
    }
    await store.send(.path(.popFrom(id: first))) { #expect($0.path.isEmpty) }
    await clock.advance(by: .seconds(3))
    await store.finish()
  }

  @Test func aChildPresentedRunningTicksWithoutAnActionAndStopsWhenDismissed() async {
    let clock = TestClock()
    let store = TestStore(state: Root(), environment: .init(clock: clock))
    await store.send(.presentRunning) {
      #expect(stateDifferences($0.sheet, Timer(isRunning: true)) == [])
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.sheet(.presented(.tick))) { #expect($0.sheet?.ticks == 1) }
    await store.send(.sheet(.dismiss)) { #expect($0.sheet == nil) }
    await clock.advance(by: .seconds(3))
    await store.finish()
  }

  @Test func aScreenThatAsksToBeDismissedIsPopped() async {
    let clock = TestClock()
    let store = TestStore(state: Root(), environment: .init(clock: clock))
    await store.send(.push) { #expect(stateDifferences($0.path[id: first], Timer()) == []) }
    let second = StackElementID(rawValue: 1)
    await store.send(.push) { #expect(stateDifferences($0.path[id: second], Timer()) == []) }
    await store.send(.path(.element(id: second, action: .start))) {
      #expect($0.path[id: second]?.isRunning == true)
    }
    await store.send(.path(.element(id: second, action: .close)))
    await store.receive(.path(.popFrom(id: second))) {
      #expect($0.path.elementIDs == [self.first])
    }
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  @Test func aPresentedChildsTimerStopsWhenItIsDismissed() async {
    let clock = TestClock()
    let store = TestStore(state: Root(), environment: .init(clock: clock))
    // article begins: present-whole
    await store.send(.present) { #expect(stateDifferences($0.sheet, Timer()) == []) }
    await store.send(.sheet(.presented(.start))) { #expect($0.sheet?.isRunning == true) }
    // article ends: present-whole
    await clock.advance(by: .seconds(1))
    await store.receive(.sheet(.presented(.tick))) { #expect($0.sheet?.ticks == 1) }
    await store.send(.sheet(.dismiss)) { #expect($0.sheet == nil) }
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  @Test func aPresentedChildThatAsksToBeDismissedIsSetToNil() async {
    let clock = TestClock()
    let store = TestStore(state: Root(), environment: .init(clock: clock))
    await store.send(.present) { #expect(stateDifferences($0.sheet, Timer()) == []) }
    await store.send(.sheet(.presented(.start))) { #expect($0.sheet?.isRunning == true) }
    await store.send(.sheet(.presented(.close)))
    await store.receive(.sheet(.dismiss)) { #expect($0.sheet == nil) }
    await clock.advance(by: .seconds(5))
    await store.finish()
  }

  @Test func aStoppedChildsTimerStopsWhileTheChildStays() async {
    let clock = TestClock()
    let store = TestStore(state: Root(), environment: .init(clock: clock))
    await store.send(.push) { #expect(stateDifferences($0.path[id: first], Timer()) == []) }
    await store.send(.path(.element(id: first, action: .start))) {
      #expect($0.path[id: first]?.isRunning == true)
    }
    await store.send(.path(.element(id: first, action: .stop))) {
      #expect($0.path[id: first]?.isRunning == false)
    }
    await clock.advance(by: .seconds(3))
    await store.finish()
  }
}

@MainActor @Suite struct ImmediateSendTests {
  final class Child: ArborealModel {
    enum Action: Sendable, Equatable {
      case save
      case delegate(String)
    }
    let registrar = TrackingRegistrar()
    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .save: return .merge(.send(.delegate("saved")), .dismiss)
      case .delegate: return .none
      }
    }
  }

  final class Parent: ArborealModel {
    enum Action: Sendable, Equatable {
      case child(PresentationAction<Child.Action>)
      case open
    }
    let registrar = TrackingRegistrar()
    @Tracked private(set) var child: Child?
    static let child = ChildRoute.child(\Parent.child, tag: Action.child)
    @Tracked private(set) var log: [String] = []

    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .open:
        child = Child()
        return .none
      case .child(let action):
        if case .presented(.delegate(let message)) = action { log.append(message) }
        return forward(action, to: Self.child, environment: ())
      }
    }
  }

  @Test func aDelegateActionAndADismissalArriveInOrderAndAreReceived() async {
    let store = TestStore(state: Parent())
    await store.send(.open) { #expect($0.child != nil) }
    await store.send(.child(.presented(.save)))
    await store.receive(.child(.presented(.delegate("saved")))) { #expect($0.log == ["saved"]) }
    await store.receive(.child(.dismiss)) { #expect($0.child == nil) }
    await store.finish()
  }

  @Test func aPlainStoreHandlesThemBeforeSendReturns() {
    let store = Store(state: Parent(), environment: ())
    store.send(.open)
    let handle = store.send(.child(.presented(.save)))
    #expect(store.state.log == ["saved"])
    #expect(store.state.child == nil)
    #expect(handle.isFinished)
  }
}
