import Arboreal
import ArborealTestSupport
import ArborealTracking

/// A source of values that subscriptions read, fed by the test: each subscriber gets its own
/// stream, and `emit` yields to every one.
final class ValueFeed: Sendable {
  private let subscribers = Locked.make([Int: AsyncStream<Int>.Continuation]())
  private let nextID = Locked.make(0)

  /// How many subscriptions read the feed now.
  var subscriberCount: Int { subscribers.withLock { $0.count } }

  /// A stream of the values emitted from now on; it ends when its reader is cancelled.
  func values() -> AsyncStream<Int> {
    let id = nextID.withLock { id in
      id += 1
      return id
    }
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    continuation.onTermination = { [weak self] _ in
      _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
    }
    subscribers.withLock { $0[id] = continuation }
    return stream
  }

  /// Yields `value` to every subscriber.
  func emit(_ value: Int) {
    for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(value) }
  }
}

/// What a session's effects use: the feed, the gate long effects wait on, and the actor its
/// store must live on (checked in every update).
struct SessionEnvironment: Sendable {
  /// The actor every update must run on; nil for a store made outside any actor.
  let owner: (any Actor)?
  let feed: ValueFeed
  let gate: Gate

  init(owner: (any Actor)?, feed: ValueFeed = ValueFeed(), gate: Gate = Gate()) {
    self.owner = owner
    self.feed = feed
    self.gate = gate
  }

  /// Stops the program unless the caller runs on `owner`.
  func checkIsolation() {
    owner?.preconditionIsolated("an update ran off its store's actor")
  }
}

/// A child that subscribes to the feed while it is in the state.
final class Watcher: SubscribingModel {
  enum Action: Sendable, Equatable {
    case received(Int)
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var received: [Int] = []

  func update(action: Action, environment: SessionEnvironment) -> Fx<Action> {
    environment.checkIsolation()
    switch action {
    case .received(let value):
      received.append(value)
      return .none
    }
  }

  func subscriptions(environment: SessionEnvironment) -> [Subscription<Action>] {
    [
      Subscription(
        id: "feed",
        .run { send in
          for await value in environment.feed.values() { await send(.received(value)) }
        })
    ]
  }
}

/// A session: effects that deliver, a long effect to cancel, a child that comes and goes with
/// its subscription.
final class Session: ArborealModel {
  enum Action: Sendable, Equatable {
    case increment
    case load(Int)
    case loaded(Int)
    case startLong
    case cancelLong
    case longEnded(cancelled: Bool)
    case showWatcher
    case hideWatcher
    case watcher(Watcher.Action)
  }

  static let watcherRoute = ChildRoute.child(\Session.watcher, tag: Action.watcher)
  static let routes: [ChildRoute<Session>] = [watcherRoute]

  let registrar = TrackingRegistrar()
  @Tracked private(set) var count = 0
  @Tracked private(set) var loaded: [Int] = []
  @Tracked private(set) var longEnded: [Bool] = []
  @Tracked private(set) var watcher: Watcher?

  func update(action: Action, environment: SessionEnvironment) -> Fx<Action> {
    environment.checkIsolation()
    switch action {
    case .increment:
      count += 1
      return .none
    case .load(let value):
      return Fx {
        await Task.yield()
        return .loaded(value)
      }
    case .loaded(let value):
      loaded.append(value)
      return .none
    case .startLong:
      return Fx {
        do {
          try await environment.gate.waitCancellably()
          return .longEnded(cancelled: false)
        } catch {
          return .longEnded(cancelled: true)
        }
      }
      .cancellable(id: "long")
    case .cancelLong:
      return .cancel(id: "long")
    case .longEnded(let cancelled):
      longEnded.append(cancelled)
      return .none
    case .showWatcher:
      watcher = Watcher()
      return .none
    case .hideWatcher:
      watcher = nil
      return .none
    case .watcher(let action):
      return forward(action, to: Self.watcherRoute, environment: environment)
    }
  }
}
