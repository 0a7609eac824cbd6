import ArborealTestSupport
import Testing

@testable import Arboreal

/// A child that counts taps and can start work that runs until it is cancelled.
private final class Ticker: ArborealModel, Identifiable {
  enum Action: Sendable, Equatable {
    case tapped
    case start
  }

  let registrar = TrackingRegistrar()
  let id: Int
  @Tracked private(set) var taps = 0

  init(id: Int = 0) {
    self.id = id
  }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .tapped:
      taps += 1
      return .none
    case .start:
      return .run { _ in try? await Task.sleep(for: .seconds(86_400)) }
    }
  }
}

/// What a board can present or push: a ticker, or a question.
private enum Place: ModelCases {
  case ticker(Ticker)
  case question(AlertState<Bool>)

  enum Action: Sendable, Equatable {
    case ticker(Ticker.Action)
    case question(Bool)
  }

  typealias Environment = Void

  var child: CaseChild<Place> {
    switch self {
    case .ticker(let value): .model(value, action: Action.ticker)
    case .question(let value): .alert(value, action: Action.question)
    }
  }

  static func child(of action: Action) -> CaseAction<Place> {
    switch action {
    case .ticker(let action): .model(action, in: Place.ticker)
    case .question(let action): .alert(action, in: Place.question)
    }
  }
}

/// A parent that holds tickers in every way a route can name, each route declared once and
/// used by `forward`, by view stores and by cancellations.
private final class Switchboard: ArborealModel {
  enum Action: Sendable, Equatable {
    case counter(Ticker.Action)
    case detail(Ticker.Action)
    case sheet(PresentationAction<Ticker.Action>)
    case row(id: Int, Ticker.Action)
    case path(StackAction<Ticker.Action>)
    case destination(PresentationAction<Place.Action>)
    case screens(StackAction<Place.Action>)
    case fill
    case stop(Stop)
  }

  /// Which child's work to cancel.
  enum Stop: Sendable, Equatable {
    case counter, detail, sheet, row(Int), path(StackElementID), destination
    case screen(StackElementID)
  }

  static let counter = ChildRoute.child(\Switchboard.counter, tag: Action.counter)
  static let detail = ChildRoute.child(\Switchboard.detail, tag: Action.detail)
  static let sheet = ChildRoute.child(\Switchboard.sheet, tag: Action.sheet)
  static let rows = ChildRoute.children(\Switchboard.rows, tag: Action.row)
  static let path = ChildRoute.stack(\Switchboard.path, tag: Action.path)
  static let destination = ChildRoute.destination(\Switchboard.destination, tag: Action.destination)
  static let screens = ChildRoute.stack(\Switchboard.screens, tag: Action.screens)
  static let routes: [ChildRoute<Switchboard>] = [
    counter, detail, sheet, rows, path, destination, screens,
  ]

  let registrar = TrackingRegistrar()
  @Tracked private(set) var counter = Ticker(id: 0)
  @Tracked private(set) var detail: Ticker?
  @Tracked private(set) var sheet: Ticker?
  @Tracked private(set) var rows: [Ticker] = []
  @Tracked private(set) var path = ModelStack<Ticker>()
  @Tracked private(set) var destination: Place?
  @Tracked private(set) var screens = ModelStack<Place>()

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .counter(let action): return forward(action, to: Self.counter, environment: ())
    case .detail(let action): return forward(action, to: Self.detail, environment: ())
    case .sheet(let action): return forward(action, to: Self.sheet, environment: ())
    case .row(let id, let action): return forward(action, to: Self.rows, id: id, environment: ())
    case .path(let action): return forward(action, to: Self.path, environment: ())
    case .destination(let action): return forward(action, to: Self.destination, environment: ())
    case .screens(let action): return forward(action, to: Self.screens, environment: ())
    case .fill:
      detail = Ticker(id: 1)
      sheet = Ticker(id: 2)
      rows = [Ticker(id: 3), Ticker(id: 4)]
      path.push(Ticker(id: 5))
      destination = .ticker(Ticker(id: 6))
      screens.push(.ticker(Ticker(id: 7)))
      screens.push(
        .question(AlertState(title: "Sure?", buttons: [AlertButton("Yes", action: true)])))
      return .none
    case .stop(let stop):
      return cancellation(of: stop)
    }
  }

  private func cancellation(of stop: Stop) -> Fx<Action> {
    switch stop {
    case .counter: cancel(Self.counter)
    case .detail: cancel(Self.detail)
    case .sheet: cancel(Self.sheet)
    case .row(let id): cancel(Self.rows, id: id)
    case .path(let id): cancel(Self.path, id: id)
    case .destination: cancel(Self.destination[case: Place.ticker])
    case .screen(let id): cancel(Self.screens[case: Place.ticker], id: id)
    }
  }
}

