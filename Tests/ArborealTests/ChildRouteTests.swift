import ArborealTestSupport
import Testing

@testable import Arboreal

/// A screen that listens to its own stream of messages for as long as it is in the state.
private final class Feed: SubscribingModel, Identifiable {
  enum Action: Sendable, Equatable {
    case received(String)
  }

  /// Makes the streams subscriptions listen to, and keeps their continuations so that a test
  /// can send messages.
  final class Environment: Sendable {
    let made = Log<Int>()
    let continuations = Log<AsyncStream<Action>.Continuation>()

    func messages() -> AsyncStream<Action> {
      let (stream, continuation) = AsyncStream<Action>.makeStream()
      made.append(made.count + 1)
      continuations.append(continuation)
      return stream
    }
  }

  let registrar = TrackingRegistrar()
  let id: Int
  @Tracked private(set) var received: [String] = []

  init(id: Int = 0) {
    self.id = id
  }

  func update(action: Action, environment: Environment) -> Fx<Action> {
    switch action {
    case .received(let message):
      received.append(message)
    }
    return .none
  }

  func subscriptions(environment: Environment) -> [Subscription<Action>] {
    [Subscription(id: "messages", Self.listening(to: environment.messages()))]
  }

  /// Sends every message of `messages`, made when the store starts the subscription.
  private static func listening(to messages: AsyncStream<Action>) -> Fx<Action> {
    .run { send in
      for await message in messages { await send(message) }
    }
  }
}

/// A screen that holds a feed of its own, presented: its routes are followed in turn.
private final class Panel: ArborealModel {
  enum Action: Sendable, Equatable {
    case feed(PresentationAction<Feed.Action>)
    case showFeed(Bool)
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var feed: Feed?
  static let feed = ChildRoute.child(\Panel.feed, tag: Action.feed)

  static let routes: [ChildRoute<Panel>] = [.child(\.feed, tag: Action.feed)]

  init(feed: Feed? = nil) {
    self.feed = feed
  }

  func update(action: Action, environment: Feed.Environment) -> Fx<Action> {
    switch action {
    case .feed(let action):
      return forward(action, to: Self.feed, environment: environment)
    case .showFeed(let shown):
      feed = shown ? Feed(id: 100) : nil
      return .none
    }
  }
}

/// The destinations of a hub: a feed, or a confirmation.
private enum Destination: ModelCases {
  case feed(Feed)
  case confirm(AlertState<Bool>)

  enum Action: Sendable, Equatable {
    case feed(Feed.Action)
    case confirm(Bool)
  }

  typealias Environment = Feed.Environment

  var child: CaseChild<Destination> {
    switch self {
    case .feed(let value): .model(value, action: Action.feed)
    case .confirm(let value): .alert(value, action: Action.confirm)
    }
  }

  static func child(of action: Action) -> CaseAction<Destination> {
    switch action {
    case .feed(let action): .model(action, in: Destination.feed)
    case .confirm(let action): .alert(action, in: Destination.confirm)
    }
  }
}

/// A model that holds feeds in every way a parent can, and changes them by plain writes,
/// never by `push(_:on:)` or `present(_:at:)`.
private final class Hub: ArborealModel {
  enum Action: Sendable, Equatable {
    case sheet(PresentationAction<Feed.Action>)
    case row(id: Int, Feed.Action)
    case path(StackAction<Feed.Action>)
    case panels(StackAction<Panel.Action>)
    case destination(PresentationAction<Destination.Action>)
    case set(Edit)
  }

  /// A plain write to one of the hub's places.
  enum Edit: Sendable, Equatable {
    case sheet(Int?)
    case rows([Int])
    case push(Int)
    case pushAll([Int])
    case popLast
    case popAll
    case pushPanel(withFeed: Bool)
    case destination(Int?)
    case confirm
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var sheet: Feed?
  static let sheet = ChildRoute.child(\Hub.sheet, tag: Action.sheet)
  @Tracked private(set) var rows: [Feed] = []
  static let rows = ChildRoute.children(\Hub.rows, tag: Action.row)
  @Tracked private(set) var path = ModelStack<Feed>()
  static let path = ChildRoute.stack(\Hub.path, tag: Action.path)
  @Tracked private(set) var panels = ModelStack<Panel>()
  static let panels = ChildRoute.stack(\Hub.panels, tag: Action.panels)
  @Tracked private(set) var destination: Destination?
  static let destination = ChildRoute.destination(\Hub.destination, tag: Action.destination)

