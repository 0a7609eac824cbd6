import Arboreal
import Benchmark

// Children that come and go, against the same work done by hand: the parent runs each row's
// effect itself, cancellable by the row's id, and cancels it when it removes the row
// (`cancellable(id:)` and `cancel(id:)`; mapping a child's effects by hand with `Fx.tag(key:_:)`
// no longer compiles).
//
// - `remove-child-with-effects`: 10,000 rows each run an effect that waits until cancelled;
//   one action removes them all. Only the removal is measured; one iteration removes 10,000
//   rows, which `compare.sh` divides by (package-benchmark has no scaling factor of 10,000).
// - `push-pop`: push a screen, start its effect, pop it: three actions; per push and pop.

/// A row or a screen whose one effect waits until it is cancelled.
final class BenchRow: ArborealModel, Identifiable {
  enum Action: Sendable {
    case start
    case done
  }

  let registrar = TrackingRegistrar()
  let id: Int
  @Tracked private(set) var isDone = false

  init(id: Int) {
    self.id = id
  }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .start:
      return .run { _ in try? await Task.sleep(for: .seconds(3_600)) }
    case .done:
      isDone = true
      return .none
    }
  }
}

/// Rows forwarded with `forward`: their effects end when they leave.
final class BenchForwardList: ArborealModel {
  enum Action: Sendable {
    case row(id: Int, BenchRow.Action)
    case startAll
    case removeAll
    case path(StackAction<BenchRow.Action>)
    case push
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var rows: [BenchRow]
  @Tracked private(set) var path = ModelStack<BenchRow>()

  static let rows = ChildRoute.children(\BenchForwardList.rows, tag: Action.row)
  static let path = ChildRoute.stack(\BenchForwardList.path, tag: Action.path)

  init(count: Int) {
    rows = (0..<count).map(BenchRow.init)
  }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .row(let id, let action):
      return forward(action, to: Self.rows, id: id, environment: ())
    case .startAll:
      return .merge(rows.map { forward(.start, to: Self.rows, child: $0, environment: ()) })
    case .removeAll:
      rows.removeAll()
      return .none
    case .path(let action):
      return forward(action, to: Self.path, environment: ())
    case .push:
      path.push(BenchRow(id: 0))
      return .none
    }
  }
}

/// The same rows, whose effects the parent runs and cancels by hand, by the row's id.
final class BenchTaggedList: ArborealModel {
  enum Action: Sendable {
    case row(id: Int, BenchRow.Action)
    case startAll
    case removeAll
    case push
    case pop
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var rows: [BenchRow]
  private var nextID = 0

  init(count: Int) {
    rows = (0..<count).map(BenchRow.init)
  }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .row(let id, .start):
      guard rows.last(where: { $0.id == id }) != nil else { return .none }
      return Self.rowEffect(id: id)
    case .row(let id, .done):
      _ = rows.last { $0.id == id }?.update(action: .done, environment: ())
      return .none
    case .startAll:
      return .merge(rows.map { Self.rowEffect(id: $0.id) })
    case .removeAll:
      let ids = rows.map(\.id)
      rows.removeAll()
      return .merge(ids.map { .cancel(id: RowEffectID(id: $0)) })
    case .push:
      nextID += 1
      rows.append(BenchRow(id: nextID))
      return .none
    case .pop:
      guard let row = rows.popLast() else { return .none }
      return .cancel(id: RowEffectID(id: row.id))
    }
  }

  /// Identifies one row's effect among the parent's.
  struct RowEffectID: Hashable, Sendable {
    let id: Int
  }

  /// The row's effect (``BenchRow``'s `start`), run by the parent, cancellable by the row's id.
  private static func rowEffect(id: Int) -> Fx<Action> {
    Fx<Action>.run { _ in try? await Task.sleep(for: .seconds(3_600)) }
      .cancellable(id: RowEffectID(id: id))
  }
}

private let rowCount = 10_000

func registerChildBenchmarks() {
  _ = Benchmark(
    "remove-child-with-effects/forward",
    configuration: .perOperation(.one, maxDuration: .seconds(2))
  ) { @MainActor benchmark async in
    let store = Store(state: BenchForwardList(count: rowCount), environment: ())
    store.send(.startAll)
    benchmark.startMeasurement()
    store.send(.removeAll)
    benchmark.stopMeasurement()
    if store.state.rows.count != 0 { benchmark.error("rows left") }
    await store.finish()
  }

  _ = Benchmark(
    "remove-child-with-effects/tagged",
    configuration: .perOperation(.one, maxDuration: .seconds(2))
  ) { @MainActor benchmark async in
    let store = Store(state: BenchTaggedList(count: rowCount), environment: ())
    store.send(.startAll)
    benchmark.startMeasurement()
    store.send(.removeAll)
    benchmark.stopMeasurement()
    if store.state.rows.count != 0 { benchmark.error("rows left") }
    await store.finish()
  }

  _ = Benchmark("push-pop/forward", configuration: .perOperation(.kilo)) {
    @MainActor benchmark async in
    let store = Store(state: BenchForwardList(count: 0), environment: ())
    for _ in benchmark.scaledIterations {
      store.send(.push)
      let id = store.state.path.id(at: 0)
      store.send(.path(.element(id: id, action: .start)))
      store.send(.path(.popFrom(id: id)))
    }
    if !store.state.path.isEmpty { benchmark.error("screens left") }
    await store.finish()
  }

  _ = Benchmark("push-pop/tagged", configuration: .perOperation(.kilo)) {
    @MainActor benchmark async in
    let store = Store(state: BenchTaggedList(count: 0), environment: ())
    for _ in benchmark.scaledIterations {
      store.send(.push)
      let id = store.state.rows[0].id
      store.send(.row(id: id, .start))
      store.send(.pop)
    }
    if !store.state.rows.isEmpty { benchmark.error("screens left") }
    await store.finish()
  }
}
