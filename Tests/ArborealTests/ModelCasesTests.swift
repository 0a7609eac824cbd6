import ArborealTestSupport
import Testing

@testable import Arboreal

/// An enumeration of destinations (a child, an alert, a dialog) and a stack of several kinds
/// of screen, each route declared once (`static let destination`, `static let path`) and used
/// by `forward` and the view stores, with the cases' routes declared once in `cases`: TCA's
/// tree-based and stack-based navigation case studies' shapes.
@Suite actor ModelCasesTests {
  /// A screen with a counter; its own effects wait on a gate.
  final class Counter: ArborealModel {
    enum Action: Sendable, Equatable {
      case increment
      case close
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var count = 0

    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .increment:
        count += 1
        return .none
      case .close:
        return .dismiss
      }
    }
  }

  /// The tree-based case study's root: one optional destination of three kinds.
  final class Root: ArborealModel {
    enum Destination: ModelCases {
      case job(Job)
      case counter(Counter)
      case alert(AlertState<AlertAction>)
      case dialog(AlertState<AlertAction>)

      enum Action: Sendable, Equatable {
        case job(Job.Action)
        case counter(Counter.Action)
        case alert(AlertAction)
        case dialog(AlertAction)
      }

      enum AlertAction: Sendable, Equatable {
        case reset
      }

      var child: CaseChild<Destination> {
        switch self {
        case .job(let value): .model(value, action: Action.job, environment: { $0 })
        case .counter(let value): .model(value, action: Action.counter, environment: { _ in })
        case .alert(let value): .alert(value, action: Action.alert)
        case .dialog(let value): .alert(value, action: Action.dialog)
        }
      }

      static func child(of action: Action) -> CaseAction<Destination> {
        switch action {
        case .job(let action): .model(action, in: Destination.job)
        case .counter(let action): .model(action, in: Destination.counter)
        case .alert(let action): .alert(action, in: Destination.alert)
        case .dialog(let action): .alert(action, in: Destination.dialog)
        }
      }

      typealias Environment = Jobs
    }

    enum Action: Sendable, Equatable {
      case showJob(Int)
      case showCounter
      case showAlert
      case showDialog
      case destination(PresentationAction<Destination.Action>)
    }

    static let destination = ChildRoute.destination(\Root.destination, tag: Action.destination)
    static let routes: [ChildRoute<Root>] = [destination]

    let registrar = TrackingRegistrar()
    @Tracked var destination: Destination?
    @Tracked private(set) var resets = 0

    func update(action: Action, environment: Jobs) -> Fx<Action> {
      switch action {
      case .showJob(let id):
        destination = .job(Job(id: id))
      case .showCounter:
        destination = .counter(Counter())
      case .showAlert:
        destination = .alert(
          AlertState(
            title: "Reset?",
            buttons: [AlertButton("Reset", action: .reset), AlertButton("Cancel", role: .cancel)]))
      case .showDialog:
        destination = .dialog(
          AlertState(
            title: "Reset?", buttons: [AlertButton("Reset", action: .reset)],
            style: .confirmationDialog))
      case .destination(let action):
        let fx = forward(action, to: Self.destination, environment: environment)
        switch action {
        case .presented(.alert(.reset)), .presented(.dialog(.reset)):
          resets += 1
        default:
          break
        }
        return fx
      }
      return .none
    }
  }

  /// A store in the caller's isolation (an actor-isolated test's, or a main-actor one's).
  private func makeRoot(
    isolation: isolated (any Actor)? = #isolation
  ) -> (Store<Root>, Jobs) {
    let jobs = Jobs(ids: [1, 2])
    return (Store(state: Root(), environment: jobs), jobs)
  }

  // MARK: Tree-based

  @Test func aDestinationsChildReceivesItsActionsInOneLine() {
    let (store, _) = makeRoot()
    store.send(.showCounter)
    store.send(.destination(.presented(.counter(.increment))))
    store.send(.destination(.presented(.counter(.increment))))
    #expect(store.state.destination?[case: Root.Destination.counter]?.count == 2)
    #expect(store.state.destination?[case: Root.Destination.job] == nil)
  }

  @Test func aChildsEffectsEndWhenTheDestinationBecomesAnotherCase() async {
    let (store, _) = makeRoot()
    store.send(.showJob(1))
    store.send(.destination(.presented(.job(.start))))
    #expect(store.runningEffectCount == 1)
    store.send(.showCounter)
    #expect(store.runningEffectCount == 0)
    // A child of the same type in a new presentation is a new child: the old one's effects
    // ended, the new one's start.
    store.send(.showJob(2))
    store.send(.destination(.presented(.job(.start))))
    #expect(store.runningEffectCount == 1)
    store.send(.showJob(2))
    #expect(store.runningEffectCount == 0)
  }

  @Test func aChildThatDismissesItselfClosesTheDestination() async {
    let (store, _) = makeRoot()
    store.send(.showCounter)
    await store.send(.destination(.presented(.counter(.close)))).value
    #expect(store.state.destination == nil)
  }

  @Test func anAlertsButtonClosesItAndReachesTheParent() {
    let (store, _) = makeRoot()
    store.send(.showAlert)
    let alert = store.state.destination?[case: Root.Destination.alert]
    #expect(alert?.title == "Reset?")
    guard let alert else { return }
    store.send(
      .destination(alert.actions(for: alert.buttons[0]).map(Root.Destination.Action.alert)))
    #expect(store.state.destination == nil)
    #expect(store.state.resets == 1)
    store.send(.showAlert)
    // Cancel: a button without an action dismisses.
    store.send(
      .destination(alert.actions(for: alert.buttons[1]).map(Root.Destination.Action.alert)))
    #expect(store.state.destination == nil)
    #expect(store.state.resets == 1)
  }

  @Test func aDialogClosesLikeAnAlert() {
    let (store, _) = makeRoot()
    store.send(.showDialog)
    #expect(store.state.destination?[case: Root.Destination.dialog]?.style == .confirmationDialog)
    // Two cases hold the same type: each is told apart by its name.
    #expect(store.state.destination?[case: Root.Destination.alert] == nil)
    store.send(.destination(.presented(.dialog(.reset))))
    #expect(store.state.destination == nil)
    #expect(store.state.resets == 1)
  }

  @Test func aViewStoreOfACaseSendsThroughTheRouteDeclaredOnce() throws {
    let (store, _) = makeRoot()
    #expect(store.viewStore(Root.destination[case: Root.Destination.counter]) == nil)
    store.send(.showCounter)
    let counter = try #require(store.viewStore(Root.destination[case: Root.Destination.counter]))
    counter.send(.increment)
    #expect(counter.state.count == 1)
    #expect(store.viewStore(Root.destination[case: Root.Destination.job]) == nil)
    store.send(.showJob(1))
    #expect(!counter.isPresent)
  }

  #if DEBUG
    @MainActor
    @Test func anActionForACaseThatIsNotPresentedIsDroppedAndReported() {
      let messages = Log<String>()
      ArborealDiagnostics.droppedActionHandler = { messages.append($0) }
      defer { ArborealDiagnostics.droppedActionHandler = nil }
      let (store, _) = makeRoot()
      store.send(.showCounter)
      store.send(.destination(.presented(.job(.start))))
      #expect(store.runningEffectCount == 0)
      // Only this store's reports: the handler is global, and suites running meanwhile report
      // too (a route a parent does not list, say).
      let mine = { messages.all.filter { $0.contains("sent to Root.destination (") } }
      #expect(mine().contains { $0.contains("dropped start sent to Root.destination (Job)") })
      store.send(.destination(.presented(.alert(.reset))))
      // The counter is still presented: an alert's action closes only an alert.
      #expect(store.state.destination?[case: Root.Destination.counter] != nil)
      #expect(mine().count == 2)
    }

    /// A destination with two cases that hold the same type of model.
    enum Twins: ModelCases {
      case counter(Counter)
      case other(Counter)
      enum Action: Sendable { case counter(Counter.Action), other(Counter.Action) }
      var child: CaseChild<Twins> {
        switch self {
        case .counter(let value): .model(value, action: Action.counter)
        case .other(let value): .model(value, action: Action.other)
        }
      }

      static func child(of action: Action) -> CaseAction<Twins> {
        switch action {
        case .counter(let action): .model(action, in: Twins.counter)
        case .other(let action): .model(action, in: Twins.other)
        }
      }
    }

    final class TwinsRoot: ArborealModel {
      enum Action: Sendable { case destination(PresentationAction<Twins.Action>) }
      let registrar = TrackingRegistrar()
      @Tracked var destination: Twins? = .other(Counter())

      static let destination = ChildRoute.destination(
        \TwinsRoot.destination, tag: Action.destination)

      func update(action: Action, environment: Void) -> Fx<Action> {
        switch action {
        case .destination(let action):
          forward(action, to: Self.destination, environment: ())
        }
      }
    }

    @MainActor
    @Test func anActionForAnotherCaseHoldingTheSameTypeIsDroppedNotDelivered() {
      let messages = Log<String>()
      ArborealDiagnostics.droppedActionHandler = { messages.append($0) }
      defer { ArborealDiagnostics.droppedActionHandler = nil }
      let store = Store(state: TwinsRoot(), environment: ())
      store.send(.destination(.presented(.counter(.increment))))
      #expect(store.state.destination?[case: Twins.other]?.count == 0)
      #expect(store.state.destination?[case: Twins.counter] == nil)
      // Only this store's reports: the handler is global.
      let mine = { messages.all.filter { $0.contains("sent to TwinsRoot.destination (") } }
      #expect(mine().contains { $0.contains("dropped increment sent to TwinsRoot.destination") })
      store.send(.destination(.presented(.other(.increment))))
      #expect(store.state.destination?[case: Twins.other]?.count == 1)
      #expect(mine().count == 1)
      #expect(
        store.viewStore(TwinsRoot.destination[case: Twins.counter]) == nil)
      let other = store.viewStore(TwinsRoot.destination[case: Twins.other])
      other?.send(.increment)
      #expect(store.state.destination?[case: Twins.other]?.count == 2)
    }
  #endif

  // MARK: Several payloads, and none

  /// Screens whose cases hold a model beside another value, or nothing.
  enum Annotated: ModelCases {
    case counter(Counter, note: String)
    case loading

    enum Action: Sendable, Equatable { case counter(Counter.Action) }

    var child: CaseChild<Annotated> {
      switch self {
      case .counter(let counter, _): .model(counter, action: Action.counter)
      case .loading: .none
      }
    }

    static func child(of action: Action) -> CaseAction<Annotated> {
      switch action {
      case .counter(let action): .model(action, in: { Annotated.counter($0, note: "") })
      }
    }
  }

  final class Annotations: ArborealModel {
    enum Action: Sendable, Equatable {
      case push
      case pushLoading
      case path(StackAction<Annotated.Action>)
    }

    static let path = ChildRoute.stack(\Annotations.path, tag: Action.path)
    static let routes: [ChildRoute<Annotations>] = [path]

    let registrar = TrackingRegistrar()
    @Tracked private(set) var path = ModelStack<Annotated>()

    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .push:
        path.push(.counter(Counter(), note: "first"))
        return .none
      case .pushLoading:
        path.push(.loading)
        return .none
      case .path(let action):
        return forward(action, to: Self.path, environment: ())
      }
    }
  }

  // On the main actor: the dropped action below is reported to the one global handler, which
  // main-actor tests set in turn.
  @MainActor
  @Test func aCaseWithSeveralPayloadsForwardsToItsModelAndACaseWithNoneIsListedAsNothing() {
    let messages = Log<String>()
    ArborealDiagnostics.droppedActionHandler = { messages.append($0) }
    defer { ArborealDiagnostics.droppedActionHandler = nil }
    let store = Store(state: Annotations(), environment: ())
    store.send(.push)
    store.send(.pushLoading)
    store.send(.path(.element(id: 0, action: .counter(.increment))))
    guard case .counter(let counter, let note) = store.state.path[0] else {
      Issue.record("the first screen is not a counter")
      return
    }
    #expect(counter.count == 1 && note == "first")
    #expect(store.children.map(\.place) == ["Annotations.path[id: 0].counter"])
    // An action for the screen that holds nothing is for no child: dropped.
    store.send(.path(.element(id: 1, action: .counter(.increment))))
    #expect(counter.count == 1)
    #if DEBUG
      let mine = messages.all.filter { $0.contains("sent to Annotations.path[id: 1]") }
      #expect(mine.count == 1 && mine[0].contains("dropped increment"))
    #endif
    store.send(.path(.popFrom(id: 0)))
    #expect(store.state.path.isEmpty && store.children.isEmpty)
  }

  // MARK: Stack-based

  /// The stack-based case study's root: a stack of two kinds of screen, no wrapper model.
  final class Navigator: ArborealModel {
    enum Path: ModelCases {
      case job(Job)
      case counter(Counter)

      enum Action: Sendable, Equatable {
        case job(Job.Action)
        case counter(Counter.Action)
      }

      typealias Environment = Jobs

      var child: CaseChild<Path> {
        switch self {
        case .job(let value): .model(value, action: Action.job, environment: { $0 })
        case .counter(let value): .model(value, action: Action.counter, environment: { _ in })
        }
      }

      static func child(of action: Action) -> CaseAction<Path> {
        switch action {
        case .job(let action): .model(action, in: Path.job)
        case .counter(let action): .model(action, in: Path.counter)
        }
      }
    }

    enum Action: Sendable, Equatable {
      case pushJob(Int)
      case pushCounter
      case path(StackAction<Path.Action>)
    }

    static let path = ChildRoute.stack(\Navigator.path, tag: Action.path)
    static let routes: [ChildRoute<Navigator>] = [path]

    let registrar = TrackingRegistrar()
    @Tracked private(set) var path = ModelStack<Path>()

    func update(action: Action, environment: Jobs) -> Fx<Action> {
      switch action {
      case .pushJob(let id):
        path.push(.job(Job(id: id)))
        return .none
      case .pushCounter:
        path.push(.counter(Counter()))
        return .none
      case .path(let action):
        return forward(action, to: Self.path, environment: environment)
      }
    }
  }

  @Test func aStackOfSeveralKindsForwardsEachScreenItsActions() throws {
    let store = Store(state: Navigator(), environment: Jobs(ids: [1]))
    store.send(.pushCounter)
    store.send(.pushJob(1))
    store.send(.path(.element(id: 0, action: .counter(.increment))))
    #expect(store.state.path[id: 0, case: Navigator.Path.counter]?.count == 1)
    #expect(store.state.path[id: 0, case: Navigator.Path.job] == nil)
    #expect(store.state.path[id: 1, case: Navigator.Path.job]?.id == 1)
    let counter = try #require(store.viewStore(Navigator.path[case: Navigator.Path.counter], id: 0))
    counter.send(.increment)
    #expect(counter.state.count == 2)
    #expect(store.viewStore(Navigator.path[case: Navigator.Path.job], id: 0) == nil)
  }

  @Test func poppingAScreenOfAnyKindEndsItsEffects() async {
    let store = Store(state: Navigator(), environment: Jobs(ids: [1, 2]))
    store.send(.pushJob(1))
    store.send(.pushCounter)
    store.send(.pushJob(2))
    store.send(.path(.element(id: 0, action: .job(.start))))
    store.send(.path(.element(id: 2, action: .job(.start))))
    #expect(store.runningEffectCount == 2)
    store.send(.path(.popFrom(id: 1)))
    #expect(store.state.path.count == 1)
    #expect(store.runningEffectCount == 1)
    // A screen that dismisses itself is popped.
    store.send(.pushCounter)
    await store.send(.path(.element(id: 3, action: .counter(.close)))).value
    #expect(store.state.path.elementIDs == [0])
  }

  @Test func aStackOfCasesComparesScreensByTheirModel() {
    let job = Job(id: 1)
    var a = ModelStack<Navigator.Path>()
    a.push(.job(job))
    var b = ModelStack<Navigator.Path>()
    b.push(.job(job))
    #expect(a == b)
    var c = ModelStack<Navigator.Path>()
    c.push(.job(Job(id: 1)))
    #expect(a != c)
  }

  // MARK: Subscriptions from the start

  /// A screen that listens while it is shown: its subscription waits on its job's gate.
  final class Listener: SubscribingModel {
    enum Action: Sendable, Equatable { case heard }
    let registrar = TrackingRegistrar()
    let id: Int
    @Tracked private(set) var heard = 0

    init(id: Int) {
      self.id = id
    }

    func update(action: Action, environment: Jobs) -> Fx<Action> {
      heard += 1
      return .none
    }

    func subscriptions(environment: Jobs) -> [Subscription<Action>] {
      let id = self.id
      return [
        Subscription(
          id: "listen",
          Fx {
            try await environment.run(id)
            return .heard
          } catch: { _ in
            .heard
          })
      ]
    }
  }

  /// Presents a listener as a destination, or pushes one, with the subscriptions started.
  final class Host: ArborealModel {
    enum Screen: ModelCases {
      case listener(Listener)
      enum Action: Sendable, Equatable { case listener(Listener.Action) }
      typealias Environment = Jobs
      var child: CaseChild<Screen> {
        switch self {
        case .listener(let value): .model(value, action: Action.listener)
        }
      }

      static func child(of action: Action) -> CaseAction<Screen> {
        switch action {
        case .listener(let action): .model(action, in: Screen.listener)
        }
      }
    }

    enum Action: Sendable, Equatable {
      case present(Int)
      case push(Int)
      case destination(PresentationAction<Screen.Action>)
      case path(StackAction<Screen.Action>)
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var destination: Screen?
    static let destination = ChildRoute.destination(\Host.destination, tag: Action.destination)
    @Tracked private(set) var path = ModelStack<Screen>()
    static let path = ChildRoute.stack(\Host.path, tag: Action.path)

    func update(action: Action, environment: Jobs) -> Fx<Action> {
      switch action {
      case .present(let id):
        return present(.listener(Listener(id: id)), at: Self.destination, environment: environment)
      case .push(let id):
        return push(.listener(Listener(id: id)), on: Self.path, environment: environment)
      case .destination(let action):
        return forward(action, to: Self.destination, environment: environment)
      case .path(let action):
        return forward(action, to: Self.path, environment: environment)
      }
    }
  }

  @Test func aPresentedCaseSubscribesAtOnceAndStopsWhenDismissed() {
    let store = Store(state: Host(), environment: Jobs(ids: [1, 2]))
    store.send(.present(1))
    #expect(store.runningEffectCount == 1)
    store.send(.destination(.dismiss))
    #expect(store.runningEffectCount == 0)
  }

  @Test func aPushedCaseSubscribesAtOnceAndStopsWhenPopped() {
    let store = Store(state: Host(), environment: Jobs(ids: [1, 2]))
    store.send(.push(1))
    store.send(.push(2))
    #expect(store.runningEffectCount == 2)
    store.send(.path(.popFrom(id: 1)))
    #expect(store.runningEffectCount == 1)
    store.send(.path(.popFrom(id: 0)))
    #expect(store.runningEffectCount == 0)
  }

  /// Presents a listener as a plain sheet, or pushes one on a stack of listeners: `push` and
  /// `present` over routes of one model type. No `routes` listed, so only they start the
  /// subscriptions at once.
  final class PlainHost: ArborealModel {
    enum Action: Sendable, Equatable {
      case present(Int)
      case push(Int)
      case sheet(PresentationAction<Listener.Action>)
      case path(StackAction<Listener.Action>)
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var sheet: Listener?
    @Tracked private(set) var path = ModelStack<Listener>()

    static let sheet = ChildRoute.child(\PlainHost.sheet, tag: Action.sheet)
    static let path = ChildRoute.stack(\PlainHost.path, tag: Action.path)

    func update(action: Action, environment: Jobs) -> Fx<Action> {
      switch action {
      case .present(let id):
        return present(Listener(id: id), at: Self.sheet, environment: environment)
      case .push(let id):
        return push(Listener(id: id), on: Self.path, environment: environment)
      case .sheet(let action):
        return forward(action, to: Self.sheet, environment: environment)
      case .path(let action):
        return forward(action, to: Self.path, environment: environment)
      }
    }
  }

  @Test func aPresentedChildSubscribesAtOnceAndStopsWhenDismissed() {
    let store = Store(state: PlainHost(), environment: Jobs(ids: [1, 2]))
    store.send(.present(1))
    #expect(store.state.sheet?.id == 1)
    #expect(store.runningEffectCount == 1)
    store.send(.sheet(.dismiss))
    #expect(store.runningEffectCount == 0)
  }

  @Test func aPushedScreenSubscribesAtOnceAndStopsWhenPopped() {
    let store = Store(state: PlainHost(), environment: Jobs(ids: [1, 2]))
    store.send(.push(1))
    store.send(.push(2))
    #expect(store.state.path.map(\.id) == [1, 2])
    #expect(store.runningEffectCount == 2)
    store.send(.path(.popFrom(id: store.state.path.id(at: 1))))
    #expect(store.runningEffectCount == 1)
    store.send(.path(.popFrom(id: store.state.path.id(at: 0))))
    #expect(store.runningEffectCount == 0)
  }
}