  static let routes: [ChildRoute<Hub>] = [
    .child(\.sheet, tag: Action.sheet),
    .children(\.rows, tag: Action.row),
    .stack(\.path, tag: Action.path),
    .stack(\.panels, tag: Action.panels),
    .destination(\.destination, tag: Action.destination),
  ]

  init(sheet: Feed? = nil) {
    self.sheet = sheet
  }

  func update(action: Action, environment: Feed.Environment) -> Fx<Action> {
    switch action {
    case .sheet(let action):
      return forward(action, to: Self.sheet, environment: environment)
    case .row(let id, let action):
      return forward(action, to: Self.rows, id: id, environment: environment)
    case .path(let action):
      return forward(action, to: Self.path, environment: environment)
    case .panels(let action):
      return forward(action, to: Self.panels, environment: environment)
    case .destination(let action):
      return forward(action, to: Self.destination, environment: environment)
    case .set(let edit):
      apply(edit)
      return .none
    }
  }

  private func apply(_ edit: Edit) {
    switch edit {
    case .sheet(let id): sheet = id.map { Feed(id: $0) }
    case .rows(let ids):
      // Rows kept keep their instance; new ones are made.
      rows = ids.map { id in rows.first { $0.id == id } ?? Feed(id: id) }
    case .push(let id): path.push(Feed(id: id))
    case .pushAll(let ids): for id in ids { path.push(Feed(id: id)) }
    case .popLast: _ = path.popLast()
    case .popAll: path.removeAll()
    case .pushPanel(let withFeed): panels.push(Panel(feed: withFeed ? Feed(id: 50) : nil))
    case .destination(let id): destination = id.map { .feed(Feed(id: $0)) }
    case .confirm: destination = .confirm(AlertState(title: "Sure?"))
    }
  }
}

/// A parent that forwards to a presented feed and lists no routes: only a forward links the
/// feed's work to its place.
private final class Unlisted: ArborealModel {
  enum Action: Sendable, Equatable {
    case feed(PresentationAction<Feed.Action>)
    case show, hide
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var feed: Feed?
  static let feed = ChildRoute.child(\Unlisted.feed, tag: Action.feed)

  func update(action: Action, environment: Feed.Environment) -> Fx<Action> {
    switch action {
    case .feed(let action): return forward(action, to: Self.feed, environment: environment)
    case .show: feed = Feed(id: 1)
    case .hide: feed = nil
    }
    return .none
  }
}

/// A row that neither subscribes nor declares routes.
private final class Plain: ArborealModel, Identifiable {
  let registrar = TrackingRegistrar()
  let id: Int
  init(id: Int) { self.id = id }
  func update(action: Void, environment: Void) -> Fx<Void> { .none }
}

/// A million plain rows under a declared route.
private final class Sheet: ArborealModel {
  enum Action: Sendable { case row(id: Int, Void), append }
  let registrar = TrackingRegistrar()
  @Tracked private(set) var rows: [Plain]
  static let rows = ChildRoute.children(\Sheet.rows, tag: Action.row)
  static let routes: [ChildRoute<Sheet>] = [rows]

