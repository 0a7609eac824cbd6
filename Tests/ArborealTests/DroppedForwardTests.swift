import Arboreal
import ArborealTestSupport
import Testing

/// `Fx.isDropped`: what every kind of `forward` returns for an action whose child is not
/// there, so that the parent tells in one line not to act on it.
@MainActor
@Suite struct DroppedForwardTests {
  final class Leaf: ArborealModel, Identifiable {
    enum Action: Sendable, Equatable { case tap }
    let registrar = TrackingRegistrar()
    let id: Int
    @Tracked private(set) var taps = 0
    init(id: Int = 0) { self.id = id }
    func update(action: Action, environment: Void) -> Fx<Action> {
      taps += 1
      return .none
    }
  }

  enum Destination: ModelCases {
    case leaf(Leaf)
    case alert(AlertState<AlertAction>)
    enum Action: Sendable, Equatable {
      case leaf(Leaf.Action)
      case alert(AlertAction)
    }
    enum AlertAction: Sendable, Equatable { case confirm }

    var child: CaseChild<Destination> {
      switch self {
      case .leaf(let leaf): .model(leaf, action: Action.leaf)
      case .alert(let alert): .alert(alert, action: Action.alert)
      }
    }

    static func child(of action: Action) -> CaseAction<Destination> {
      switch action {
      case .leaf(let action): .model(action, in: Destination.leaf)
      case .alert(let action): .alert(action, in: Destination.alert)
      }
    }
  }

  /// Holds a leaf in every kind of place, and counts the actions it acted on itself.
  final class Parent: ArborealModel {
    enum Action: Sendable, Equatable {
      case optional(Leaf.Action)
      case sheet(PresentationAction<Leaf.Action>)
      case row(id: Int, Leaf.Action)
      case path(StackAction<Leaf.Action>)
      case destination(PresentationAction<Destination.Action>)
      case alert(PresentationAction<Destination.AlertAction>)
      /// Forwards `tap` to every row, each in hand.
      case tapAllRows
      /// Pushes a screen and presents a sheet through their routes.
      case pushAndPresent
    }

    static let optional = ChildRoute.child(\Parent.optional, tag: Action.optional)
    static let sheet = ChildRoute.child(\Parent.sheet, tag: Action.sheet)
    static let rows = ChildRoute.children(\Parent.rows, tag: Action.row)
    static let path = ChildRoute.stack(\Parent.path, tag: Action.path)
    static let destination = ChildRoute.destination(\Parent.destination, tag: Action.destination)
    static let alert = ChildRoute.alert(\Parent.alert, tag: Action.alert)

    let registrar = TrackingRegistrar()
    @Tracked var optional: Leaf?
    @Tracked var sheet: Leaf?
    @Tracked var rows: [Leaf] = []
    @Tracked var path = ModelStack<Leaf>()
    @Tracked var destination: Destination?
    @Tracked var alert: AlertState<Destination.AlertAction>?
    /// The actions this parent acted on after forwarding them.
    private(set) var actedOn = 0

    func update(action: Action, environment: Void) -> Fx<Action> {
      let fx =
        switch action {
        case .optional(let action): forward(action, to: Self.optional, environment: ())
        case .sheet(let action): forward(action, to: Self.sheet, environment: ())
        case .row(let id, let action): forward(action, to: Self.rows, id: id, environment: ())
        case .path(let action): forward(action, to: Self.path, environment: ())
        case .destination(let action): forward(action, to: Self.destination, environment: ())
        case .alert(let action): forward(action, to: Self.alert, environment: ())
        case .tapAllRows:
          Fx.merge(rows.map { forward(.tap, to: Self.rows, child: $0, environment: ()) })
        case .pushAndPresent:
          Fx.merge(
            push(Leaf(), on: Self.path, environment: ()),
            present(Leaf(), at: Self.sheet, environment: ()))
        }
      // The one line: an action that reached no child is not acted on.
      guard !fx.isDropped else { return fx }
      actedOn += 1
      return fx
    }
  }

  /// The reports about this suite's `Parent` made while `body` runs (the handler is global:
  /// suites running meanwhile report too).
  private func withReports(_ body: () -> Void) -> [String] {
    let reports = Log<String>()
    ArborealDiagnostics.droppedActionHandler = { reports.append($0) }
    defer { ArborealDiagnostics.droppedActionHandler = nil }
    body()
    return reports.all.filter { $0.contains("sent to Parent.") }
  }

  @Test func anActionForAChildThatIsNotThereIsDroppedInEveryKindOfPlace() {
    let store = Store(state: Parent(), environment: ())
    let reports = withReports {
      store.send(.optional(.tap))
      store.send(.sheet(.presented(.tap)))
      store.send(.row(id: 7, .tap))
      store.send(.path(.element(id: StackElementID(rawValue: 3), action: .tap)))
      store.send(.path(.popFrom(id: StackElementID(rawValue: 3))))
      store.send(.destination(.presented(.leaf(.tap))))
      store.send(.destination(.presented(.alert(.confirm))))
      store.send(.alert(.presented(.confirm)))
    }
    #expect(store.state.actedOn == 0)
    #if DEBUG
      #expect(reports.count == 8)
      #expect(reports.last?.contains("dropped confirm sent to Parent.alert (AlertState") == true)
    #endif
  }

