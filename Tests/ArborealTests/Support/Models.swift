import Arboreal

/// A counter with two properties, for sends, observers and logs.
final class Counter: ArborealModel {
  enum Action: Sendable, Equatable {
    case increment
    case decrement
    case set(Int)
    case setStep(Int)
    /// Changes `count` twice and `step` once.
    case bump
    case noop
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var count = 0
  @Tracked private(set) var step = 1

  init(count: Int = 0) {
    self.count = count
  }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .increment:
      count += step
    case .decrement:
      count -= step
    case .set(let value):
      count = value
    case .setStep(let value):
      step = value
    case .bump:
      count += 1
      step += 1
      count += 1
    case .noop:
      break
    }
    return .none
  }
}

/// A model whose actions carry the effects to return: lets a test build any `Fx` and see, in
/// `log`, the order in which actions were handled.
final class Script: ArborealModel {
  enum Action: Sendable {
    /// Appends the text to the log.
    case record(String)
    /// Returns the effects.
    case run(Fx<Action>)
    /// Appends the text to the log and returns the effects.
    case then(String, Fx<Action>)
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var log: [String] = []
  /// The thread each update ran on.
  private(set) var threads: [UInt] = []
  /// Whether each update ran on the main actor, as the runtime says.
  private(set) var onMainActor: [Bool] = []

  func update(action: Action, environment: Void) -> Fx<Action> {
    threads.append(currentThread())
    onMainActor.append(isOnMainActor())
    switch action {
    case .record(let text):
      log.append(text)
      return .none
    case .run(let fx):
      return fx
    case .then(let text, let fx):
      log.append(text)
      return fx
    }
  }
}

/// Sends actions to a store from inside an update (the environment of `Relay`).
///
/// Invariant (why `@unchecked Sendable` holds): connected and used only in the store's
/// isolation, from its update.
final class Sender: @unchecked Sendable {
  private var relay: ((Relay.Action) -> SendHandle)?

  init() {}

  func connect(_ store: Store<Relay>) {
    relay = { [weak store] action in store?.send(action) ?? SendHandle() }
  }

  @discardableResult
  func send(_ action: Relay.Action) -> SendHandle {
    relay?(action) ?? SendHandle()
  }
}

/// A model whose update sends more actions to its own store while it runs.
final class Relay: ArborealModel {
  enum Action: Sendable, Equatable {
    case record(String)
    /// Records the text, then sends each of the actions, then records "<text> done".
    case fanOut(String, [Action])
    /// Starts an effect that delivers `.record(text)`, and keeps the handle of the queued
    /// action in `handles`.
    case sendWithEffect(String)
    case recordLater(String)
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var log: [String] = []
  private(set) var handles: [SendHandle] = []

  func update(action: Action, environment: Sender) -> Fx<Action> {
    switch action {
    case .record(let text):
      log.append(text)
      return .none
    case .fanOut(let text, let actions):
      log.append(text)
      for action in actions { environment.send(action) }
      log.append("\(text) done")
      return .none
    case .sendWithEffect(let text):
      handles.append(environment.send(.recordLater(text)))
      return .none
    case .recordLater(let text):
      return Fx { .record(text) }
    }
  }
}

/// A reference cell that only the main actor reads or writes.
@MainActor final class MainActorBox<Value>: Sendable {
  var value: Value

  init(_ value: Value) {
    self.value = value
  }
}