/// A child with work of its own that starts when it enters the state.
private final class Listener: SubscribingModel {
  let registrar = TrackingRegistrar()
  func update(action: Void, environment: Void) -> Fx<Void> { .none }
  func subscriptions(environment: Void) -> [Subscription<Void>] {
    [Subscription(id: "forever", .run { _ in try? await Task.sleep(for: .seconds(86_400)) })]
  }
}

/// A parent of one listener, reached through its route `route`; the three below differ
/// only in how they declare it.
private protocol ListenerHost: ArborealModel
where Action == ListenerHostAction, Environment == Void {
  static var route: ModelRoute<Self, Listener, Void, PresentationAction<Void>> { get }
  var listener: Listener? { get set }
}

private enum ListenerHostAction: Sendable {
  case listener(PresentationAction<Void>)
  case show
}

extension ListenerHost {
  func update(action: ListenerHostAction, environment: Void) -> Fx<ListenerHostAction> {
    switch action {
    case .listener(let action): return forward(action, to: Self.route, environment: ())
    case .show:
      listener = Listener()
      return .none
    }
  }
}

/// Forwards through a route it does not list in `routes`.
private final class Forgetful: ListenerHost {
  static let route = ChildRoute.child(\Forgetful.listener, tag: ListenerHostAction.listener)
  let registrar = TrackingRegistrar()
  @Tracked var listener: Listener?
}

/// Forgets its route too; shown only through a view store.
private final class Overlooked: ListenerHost {
  static let route = ChildRoute.child(\Overlooked.listener, tag: ListenerHostAction.listener)
  let registrar = TrackingRegistrar()
  @Tracked var listener: Listener?
}

/// Lists its route.
private final class Mindful: ListenerHost {
  static let route = ChildRoute.child(\Mindful.listener, tag: ListenerHostAction.listener)
  static let routes: [ChildRoute<Mindful>] = [route]
  let registrar = TrackingRegistrar()
  @Tracked var listener: Listener?
}

/// Makes its route afresh at each use (a computed `static var`): listed all the same.
private final class Recomputing: ListenerHost {
  static var route: ModelRoute<Recomputing, Listener, Void, PresentationAction<Void>> {
    ChildRoute.child(\Recomputing.listener, tag: ListenerHostAction.listener)
  }
  static var routes: [ChildRoute<Recomputing>] { [route] }
  let registrar = TrackingRegistrar()
  @Tracked var listener: Listener?
}

/// Counts the reads of its elements: what shows that making a view store per row reads each
/// row once, not once per row per row.
private final class ReadCount {
  var value = 0
}

/// Rows that count the reads of their elements.
private struct CountedRows: RandomAccessCollection {
  let rows: [Ticker]
  let reads: ReadCount

  var startIndex: Int { rows.startIndex }
  var endIndex: Int { rows.endIndex }

  subscript(position: Int) -> Ticker {
    reads.value += 1
    return rows[position]
  }
}

/// A parent of many rows, reached through a route.
private final class Wide: ArborealModel {
  enum Action: Sendable, Equatable {
    case row(id: Int, Ticker.Action)
  }

  static let rows = ChildRoute.children(\Wide.rows, tag: Action.row)

  let registrar = TrackingRegistrar()
  @Tracked private(set) var rows: CountedRows

  init(count: Int, reads: ReadCount) {
    rows = CountedRows(rows: (0..<count).map { Ticker(id: $0) }, reads: reads)
  }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .row(let id, let action): forward(action, to: Self.rows, id: id, environment: ())
    }
  }
}

