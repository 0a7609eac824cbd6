import ArborealTracking
import Testing

@testable import Arboreal

/// A store lives where it is made (Docs/Semantics.md, "Where a store lives"): on the main
/// actor, on an actor of the user's own, or outside any actor, with the same calls; its updates
/// run there (every update of `Session` checks it), its effects run off it and deliver back to
/// it, and a child's effects, subscriptions and cancellation behave the same everywhere.
@Suite struct StoreIsolationTests {
  @Test func onTheMainActor() async {
    let report = await MainActorHost().run()
    #expect(report == .expected)
  }

  @Test func onAnActorOfItsOwn() async {
    let report = await SessionActorHost().run()
    #expect(report == .expected)
  }

  @Test func madeInAnActorsSynchronousInit() async {
    // No actor is known to a synchronous `init`: the store handles its effects' deliveries
    // when the actor awaits it.
    let report = await EagerSessionHost().run()
    #expect(report == .expected)
  }

  @Test func aStoreMadeInAnActorsInitLearnsItsActorAtTheFirstAwait() async {
    #expect(await EagerSessionHost().loadsArriveUnasked() == [1, 2])
  }

  @Test func anActorThatKeepsItsStoreIsFreedWithIt() async {
    weak var madeInAMethod: KeepingHost?
    weak var madeInItsInit: KeepingHost?
    do {
      let first = KeepingHost()
      await first.makeStoreAndLoad()
      let second = KeepingHost(madeInInit: true)
      await second.makeStoreAndLoad()
      madeInAMethod = first
      madeInItsInit = second
    }
    #expect(madeInAMethod == nil)
    #expect(madeInItsInit == nil)
  }

  @Test func inANonisolatedFunction() async {
    let feed = ValueFeed()
    let gate = Gate()
    let store = Store(
      state: Session(), environment: SessionEnvironment(owner: nil, feed: feed, gate: gate))
    let report = await IsolationScenario.run(store, feed: feed)
    #expect(report == .expected)
  }

  @Test func inADetachedTask() async {
    let report = await Task.detached {
      let feed = ValueFeed()
      let store = Store(
        state: Session(), environment: SessionEnvironment(owner: nil, feed: feed))
      return await IsolationScenario.run(store, feed: feed)
    }.value
    #expect(report == .expected)
  }

  @Test(arguments: [1, 1_000])
  func storesOnActorsOfTheirOwnAtOnce(count: Int) async {
    let hosts = (0..<count).map { _ in CounterHost() }
    let totals = await withTaskGroup(of: Int.self) { group in
      for (index, host) in hosts.enumerated() {
        group.addTask { await host.run(loads: index % 7 + 1) }
      }
      var totals: [Int] = []
      for await total in group { totals.append(total) }
      return totals
    }
    #expect(totals.count == count)
    #expect(totals.sorted() == (0..<count).map { $0 % 7 + 1 }.map { $0 * ($0 + 1) / 2 }.sorted())
  }

  @Test func anEffectThatOutlivesItsActorsStoreDeliversNothing() async {
    let gate = Gate()
    let host = SessionActorHost()
    let delivered = await host.releaseWhileAnEffectWaits(on: gate)
    gate.open()
    #expect(delivered == 0)
  }

  #if DEBUG
    /// A store made outside any actor, released with actions its effects delivered and that
    /// nobody handled, says so: on an actor they would have been handled by themselves.
    @Test func aStoreMadeOutsideAnyActorReleasedWithUnhandledActionsSaysSo() async {
      var store: Store<Session>? = Store(
        state: Session(), environment: SessionEnvironment(owner: nil))
      store?.send(.load(424_242))
      // Bounded by turns: the effect's task posts its action within a few.
      for _ in 0..<1_000_000 where store?.hasPendingMail == false { await Task.yield() }
      #expect(store?.hasPendingMail == true)
      store = nil
      let reports = ArborealDiagnostics.recentDroppedActions.filter {
        $0.contains("loaded(424242)")
      }
      #expect(reports.count == 1)
      #expect(
        reports.first?.contains(
          "a Store<Session> made outside any actor was released with 1 action its effects "
            + "delivered and nothing handled") == true)
    }
  #endif

  @Test func aStoreMadeOutsideAnyActorHandlesDeliveriesWhenAsked() async {
    let store = Store(state: Session(), environment: SessionEnvironment(owner: nil))
    let handle = store.send(.load(3))
    var handled = 0
    // The effect's task runs on its own; its action and its end wait in the mailbox.
    while handled < 2 {
      handled += store.handleDelivered()
      await Task.yield()
    }
    #expect(store.state.loaded == [3])
    #expect(handle.isFinished)
    await store.finish()
  }
}

/// What the scenario saw, compared whole.
struct IsolationReport: Equatable, Sendable {
  var count = 0
  var loaded: [Int] = []
  var longEnded: [Bool] = []
  var longFinished = false
  var received: [Int] = []
  var subscribersWhileShown = 0
  var subscribersAfterHiding = 0
  var isIdle = false

