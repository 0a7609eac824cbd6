import ArborealTestSupport
import Testing

@testable import Arboreal

/// A model that listens to a stream of messages while `isListening`.
private final class Listener: SubscribingModel {
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
  @Tracked private(set) var isListening: Bool
  @Tracked private(set) var name = ""

  init(isListening: Bool = false) {
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

/// Listeners keyed by id, whose subscriptions the room lists as its own.
private final class Room: SubscribingModel {
  enum Action: Sendable, Equatable {
    case listener(id: Int, Listener.Action)
    case add(id: Int)
    case remove(id: Int)
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var listeners: [(id: Int, listener: Listener)] = []

  func update(action: Action, environment: Listener.Environment) -> Fx<Action> {
    switch action {
    case .listener(let id, let action):
      guard let listener = listeners.first(where: { $0.id == id })?.listener else { return .none }
      return listener.update(action: action, environment: environment)
        .tag(key: id) { .listener(id: id, $0) }
    case .add(let id):
      listeners.append((id, Listener(isListening: true)))
      return .none
    case .remove(let id):
      listeners.removeAll { $0.id == id }
      return .none
    }
  }

  func subscriptions(environment: Listener.Environment) -> [Subscription<Action>] {
    listeners.flatMap { id, listener in
      listener.subscriptions(environment: environment).map { subscription in
        subscription.tag(key: id) { Action.listener(id: id, $0) }
      }
    }
  }
}

/// Subscriptions follow the state: they start when the model asks for them and stop when it no
/// longer does; `follow(_:get:tag:)` follows another store's derived value.
@MainActor @Suite struct SubscriptionTests {
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

  @Test func childrenListTheirSubscriptionsUnderTheirKeys() {
    let environment = Listener.Environment()
    let store = Store(state: Room(), environment: environment)
    store.send(.add(id: 1))
    store.send(.add(id: 2))
    // Both children use the id "messages"; their keys keep the subscriptions apart.
    #expect(store.runningEffectCount == 2)
    store.send(.listener(id: 1, .listen(false)))
    #expect(store.runningEffectCount == 1)
    store.send(.remove(id: 2))
    #expect(store.runningEffectCount == 0)
    #expect(environment.made.count == 2)
  }

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