  @Test func anActionThatReachesItsChildIsNotDropped() {
    let parent = Parent()
    parent.optional = Leaf()
    parent.sheet = Leaf()
    parent.rows = [Leaf(id: 7)]
    let screen = parent.path.push(Leaf())
    parent.destination = .alert(AlertState(title: "Sure?"))
    parent.alert = AlertState(title: "Really?")
    let store = Store(state: parent, environment: ())
    let reports = withReports {
      store.send(.optional(.tap))
      store.send(.sheet(.presented(.tap)))
      store.send(.row(id: 7, .tap))
      store.send(.path(.element(id: screen, action: .tap)))
      store.send(.destination(.presented(.alert(.confirm))))
      store.send(.alert(.presented(.confirm)))
      store.send(.path(.popFrom(id: screen)))
      // Dismissing twice writes nothing, and is no dropped action.
      store.send(.sheet(.dismiss))
      store.send(.sheet(.dismiss))
      store.send(.alert(.dismiss))
    }
    #expect(store.state.actedOn == 10)
    #expect(reports.isEmpty)
    #expect(store.state.destination == nil && store.state.path.isEmpty)
    // Any button closes the alert.
    #expect(store.state.alert == nil)
  }

  @Test func aMergeOrNoneIsNeverDropped() {
    #expect(!Fx<Int>.none.isDropped)
    #expect(!Fx<Int>.merge(.none, .send(1)).isDropped)
  }
}

/// The same forwards in a store on an actor of the test's own, in a nonisolated test and in a
/// detached task's store, at 1 and 1,000 children: every action that reaches its child is
/// acted on. Only actions that reach a child are sent here: a dropped one is reported to the
/// one global diagnostics handler, which the main-actor suites above set and count, so the
/// dropped side is checked there (`isDropped` is decided inside `forward`, the same in every
/// isolation).
@Suite actor DroppedForwardIsolationTests {
  typealias Parent = DroppedForwardTests.Parent
  typealias Leaf = DroppedForwardTests.Leaf

  /// Sends one action to each of `count` rows and screens and to a presented case; returns
  /// how many the parent acted on.
  nonisolated static func run(count: Int) -> Int {
    let parent = Parent()
    parent.rows = (0..<count).map { Leaf(id: $0) }
    let screens = (0..<count).map { _ in parent.path.push(Leaf()) }
    parent.destination = .leaf(Leaf())
    parent.alert = AlertState(title: "Sure?")
    let store = Store(state: parent, environment: ())
    for id in 0..<count { store.send(.row(id: id, .tap)) }
    for screen in screens { store.send(.path(.element(id: screen, action: .tap))) }
    store.send(.destination(.presented(.leaf(.tap))))
    store.send(.alert(.presented(.confirm)))
    #expect(store.state.alert == nil)
    #expect(store.state.rows.allSatisfy { $0.taps == 1 })
    #expect(store.state.path.allSatisfy { $0.taps == 1 })
    return store.state.actedOn
  }

  @Test(arguments: [1, 1_000])
  func onThisActor(count: Int) {
    // A store made here lives on this actor.
    let parent = Parent()
    parent.rows = (0..<count).map { Leaf(id: $0) }
    parent.destination = .leaf(Leaf())
    let store = Store(state: parent, environment: ())
    for id in 0..<count { store.send(.row(id: id, .tap)) }
    store.send(.destination(.presented(.leaf(.tap))))
    #expect(store.state.actedOn == count + 1)
  }

  @Test(arguments: [1, 1_000])
  nonisolated func nonisolated(count: Int) {
    #expect(Self.run(count: count) == 2 * count + 2)
  }

  @Test func inADetachedTask() async {
    let acted = await Task.detached { Self.run(count: 1_000) }.value
    #expect(acted == 2_002)
  }

  /// Forwards to each of `count` rows in hand (linear: by identifier it would be quadratic,
  /// 5·10¹¹ comparisons at 1,000,000), then pushes and presents through routes; whether every
  /// row was tapped once and the screen and sheet arrived.
  nonisolated static func runInHand(count: Int) -> Bool {
    let parent = Parent()
    parent.rows = (0..<count).map { Leaf(id: $0) }
    let store = Store(state: parent, environment: ())
    store.send(.tapAllRows)
    store.send(.pushAndPresent)
    return store.state.rows.allSatisfy { $0.taps == 1 } && store.state.path.count == 1
      && store.state.sheet != nil
  }

  @Test(arguments: [1, 100_000])
  func inHandOnThisActor(count: Int) {
    let parent = Parent()
    parent.rows = (0..<count).map { Leaf(id: $0) }
    let store = Store(state: parent, environment: ())
    store.send(.tapAllRows)
    store.send(.pushAndPresent)
    #expect(store.state.rows.allSatisfy { $0.taps == 1 })
    #expect(store.state.path.count == 1 && store.state.sheet != nil)
  }

  @Test(arguments: [1, 1_000_000])
  nonisolated func inHandNonisolated(count: Int) {
    #expect(Self.runInHand(count: count))
  }

  @Test func inHandInADetachedTask() async {
    #expect(await Task.detached { Self.runInHand(count: 100_000) }.value)
  }
}