/// A route declared once is what `forward`, view stores and cancellations take, for every way
/// a parent holds children.
@Suite actor ModelRouteTests {
  @Test func eachKindOfRouteForwardsItsActions() throws {
    let store = Store(state: Switchboard(), environment: ())
    store.send(.fill)
    store.send(.counter(.tapped))
    store.send(.detail(.tapped))
    store.send(.sheet(.presented(.tapped)))
    store.send(.row(id: 4, .tapped))
    let pushed = try #require(store.state.path.elementIDs.first)
    store.send(.path(.element(id: pushed, action: .tapped)))
    store.send(.destination(.presented(.ticker(.tapped))))
    let screen = try #require(store.state.screens.elementIDs.first)
    store.send(.screens(.element(id: screen, action: .ticker(.tapped))))

    let board = store.state
    #expect(board.counter.taps == 1)
    #expect(board.detail?.taps == 1)
    #expect(board.sheet?.taps == 1)
    #expect(board.rows.map(\.taps) == [0, 1])
    #expect(board.path[id: pushed]?.taps == 1)
    #expect(board.destination?[case: Place.ticker]?.taps == 1)
    #expect(board.screens[id: screen, case: Place.ticker]?.taps == 1)
  }

  @Test func routesDismissPopAndCloseAlertsAsTheirKindsDo() throws {
    let store = Store(state: Switchboard(), environment: ())
    store.send(.fill)
    store.send(.sheet(.dismiss))
    #expect(store.state.sheet == nil)
    store.send(.destination(.dismiss))
    #expect(store.state.destination == nil)
    let pushed = try #require(store.state.path.elementIDs.first)
    store.send(.path(.popFrom(id: pushed)))
    #expect(store.state.path.isEmpty)
    let question = try #require(store.state.screens.elementIDs.last)
    store.send(.screens(.element(id: question, action: .question(true))))
    #expect(store.state.screens.count == 1)  // the alert's button closed its screen
  }

  @Test func viewStoresScopedByRouteSendThroughTheParent() throws {
    let store = Store(state: Switchboard(), environment: ())
    #expect(store.viewStore(Switchboard.detail) == nil)
    #expect(store.viewStore(Switchboard.sheet) == nil)
    #expect(store.viewStore(Switchboard.rows, id: 3) == nil)
    #expect(store.viewStores(Switchboard.rows).isEmpty)
    #expect(store.viewStore(Switchboard.destination[case: Place.ticker]) == nil)
    store.send(.fill)

    store.viewStore(Switchboard.counter).send(.tapped)
    try #require(store.viewStore(Switchboard.detail)).send(.tapped)
    try #require(store.viewStore(Switchboard.sheet)).send(.tapped)
    try #require(store.viewStore(Switchboard.rows, id: 3)).send(.tapped)
    #expect(store.viewStores(Switchboard.rows).map(\.state.id) == [3, 4])
    let pushed = try #require(store.state.path.elementIDs.first)
    try #require(store.viewStore(Switchboard.path, id: pushed)).send(.tapped)
    #expect(store.viewStores(Switchboard.path).count == 1)
    try #require(store.viewStore(Switchboard.destination[case: Place.ticker])).send(.tapped)
    let screen = try #require(store.state.screens.elementIDs.first)
    try #require(store.viewStore(Switchboard.screens[case: Place.ticker], id: screen)).send(.tapped)
    let question = try #require(store.state.screens.elementIDs.last)
    #expect(store.viewStore(Switchboard.screens[case: Place.ticker], id: question) == nil)

    let board = store.state
    #expect(board.counter.taps == 1)
    #expect(board.detail?.taps == 1)
    #expect(board.sheet?.taps == 1)
    #expect(board.rows.map(\.taps) == [1, 0])
    #expect(board.path[id: pushed]?.taps == 1)
    #expect(board.destination?[case: Place.ticker]?.taps == 1)
    #expect(board.screens[id: screen, case: Place.ticker]?.taps == 1)
  }

  @Test(arguments: [1, 1_000])
  func viewStoresForEveryRowReadEachRowOnce(count: Int) throws {
    let reads = ReadCount()
    let store = Store(state: Wide(count: count, reads: reads), environment: ())
    reads.value = 0
    let rows = store.viewStores(Wide.rows)
    #expect(rows.count == count)
    #expect(reads.value <= 2 * count)  // a search per row would read about count² / 2
    let last = try #require(rows.last)
    last.send(.tapped)
    #expect(store.state.rows.rows[count - 1].taps == 1)
    #expect(last.state.taps == 1)
  }

  @Test func cancellingByRouteEndsThatChildsWorkAndNoOther() throws {
    let store = Store(state: Switchboard(), environment: ())
    store.send(.fill)
    let pushed = try #require(store.state.path.elementIDs.first)
    let screen = try #require(store.state.screens.elementIDs.first)
    store.send(.counter(.start))
    store.send(.detail(.start))
    store.send(.sheet(.presented(.start)))
    store.send(.row(id: 3, .start))
    store.send(.row(id: 4, .start))
    store.send(.path(.element(id: pushed, action: .start)))
    store.send(.destination(.presented(.ticker(.start))))
    store.send(.screens(.element(id: screen, action: .ticker(.start))))
    #expect(store.runningEffectCount == 8)

    let stops: [Switchboard.Stop] = [
      .counter, .detail, .sheet, .row(4), .path(pushed), .destination, .screen(screen),
    ]
    for (index, stop) in stops.enumerated() {
      store.send(.stop(stop))
      #expect(store.runningEffectCount == 7 - index, "after stopping \(stop)")
    }
    // The row left running is the one not named.
    store.send(.stop(.row(3)))
    #expect(store.runningEffectCount == 0)
  }

  #if DEBUG
    @MainActor
    @Test func aRouteForwardedThroughButNotListedIsReportedOnce() {
      let store = Store(state: Forgetful(), environment: ())
      store.send(.show)
      // Not listed: the listener's work waits for an action.
      #expect(store.runningEffectCount == 0)
      store.send(.listener(.presented(())))
      store.send(.listener(.presented(())))
      // Read from the recent reports, not a handler: the handler is one global, which suites
      // running meanwhile replace, and this report is made once per process.
      let reports = ArborealDiagnostics.recentDroppedActions.filter {
        $0.contains("Forgetful.routes does not list")
      }
      #expect(reports.count == 1)
      #expect(reports.first?.contains("Forgetful.listener (Optional<Listener>)") == true)
    }

    @MainActor
    @Test func aViewStoreThroughARouteNotListedIsReportedToo() {
      let store = Store(state: Overlooked(), environment: ())
      store.send(.show)
      // Shown by a view store, no action sent: the listener's work waits, and the report says
      // why.
      #expect(store.viewStore(Overlooked.route) != nil)
      #expect(store.runningEffectCount == 0)
      let reports = ArborealDiagnostics.recentDroppedActions.filter {
        $0.contains("Overlooked.routes does not list")
      }
      #expect(reports.count == 1)
      #expect(reports.first?.contains("a forward or a view store goes through") == true)
    }

    @MainActor
    @Test func aListedRouteIsNotReportedAndItsChildsWorkStartsOnEntry() {
      let messages = Log<String>()
      ArborealDiagnostics.droppedActionHandler = { messages.append($0) }
      defer { ArborealDiagnostics.droppedActionHandler = nil }
      let store = Store(state: Mindful(), environment: ())
      store.send(.show)
      #expect(store.runningEffectCount == 1)
      store.send(.listener(.presented(())))
      #expect(!messages.all.contains { $0.contains("Mindful.routes does not list") })
    }

    @MainActor
    @Test func aRouteMadeAfreshAtEachUseIsFoundInTheListAllTheSame() {
      let messages = Log<String>()
      ArborealDiagnostics.droppedActionHandler = { messages.append($0) }
      defer { ArborealDiagnostics.droppedActionHandler = nil }
      let store = Store(state: Recomputing(), environment: ())
      store.send(.show)
      #expect(store.runningEffectCount == 1)
      store.send(.listener(.presented(())))
      #expect(!messages.all.contains { $0.contains("Recomputing.routes does not list") })
    }
  #endif
}
