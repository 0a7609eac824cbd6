// expect: crosses into main actor-isolated code
// `update` runs in its store's isolation: a model whose update says `@MainActor` (the spelling
// from before stores could live on any actor) no longer conforms, and the compiler says so.
import Arboreal

final class Counter: ArborealModel {
  enum Action: Sendable { case increment }
  let registrar = TrackingRegistrar()
  @Tracked private(set) var count = 0
  @MainActor func update(action: Action, environment: Void) -> Fx<Action> {
    count += 1
    return .none
  }
}
