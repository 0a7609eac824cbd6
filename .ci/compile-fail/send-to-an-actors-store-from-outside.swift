// expect: cannot exit actor-isolated context
// An actor's store is reached only through the actor's methods: the property cannot leave it.
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

actor Session {
  let store: Store<Counter>
  init() { store = Store(state: Counter(), environment: ()) }
}

func poke(_ session: Session) async {
  await session.store.send(.increment)
}
