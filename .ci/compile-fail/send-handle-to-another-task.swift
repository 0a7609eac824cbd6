// expect: risks causing data races
// A send handle belongs to its store's isolation, as the store does: a detached task cannot await it.
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

@MainActor func waitElsewhere() async {
  let store = Store(state: Counter(), environment: ())
  let handle = store.send(.increment)
  await Task.detached { await handle.value }.value
  handle.cancel()
}