  init(count: Int) { rows = (0..<count).map(Plain.init) }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .row(let id, let action):
      return forward(action, to: Self.rows, id: id, environment: ())
    case .append:
      rows.append(Plain(id: rows.count))
      return .none
    }
  }
}

/// A model's routes, declared once, make a subscribing child's work start when it enters the
/// state by any write and end when it leaves; the store lists the children by place.
@Suite actor ChildRouteTests {
  @Test func aPresentedChildAssignedByAPlainWriteSubscribesAtOnceAndStopsWhenRemoved() {
    let environment = Feed.Environment()
    let store = Store(state: Hub(), environment: environment)
    store.send(.set(.sheet(1)))
    #expect(store.runningEffectCount == 1)
    #expect(environment.made.count == 1)
    store.send(.set(.sheet(nil)))
    #expect(store.runningEffectCount == 0)
  }

  @Test func eachAppearanceStartsItsWorkOnce() {
    let environment = Feed.Environment()
    let store = Store(state: Hub(), environment: environment)
    for appearance in 1...3 {
      store.send(.set(.push(appearance)))
      store.send(.set(.popLast))
      #expect(store.runningEffectCount == 0)
      #expect(environment.made.count == appearance)
    }
    store.send(.set(.push(7)))
    store.send(.set(.push(8)))
    #expect(store.runningEffectCount == 2)
    store.send(.set(.popLast))
    #expect(store.runningEffectCount == 1)
    #expect(environment.made.count == 5)
  }

  @Test func aChildThereWhenTheStoreIsMadeSubscribesWithTheStore() {
    let environment = Feed.Environment()
    let store = Store(state: Hub(sheet: Feed(id: 1)), environment: environment)
    #expect(store.runningEffectCount == 1)
    store.send(.set(.sheet(nil)))
    #expect(store.runningEffectCount == 0)
  }

  @Test func theSubscriptionsActionsReachTheChildThroughTheParentsRoute() async {
    let environment = Feed.Environment()
    let store = Store(state: Hub(), environment: environment)
    store.send(.set(.rows([1, 2])))
    #expect(environment.continuations.count == 2)
    environment.continuations.all[1].yield(.received("hello"))
    // Ending both streams ends both subscriptions: `finish()` returns once the message has
    // been delivered, whatever the scheduling.
    for continuation in environment.continuations.all { continuation.finish() }
    await store.finish()
    #expect(store.state.rows[1].received == ["hello"])
    #expect(store.state.rows[0].received == [])
  }

  @Test func keptRowsKeepTheirWorkAndOnlyNewOnesStart() {
    let environment = Feed.Environment()
    let store = Store(state: Hub(), environment: environment)
    // A hundred: the sanitizer runs check the effect table's invariants (O(n)) after every
    // change, so each start and end costs O(n) there.
    store.send(.set(.rows(Array(0..<100))))
    #expect(store.runningEffectCount == 100)
    store.send(.set(.rows(Array(1..<101))))
    #expect(store.runningEffectCount == 100)
    #expect(environment.made.count == 101)
    store.send(.set(.rows([])))
    #expect(store.runningEffectCount == 0)
  }

  @Test func aGrandchildStartsWithItsParentAndEndsWhenThatParentIsPopped() {
    let environment = Feed.Environment()
    let store = Store(state: Hub(), environment: environment)
    store.send(.set(.pushPanel(withFeed: true)))
    #expect(store.runningEffectCount == 1)
    // Written by the panel's own update, reached through the stack's route.
    store.send(.panels(.element(id: 0, action: .showFeed(false))))
    #expect(store.runningEffectCount == 0)
    store.send(.panels(.element(id: 0, action: .showFeed(true))))
    #expect(store.runningEffectCount == 1)
    store.send(.set(.pushPanel(withFeed: false)))
    #expect(store.runningEffectCount == 1)
    store.send(.panels(.popFrom(id: 0)))
    #expect(store.runningEffectCount == 0)
    #expect(environment.made.count == 2)
  }

  @Test func aDestinationsModelCaseSubscribesAndAnAlertCaseHoldsNothing() {
    let environment = Feed.Environment()
    let store = Store(state: Hub(), environment: environment)
    store.send(.set(.destination(1)))
    #expect(store.runningEffectCount == 1)
    store.send(.set(.confirm))
    #expect(store.runningEffectCount == 0)
    store.send(.set(.destination(2)))
    store.send(.destination(.dismiss))
    #expect(store.runningEffectCount == 0)
    #expect(environment.made.count == 2)
  }

  @Test func startingThroughPushAndThroughTheRouteStartsTheWorkOnce() {
    let environment = Feed.Environment()
    let store = Store(state: Hub(), environment: environment)
    store.send(.set(.push(1)))
    // An action forwarded to the screen reports its subscriptions again: not restarted.
    store.send(.path(.element(id: 0, action: .received("x"))))
    #expect(store.runningEffectCount == 1)
    #expect(environment.made.count == 1)
  }

  @Test func theStoreListsEveryChildByPlace() {
    let store = Store(state: Hub(), environment: Feed.Environment())
    #expect(store.children.isEmpty)
    store.send(.set(.sheet(1)))
    store.send(.set(.rows([4, 5])))
    store.send(.set(.push(9)))
    store.send(.set(.pushPanel(withFeed: true)))
    store.send(.set(.destination(3)))
    #expect(
      store.children.map(\.place) == [
        "Hub.sheet",
        "Hub.rows[id: 4]",
        "Hub.rows[id: 5]",
        "Hub.path[id: 0]",
        "Hub.panels[id: 0]",
        "Hub.panels[id: 0].feed",
        "Hub.destination.feed",
      ])
    #expect(
      store.children.last?.model as? Feed === store.state.destination?[case: Destination.feed])
  }

  @Test(arguments: [1, 1_000_000])
  func aRouteWhoseChildrenHaveNothingToFollowIsNotRead(count: Int) {
    let store = Store(state: Sheet(count: count), environment: ())
    store.send(.append)
    // Not followed: no watch reads the rows, so a write to them costs what it cost before.
    #expect(store.followedRouteCount == 0)
    #expect(store.state.rows.count == count + 1)
  }

  @Test func eachFollowedRouteIsWatchedOncePerInstance() {
    let store = Store(state: Hub(), environment: Feed.Environment())
    // Every route of the hub holds feeds or panels, which have something to follow.
    #expect(store.followedRouteCount == 5)
    store.send(.set(.pushPanel(withFeed: false)))
    store.send(.set(.pushPanel(withFeed: true)))
    #expect(store.followedRouteCount == 7)  // and one per panel
    store.send(.panels(.popFrom(id: 0)))
    #expect(store.followedRouteCount == 5)
  }

  /// A kind of place of the hub, and how a test fills it with children by plain writes.
  enum Kind: String, CaseIterable, Sendable {
    case presented, collection, stack, destination

    /// Writes that leave `count` children there: one write for a collection or a stack; one
    /// after another where the place holds one, each replacing the last.
    fileprivate func fill(_ store: Store<Hub>, count: Int) {
      switch self {
      case .presented: for id in 0..<count { store.send(.set(.sheet(id))) }
      case .collection: store.send(.set(.rows(Array(0..<count))))
      case .stack: store.send(.set(.pushAll(Array(0..<count))))
      case .destination: for id in 0..<count { store.send(.set(.destination(id))) }
      }
    }

    /// A write that empties the place.
    fileprivate func empty(_ store: Store<Hub>) {
      switch self {
      case .presented: store.send(.set(.sheet(nil)))
      case .collection: store.send(.set(.rows([])))
      case .stack: store.send(.set(.popAll))
      case .destination: store.send(.set(.destination(nil)))
      }
    }

    /// How many children the place holds once filled with `count`.
    func held(_ count: Int) -> Int { self == .collection || self == .stack ? count : 1 }
  }

  /// A thousand children per kind; a hundred in the sanitizer steps' builds, whose internal
  /// checks walk every record and running effect after each change (O(*n*²) for *n* children
  /// entering, which at a thousand took minutes there).
  #if ARBOREAL_INTERNAL_CHECKS
    static let many = 100
  #else
    static let many = 1_000
  #endif

  @Test(arguments: Kind.allCases, [1, many])
  func theStoresConsumersOfPresenceReadOneWatchPerPlaceAndAgree(kind: Kind, count: Int) {
    Self.consumersOfPresenceAgree(kind: kind, count: count)
  }

  // The same in the other isolations: a store made in a nonisolated test, in a detached task
  // and on the main actor reads its places the same way (in its own isolation).
  @Test(arguments: Kind.allCases)
  nonisolated func consumersOfPresenceAgreeInANonisolatedStore(kind: Kind) {
    Self.consumersOfPresenceAgree(kind: kind, count: Self.many)
  }

  @Test(arguments: Kind.allCases)
  func consumersOfPresenceAgreeInADetachedTasksStore(kind: Kind) async {
    await Task.detached { Self.consumersOfPresenceAgree(kind: kind, count: Self.many) }.value
  }

  @MainActor @Test(arguments: Kind.allCases)
  func consumersOfPresenceAgreeOnTheMainActor(kind: Kind) {
    Self.consumersOfPresenceAgree(kind: kind, count: Self.many)
  }

  /// Fills one kind of place of a hub with `count` children, then empties it: subscriptions
  /// (the mounts), lifetimes (the records) and the listing agree, child by child, and the
  /// lifetime records join the mounts' watch of each place instead of making their own.
  nonisolated static func consumersOfPresenceAgree(kind: Kind, count: Int) {
    let store = Store(state: Hub(), environment: Feed.Environment())
    // One watch per route of the hub, which its mounts follow.
    #expect(store.watchedPlaceCount == 5)
    kind.fill(store, count: count)
    let held = kind.held(count)
    #expect(store.runningEffectCount == held)
    #expect(store.childRecordCount == held)
    #expect(store.childWatchCount == 1)
    #expect(store.children.count == held)
    #expect(store.watchedPlaceCount == 5)
    kind.empty(store)
    #expect(store.runningEffectCount == 0)
    #expect(store.childRecordCount == 0)
    #expect(store.children.isEmpty)
    #expect(store.watchedPlaceCount == 5)
  }

  @Test func aPlaceWatchedOnlyForLifetimesEndsWithItsLastChild() {
    // No routes: a forward's lifetime link watches the place, alone, while its child works.
    let store = Store(state: Unlisted(), environment: Feed.Environment())
    #expect(store.watchedPlaceCount == 0)
    store.send(.show)
    store.send(.feed(.presented(.received("start"))))
    #expect(store.watchedPlaceCount == 1)
    #expect(store.runningEffectCount == 1)
    store.send(.hide)
    #expect(store.runningEffectCount == 0)
    #expect(store.watchedPlaceCount == 0)
  }

  @Test func aPlacesWatchGoesWithItsParent() {
    // A panel's feed works: the lifetime records watch the panel's place of the feed, shared
    // with the mounts. Popping the panel ends that watch.
    let store = Store(state: Hub(), environment: Feed.Environment())
    let before = store.watchedPlaceCount
    store.send(.set(.pushPanel(withFeed: true)))
    store.send(.panels(.element(id: 0, action: .feed(.presented(.received("start"))))))
    #expect(store.watchedPlaceCount == before + 1)
    store.send(.panels(.popFrom(id: 0)))
    #expect(store.watchedPlaceCount == before)
  }

  @Test func aModelWithoutRoutesFollowsNothing() {
    let store = Store(state: Feed(), environment: Feed.Environment())
    #expect(store.children.isEmpty)
    #expect(store.runningEffectCount == 1)  // its own subscription, as the root
  }

  #if DEBUG
    @MainActor
    @Test func anActionDroppedDeepInTheStateIsReportedWithItsParentsPlace() {
      let messages = Log<String>()
      ArborealDiagnostics.droppedActionHandler = { messages.append($0) }
      defer { ArborealDiagnostics.droppedActionHandler = nil }
      let store = Store(state: Hub(), environment: Feed.Environment())
      store.send(.set(.pushPanel(withFeed: false)))
      store.send(.panels(.element(id: 0, action: .feed(.presented(.received("late"))))))
      let reports = messages.all.filter { $0.contains("received(\"late\")") }
      #expect(reports.count == 1)
      #expect(reports.first?.contains("sent to Hub.panels[id: 0].feed (Feed):") == true)
    }

    /// The same report from a store on another actor (this suite's) names the same place.
    @Test func anActionDroppedOnAnActorsStoreIsReportedWithItsParentsPlace() {
      let store = Store(state: Hub(), environment: Feed.Environment())
      store.send(.set(.pushPanel(withFeed: false)))
      store.send(.panels(.element(id: 0, action: .feed(.presented(.received("on an actor"))))))
      let reports = ArborealDiagnostics.recentDroppedActions.filter {
        $0.contains("received(\"on an actor\")")
      }
      #expect(reports.count == 1)
      #expect(reports.first?.contains("sent to Hub.panels[id: 0].feed (Feed):") == true)
    }
  #endif
}
