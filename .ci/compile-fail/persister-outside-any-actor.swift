// expect: cannot be called from outside of the actor
// A persister's booked saves hop back to the actor it was made on: made where no actor is known
// (a nonisolated function), it does not compile, rather than never saving until `finish()`.
import Arboreal
import ArborealPersistence

final class Counter: ReplayableModel {
  enum Action: Sendable { case increment }
  let registrar = TrackingRegistrar()
  @Tracked private(set) var count = 0
  init() {}
  init(snapshot: Int) { count = snapshot }
  var snapshot: Int { count }
  func update(action: Action, environment: Void) -> Fx<Action> {
    count += 1
    return .none
  }
}

nonisolated func outsideAnyActor(_ file: PersistedFile<Counter>) async throws {
  let store = Store(state: Counter(), environment: ())
  let persister = try StorePersister(store, to: file)
  store.send(.increment)
  await persister.finish()
}
