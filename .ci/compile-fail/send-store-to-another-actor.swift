// expect: sending 'store' risks causing data races
// A store belongs to the isolation that made it: handing it to another actor does not compile.
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

actor Other {
  func take(_ store: Store<Counter>) {}
}

@MainActor func handOver(to other: Other) async {
  let store = Store(state: Counter(), environment: ())
  await other.take(store)
  store.send(.increment)
}
