import Arboreal
import Benchmark

// The store's own overhead, against calling `update` directly on the same model.
//
// - `send-vs-update`: `Store.send` of a synchronous action whose update returns `Fx.none`,
//   against calling `update(action:environment:)` directly (one tracked write each).
// - `viewstore-vs-store`: the same child action sent through a `ViewStore` scoped to the child,
//   against sending the parent's tagged action to the parent store.
// - `forward-vs-tag`: a child action sent to the parent store, forwarded with `forward`,
//   against the same parent calling the child's update directly and returning its `Fx.none`
//   (what mapping the effects by hand with the former `Fx.tag` cost, a nil check, when there
//   were none).
// - `effect-roundtrip`: a send whose effect returns an action, awaited until that action has
//   been handled (`await store.send(...).value`).
// - `actor-send-vs-main-send`: `send-vs-update/send` (a plain send: one tracked write,
//   `Fx.none`) on a store made in an actor's method and sent to in a loop inside that method
//   (one hop onto the actor per iteration, none per send), against the same loop on the main
//   actor.
//
// Except for `actor-send-vs-main-send/actor`, the store lives on the main actor, so these
// benchmarks run their bodies there. Every operation changes the model (the counter only
// grows), and the final count is checked.

/// A counter: the smallest model with an update.
final class BenchCounter: ArborealModel {
  enum Action: Codable, Sendable {
    case increment
    case load
    case loaded(Int)
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var count = 0

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .increment:
      count &+= 1
      return .none
    case .load:
      return Fx { .loaded(1) }
    case .loaded(let value):
      count &+= value
      return .none
    }
  }
}

/// A parent holding a counter, for scoping.
final class BenchParent: ArborealModel {
  enum Action: Sendable {
    case child(BenchCounter.Action)
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var child = BenchCounter()

  static let child = ChildRoute.child(\BenchParent.child, tag: Action.child)

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .child(let action):
      return forward(action, to: Self.child, environment: ())
    }
  }
}

/// The same parent, calling the child's update directly (its effects are always `Fx.none`):
/// the anchor of `forward-vs-tag`.
final class BenchTagParent: ArborealModel {
  enum Action: Sendable {
    case child(BenchCounter.Action)
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var child = BenchCounter()

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .child(let action):
      // The child never returns effects: nothing to forward, so none is lost.
      _ = child.update(action: action, environment: ())
      return .none
    }
  }
}

/// A parent presenting a counter as a sheet and the same kind of counter as a case of an
/// enumeration of destinations (with a second case of the same type, so that the case is
/// checked): `destination-vs-presented`.
final class BenchPresenter: ArborealModel {
  enum Destination: ModelCases {
    case counter(BenchCounter)
    case other(BenchCounter)

    enum Action: Sendable {
      case counter(BenchCounter.Action)
      case other(BenchCounter.Action)
    }

    var child: CaseChild<Destination> {
      switch self {
      case .counter(let counter): .model(counter, action: Action.counter)
      case .other(let counter): .model(counter, action: Action.other)
      }
    }

    static func child(of action: Action) -> CaseAction<Destination> {
      switch action {
      case .counter(let action): .model(action, in: Destination.counter)
      case .other(let action): .model(action, in: Destination.other)
      }
    }
  }

  enum Action: Sendable {
    case sheet(PresentationAction<BenchCounter.Action>)
    case destination(PresentationAction<Destination.Action>)
  }

  static let sheet = ChildRoute.child(\BenchPresenter.sheet, tag: Action.sheet)
  static let destination = ChildRoute.destination(
    \BenchPresenter.destination, tag: Action.destination)

  let registrar = TrackingRegistrar()
  @Tracked private(set) var sheet: BenchCounter? = BenchCounter()
  @Tracked private(set) var destination: Destination? = .counter(BenchCounter())

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .sheet(let action):
      forward(action, to: Self.sheet, environment: ())
    case .destination(let action):
      forward(action, to: Self.destination, environment: ())
    }
  }
}

/// An actor that owns stores: the store made in its method belongs to it, and so does the loop.
actor BenchSession {
  /// Makes a counter's store on this actor, sends it `count` increments in a loop here and
  /// returns the final count: the body of `send-vs-update/send`, in the actor's isolation.
  func sendIncrements(_ count: Int) -> Int {
    let store = Store(state: BenchCounter(), environment: ())
    for _ in 0..<count { store.send(.increment) }
    return store.state.count
  }
}

