import ArborealTestSupport
import Testing

@testable import Arboreal

/// A model that listens to a stream of messages while `isListening`.
private final class Listener: SubscribingModel, Identifiable {
  enum Action: Sendable, Equatable {
    case listen(Bool)
    case received(String)
    case rename(String)
  }

  struct Environment: Sendable {
    /// Makes the stream a subscription listens to; counts how many were made.
    let made = Log<Int>()
    func messages() -> AsyncStream<Action> {
      made.append(made.count + 1)
      return AsyncStream { _ in }  // never ends: only cancellation stops it
    }
  }

  let registrar = TrackingRegistrar()
  let id: Int
  @Tracked private(set) var isListening: Bool
  @Tracked private(set) var name = ""

  init(id: Int = 0, isListening: Bool = false) {
    self.id = id
    self.isListening = isListening
  }

  func update(action: Action, environment: Environment) -> Fx<Action> {
    switch action {
    case .listen(let on):
      isListening = on
    case .received:
      break
    case .rename(let name):
      self.name = name
    }
    return .none
  }

  func subscriptions(environment: Environment) -> [Subscription<Action>] {
    isListening ? [Subscription(id: "messages", Self.listening(to: environment.messages()))] : []
  }

  /// Sends every message of `messages`, made when the store starts the subscription.
  private static func listening(to messages: AsyncStream<Action>) -> Fx<Action> {
    .run { send in
      for await message in messages { await send(message) }
    }
  }
}

/// Listeners by id, each added listening: the room forwards to them and lists no subscription
/// of its own.
private final class Room: ArborealModel {
  enum Action: Sendable, Equatable {
    case listener(id: Int, Listener.Action)
    case add(id: Int)
    case remove(id: Int)
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var listeners: [Listener] = []

  static let listeners = ChildRoute.children(\Room.listeners, tag: Action.listener)

  func update(action: Action, environment: Listener.Environment) -> Fx<Action> {
    switch action {
    case .listener(let id, let action):
      return forward(action, to: Self.listeners, id: id, environment: environment)
    case .add(let id):
      let listener = Listener(id: id)
      listeners.append(listener)
      return forward(.listen(true), to: Self.listeners, child: listener, environment: environment)
    case .remove(let id):
      listeners.removeAll { $0.id == id }
      return .none
    }
  }
}

/// Subscriptions follow the state: they start when the model asks for them and stop when it no
/// longer does; `follow(_:get:tag:)` follows another store's derived value.
@Suite actor SubscriptionTests {
  @Test func aSubscriptionStartsWhenTheStateAsksAndStopsWhenItNoLongerDoes() async {
    let environment = Listener.Environment()
    let store = Store(state: Listener(), environment: environment)
    #expect(store.runningEffectCount == 0)
    let handle = store.send(.listen(true))
    #expect(store.runningEffectCount == 1)
    #expect(handle.isFinished)  // the subscription belongs to no send
    store.send(.rename("kept"))  // still asked for: not restarted
    #expect(store.runningEffectCount == 1)
    #expect(environment.made.count == 1)
    store.send(.listen(false))
    #expect(store.runningEffectCount == 0)
    await store.finish()
  }

  @Test func theInitialStatesSubscriptionsStartWithTheStore() {
    let store = Store(state: Listener(isListening: true), environment: Listener.Environment())
    #expect(store.runningEffectCount == 1)
    store.send(.listen(false))
    #expect(store.runningEffectCount == 0)
  }

  @Test func forwardedSubscribingChildrenStartAndEndTheirOwnSubscriptions() {
    let environment = Listener.Environment()
    let store = Store(state: Room(), environment: environment)
    store.send(.add(id: 1))
    #expect(store.runningEffectCount == 1)  // started by the forwarded action alone
    #expect(environment.made.count == 1)
    store.send(.add(id: 2))
    // Both children use the id "messages": each child's subscription is its own.
    #expect(store.runningEffectCount == 2)
    store.send(.listener(id: 1, .listen(false)))
    #expect(store.runningEffectCount == 1)
    store.send(.remove(id: 2))
    #expect(store.runningEffectCount == 0)
    #expect(environment.made.count == 2)
  }

  /// On the main actor, where a follow's observer runs synchronously inside the send (on
  /// another actor it runs as a job after it: `StoreIsolationTests`).
  @MainActor
  @Test func aStoreFollowsAnotherStoresDerivedValue() {
    let counter = Store(state: Counter(), environment: ())
    let follower = Store(state: Script(), environment: ())
    let token = follower.follow(counter, get: \.count, tag: { .record("count \($0)") })
    #expect(follower.state.log == ["count 0"])
    counter.send(.increment)
    #expect(follower.state.log == ["count 0", "count 1"])
    counter.send(.setStep(5))  // not read by `get`
    counter.send(.set(1))  // an equal value
    #expect(follower.state.log == ["count 0", "count 1"])
    token.cancel()
    counter.send(.increment)
    #expect(follower.state.log == ["count 0", "count 1"])
  }
}
