import Arboreal

/// The services of ``Loader``: a value to load, and a stream the effects signal after each
/// action they deliver, so that a test can wait for an arrival without receiving it.
struct LoaderEnvironment: Sendable {
  var value: Int = 42
  var delivered: AsyncStream<Void>.Continuation? = nil
}

/// A model with plain changes, a one-shot effect, a two-action effect and a timer.
final class Loader: ArborealModel {
  enum Action: Sendable, Equatable {
    case increment
    /// Changes `count` and `step`.
    case bump
    /// Sets `count` to its current value (no change).
    case touch
    case load
    case loaded(Int)
    /// An effect that delivers `.loaded(1)` then `.loaded(2)`.
    case loadTwice
    case startTimer
    case stopTimer
    case tick
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var count = 0
  @Tracked private(set) var step = 1
  @Tracked private(set) var isLoading = false
  @Tracked private(set) var ticks = 0

  func update(action: Action, environment: LoaderEnvironment) -> Fx<Action> {
    switch action {
    case .increment:
      count += step
      return .none
    case .bump:
      count += 1
      step += 1
      return .none
    case .touch:
      count = count + 0
      return .none
    case .load:
      isLoading = true
      return .run { send in
        await send(.loaded(environment.value))
        environment.delivered?.yield()
      }
    case .loaded(let value):
      isLoading = false
      count = value
      return .none
    case .loadTwice:
      return .run { send in
        await send(.loaded(1))
        await send(.loaded(2))
        environment.delivered?.yield()
      }
    case .startTimer:
      return .run { _ in
        // Runs until cancelled.
        try? await Task.sleep(for: .seconds(3600))
      }
      .cancellable(id: "timer")
    case .stopTimer:
      return .cancel(id: "timer")
    case .tick:
      ticks += 1
      return .none
    }
  }
}

/// A model holding a child model, to check that a child's changes count.
final class Parent: ArborealModel {
  enum Action: Sendable {
    case child(Loader.Action)
    case rename(String)
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var title = "parent"
  let child = Loader()
  static let child = ChildRoute.child(
    \Parent.child, environment: { _ in LoaderEnvironment() }, tag: Action.child)

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .child(let action):
      return forward(action, to: Self.child, environment: environment)
    case .rename(let title):
      self.title = title
      return .none
    }
  }
}