/// Fails the benchmark when the count is not what the operations should have made it.
@MainActor
func check(_ count: Int, _ expected: Int, _ benchmark: Benchmark) {
  if count != expected {
    benchmark.error("expected a count of \(expected), found \(count)")
  }
}

func registerStoreBenchmarks() {
  _ = Benchmark("send-vs-update/send", configuration: .perOperation(.mega)) {
    @MainActor benchmark async in
    let store = Store(state: BenchCounter(), environment: ())
    for _ in benchmark.scaledIterations { store.send(.increment) }
    check(store.state.count, benchmark.scaledIterations.count, benchmark)
  }

  _ = Benchmark("send-vs-update/update", configuration: .perOperation(.mega)) {
    @MainActor benchmark async in
    let model = identity(BenchCounter())
    for _ in benchmark.scaledIterations {
      blackHole(model.update(action: .increment, environment: ()))
    }
    check(model.count, benchmark.scaledIterations.count, benchmark)
  }

  _ = Benchmark("viewstore-vs-store/viewstore", configuration: .perOperation(.mega)) {
    @MainActor benchmark async in
    let store = Store(state: BenchParent(), environment: ())
    let child = store.viewStore(BenchParent.child)
    for _ in benchmark.scaledIterations { child.send(.increment) }
    check(store.state.child.count, benchmark.scaledIterations.count, benchmark)
  }

  _ = Benchmark("viewstore-vs-store/store", configuration: .perOperation(.mega)) {
    @MainActor benchmark async in
    let store = Store(state: BenchParent(), environment: ())
    for _ in benchmark.scaledIterations { store.send(.child(.increment)) }
    check(store.state.child.count, benchmark.scaledIterations.count, benchmark)
  }

  _ = Benchmark("forward-vs-tag/forward", configuration: .perOperation(.mega)) {
    @MainActor benchmark async in
    let store = Store(state: BenchParent(), environment: ())
    for _ in benchmark.scaledIterations { store.send(.child(.increment)) }
    check(store.state.child.count, benchmark.scaledIterations.count, benchmark)
  }

  _ = Benchmark("forward-vs-tag/tag", configuration: .perOperation(.mega)) {
    @MainActor benchmark async in
    let store = Store(state: BenchTagParent(), environment: ())
    for _ in benchmark.scaledIterations { store.send(.child(.increment)) }
    check(store.state.child.count, benchmark.scaledIterations.count, benchmark)
  }

  _ = Benchmark("destination-vs-presented/destination", configuration: .perOperation(.mega)) {
    @MainActor benchmark async in
    let store = Store(state: BenchPresenter(), environment: ())
    for _ in benchmark.scaledIterations { store.send(.destination(.presented(.counter(.increment)))) }
    check(
      store.state.destination?[case: BenchPresenter.Destination.counter]?.count ?? -1,
      benchmark.scaledIterations.count, benchmark)
  }

  _ = Benchmark("destination-vs-presented/presented", configuration: .perOperation(.mega)) {
    @MainActor benchmark async in
    let store = Store(state: BenchPresenter(), environment: ())
    for _ in benchmark.scaledIterations { store.send(.sheet(.presented(.increment))) }
    check(store.state.sheet?.count ?? -1, benchmark.scaledIterations.count, benchmark)
  }

  _ = Benchmark("actor-send-vs-main-send/actor", configuration: .perOperation(.mega)) {
    @MainActor benchmark async in
    let session = BenchSession()
    let count = await session.sendIncrements(benchmark.scaledIterations.count)
    check(count, benchmark.scaledIterations.count, benchmark)
  }

  _ = Benchmark("actor-send-vs-main-send/main", configuration: .perOperation(.mega)) {
    @MainActor benchmark async in
    let store = Store(state: BenchCounter(), environment: ())
    for _ in 0..<benchmark.scaledIterations.count { store.send(.increment) }
    check(store.state.count, benchmark.scaledIterations.count, benchmark)
  }

  _ = Benchmark("effect-roundtrip/send", configuration: .perOperation(.kilo)) {
    @MainActor benchmark async in
    let store = Store(state: BenchCounter(), environment: ())
    for _ in benchmark.scaledIterations { await store.send(.load).value }
    check(store.state.count, benchmark.scaledIterations.count, benchmark)
  }
}
