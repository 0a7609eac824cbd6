import Arboreal

/// A model whose one action does real work: a few microseconds of arithmetic on its state.
///
/// The work is 2,000 rounds of xorshift64 on `seed`: three shifts and three exclusive ors per
/// round, each round needing the last, so the optimiser can neither fold nor vectorise it. It
/// takes about 3 µs here. A plain send costs about 10 ns, so without it the ratio would
/// measure starting the tasks and hopping onto the actors, not two stores' updates running
/// side by side; with it, each action is long enough that scheduling is noise, as in a
/// server whose sessions do real work per request.
final class Mixer: ArborealModel {
  enum Action: Sendable {
    case mix
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
  @Tracked private(set) var count = 0

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .mix:
      var x = seed
      for _ in 0..<2_000 {
        x ^= x << 13
        x ^= x >> 7
        x ^= x << 17
      }
      seed = x
      count &+= 1
      return .none
    }
  }
}

/// A session: an actor that owns a store. The store is made in a method, not in `init`
/// (inside an initialiser `#isolation` is nil until every stored property is set), so it
/// belongs to the actor, and so do its updates.
actor Session {
  private var store: Store<Mixer>?

  /// Makes the store, on this actor.
  func start() {
    store = Store(state: Mixer(), environment: ())
  }

  /// Sends `actions` actions in a loop on this actor (no hop per send) and returns how many
  /// the model has handled in all.
  func run(_ actions: Int) -> Int {
    guard let store else { return 0 }
    for _ in 0..<actions { store.send(.mix) }
    return store.state.count
  }
}