  static let expected = IsolationReport(
    count: 2, loaded: [7, 8], longEnded: [], longFinished: true, received: [1, 2],
    subscribersWhileShown: 1, subscribersAfterHiding: 0, isIdle: true)
}

/// The same calls in every isolation: `isolation` is the caller's, which is the store's.
enum IsolationScenario {
  static func run(
    _ store: Store<Session>, feed: ValueFeed, isolation: isolated (any Actor)? = #isolation
  ) async -> IsolationReport {
    var report = IsolationReport()
    store.send(.increment)
    await store.send(.load(7)).value
    let load = store.send(.load(8))
    store.send(.increment)
    await load.value
    let long = store.send(.startLong)
    store.send(.cancelLong)
    await long.value
    report.longFinished = long.isFinished

    // A child that comes and goes, with a subscription of its own.
    store.send(.showWatcher)
    await until(store) { feed.subscriberCount == 1 }
    report.subscribersWhileShown = feed.subscriberCount
    feed.emit(1)
    await until(store) { store.state.watcher?.received == [1] }
    feed.emit(2)
    await until(store) { store.state.watcher?.received == [1, 2] }
    report.received = store.state.watcher?.received ?? []
    store.send(.hideWatcher)
    await until(store) { feed.subscriberCount == 0 }
    report.subscribersAfterHiding = feed.subscriberCount

    await store.finish()
    report.count = store.state.count
    report.loaded = store.state.loaded
    report.longEnded = store.state.longEnded
    report.isIdle = store.runningEffectCount == 0
    return report
  }

  /// Waits until `condition` holds, handling what the store's effects delivered meanwhile;
  /// bounded by turns, never by the clock.
  static func until(
    _ store: Store<Session>, isolation: isolated (any Actor)? = #isolation,
    _ condition: () -> Bool
  ) async {
    for _ in 0..<1_000_000 {
      store.handleDelivered()
      if condition() { return }
      await Task.yield()
    }
    Issue.record("the condition never held")
  }
}

@MainActor final class MainActorHost {
  func run() async -> IsolationReport {
    let feed = ValueFeed()
    let store = Store(
      state: Session(), environment: SessionEnvironment(owner: MainActor.shared, feed: feed))
    return await IsolationScenario.run(store, feed: feed)
  }
}

/// Makes its store in an async method, so the store knows its actor.
actor SessionActorHost {
  func run() async -> IsolationReport {
    let feed = ValueFeed()
    let store = Store(state: Session(), environment: SessionEnvironment(owner: self, feed: feed))
    return await IsolationScenario.run(store, feed: feed)
  }

  /// Starts an effect that waits on `gate`, releases the store, and returns how many actions
  /// reached the released model (none: a released store's effects deliver nothing).
  func releaseWhileAnEffectWaits(on gate: Gate) async -> Int {
    weak var released: Session?
    do {
      let session = Session()
      released = session
      let store = Store(state: session, environment: SessionEnvironment(owner: self, gate: gate))
      store.send(.startLong)
    }
    return released == nil ? 0 : 1
  }
}

/// Makes its store in its synchronous `init`, where no actor is known yet.
actor EagerSessionHost {
  let feed = ValueFeed()
  let store: Store<Session>

  init() {
    store = Store(state: Session(), environment: SessionEnvironment(owner: nil, feed: feed))
  }

  func run() async -> IsolationReport {
    await IsolationScenario.run(store, feed: feed)
  }

  /// Awaits one send (which binds the store to this actor), then sends another and only
  /// yields: its effect's action arrives by itself, with no call that handles deliveries.
  func loadsArriveUnasked() async -> [Int] {
    await store.send(.load(1)).value
    store.send(.load(2))
    for _ in 0..<1_000_000 where store.state.loaded.count < 2 { await Task.yield() }
    return store.state.loaded
  }
}

/// An actor that keeps its store in a property: the store refers to its actor weakly, so
/// releasing the actor frees both.
actor KeepingHost {
  var store: Store<Session>?

  init(madeInInit: Bool = false) {
    if madeInInit { store = Store(state: Session(), environment: SessionEnvironment(owner: nil)) }
  }

  func makeStoreAndLoad() async {
    if store == nil { store = Store(state: Session(), environment: SessionEnvironment(owner: nil)) }
    await store?.send(.load(1)).value
  }
}

/// An actor with a store of its own, for many at once.
actor CounterHost {
  /// Loads 1...`loads` through effects and returns their sum.
  func run(loads: Int) async -> Int {
    let store = Store(state: Session(), environment: SessionEnvironment(owner: self))
    for value in 1...loads { store.send(.load(value)) }
    await store.finish()
    return store.state.loaded.reduce(0, +)
  }
}
