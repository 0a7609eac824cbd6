// expect: risks causing data races
// A main-actor store cannot be used from a detached task: its update would run off the main actor.
import Arboreal

final class Counter: ArborealModel {
  enum Action: Sendable { case increment }
  let registrar = TrackingRegistrar()
  @Tracked private(set) var count = 0
  func update(action: Action, environment: Void) -> Fx<Action> {
    count += 1
    return .none
  }
}

@MainActor func fromElsewhere() async {
  let store = Store(state: Counter(), environment: ())
  await Task.detached { _ = store.send(.increment) }.value
  store.send(.increment)
}
