import ArborealTracking
import Benchmark
import Observation

/// How many items the derived-read scenario sums.
let derivedItemCount = 1_000

/// How many derived values sit between the input and the bottom of the diamond.
let diamondWidth = 998

/// Ours: a sum over a tracked list, as a derived value and as a plain computed property.
///
/// `@unchecked Sendable` because nonisolated `observe` bodies must be `@Sendable`.
/// Invariant: a benchmark runs on one thread (see ``Sink``).
final class DerivedSumModel: Trackable, @unchecked Sendable {
  let registrar = TrackingRegistrar()
  @Tracked var items: [Int]
  @Derived({ (model: DerivedSumModel) in model.items.reduce(0, &+) }) var sum: Int

  /// The same sum, recomputed on every read.
  var computedSum: Int { items.reduce(0, &+) }

  init() {
    items = Array(0..<derivedItemCount)
  }
}

/// The anchor: the same sum as a computed property of an `@Observable` class.
@Observable
final class ObservedSumModel {
  var items = Array(0..<derivedItemCount)
  var computedSum: Int { items.reduce(0, &+) }
}

/// Ours: a total over 1,000 row models, each with its own registrar, as a derived value and
/// as a computed property.
///
/// Invariant (why `@unchecked Sendable` holds): a benchmark runs on one thread (see ``Sink``).
final class DerivedRowsModel: Trackable, @unchecked Sendable {
  let registrar = TrackingRegistrar()
  @Tracked var rows: [TrackedModel]
  @Derived({ (model: DerivedRowsModel) in model.rows.reduce(0) { $0 &+ $1.count } }) var total: Int

  /// The same total, recomputed on every read.
  var computedTotal: Int { rows.reduce(0) { $0 &+ $1.count } }

  init() {
    rows = (0..<derivedItemCount).map { _ in TrackedModel() }
  }
}

/// The anchor: the same total over `@Observable` rows.
@Observable
final class ObservedRowsModel {
  var rows = (0..<derivedItemCount).map { _ in ObservedModel() }
  var computedTotal: Int { rows.reduce(0) { $0 &+ $1.count } }
}

/// A diamond of 1,000 derived values: one input, `diamondWidth` values that each read it, and
/// one at the bottom that reads them all, with one observer.
///
/// Invariant (why `@unchecked Sendable` holds): built, written and observed on the
/// benchmark's one thread; the nodes' computations capture it, so it must be `Sendable`.
final class DerivedDiamond: @unchecked Sendable {
  let input = TrackedModel()
  var middle: [Derived<Int>] = []
  var bottom: Derived<Int>?

  init() {
    for offset in 0..<diamondWidth {
      middle.append(Derived { [input] in input.count &+ offset })
    }
    bottom = Derived { [self] in
      var sum = 0
      for node in middle { sum &+= node.value }
      return sum
    }
  }
}

/// The anchor's diamond: the same graph as computed properties of an `@Observable` model.
@Observable
final class ObservedDiamond {
  var count = 0

  func middle(_ offset: Int) -> Int { count &+ offset }

  var bottom: Int {
    var sum = 0
    for offset in 0..<diamondWidth { sum &+= middle(offset) }
    return sum
  }
}

/// A continuous Observation observer of the diamond's bottom (see ``ObservationLoop``).
///
/// Invariant (why `@unchecked Sendable` holds): used on one thread only.
final class DiamondObservationLoop: @unchecked Sendable {
  private let diamond: ObservedDiamond
  private let sink: Sink
  private var isStopped = false

  init(diamond: ObservedDiamond, sink: Sink) {
    self.diamond = diamond
    self.sink = sink
    arm()
  }

  private func arm() {
    withObservationTracking {
      sink.value &+= diamond.bottom
    } onChange: { [self] in
      sink.runs &+= 1
      if !isStopped { arm() }
    }
  }

  /// Ends the loop with one more write, so that no registration outlives the benchmark.
  func flush() {
    isStopped = true
    diamond.count &+= 1
  }
}

/// Derived values: a cached read against recomputing, and a write through a wide graph.
func registerDerivedBenchmarks() {
  // MARK: derived-read: read the sum of 1,000 items, cached or recomputed.

  benchmark(
    "derived-read/ours", .perOperation(.kilo),
    setUp: { () -> DerivedSumModel in
      let model = DerivedSumModel()
      _ = model.sum
      return model
    }
  ) { benchmark, model in
    var total = 0
    for _ in benchmark.scaledIterations {
      total &+= model.sum
      blackHole(model)
    }
    blackHole(total)
  }

  benchmark(
    "derived-read/computed", .perOperation(.kilo),
    setUp: { DerivedSumModel() }
  ) { benchmark, model in
    var total = 0
    for _ in benchmark.scaledIterations {
      total &+= model.computedSum
      blackHole(model)
    }
    blackHole(total)
  }

  benchmark(
    "derived-read/observation", .perOperation(.kilo),
    setUp: { ObservedSumModel() }
  ) { benchmark, model in
    var total = 0
    for _ in benchmark.scaledIterations {
      total &+= model.computedSum
      blackHole(model)
    }
    blackHole(total)
  }

  // MARK: derived-read-rows: read the total of 1,000 row models, cached or recomputed.

  benchmark(
    "derived-read-rows/ours", .perOperation(.kilo),
    setUp: { () -> DerivedRowsModel in
      let model = DerivedRowsModel()
      _ = model.total
      return model
    }
  ) { benchmark, model in
    var total = 0
    for _ in benchmark.scaledIterations {
      total &+= model.total
      blackHole(model)
    }
    blackHole(total)
  }

  benchmark(
    "derived-read-rows/computed", .perOperation(.kilo),
    setUp: { DerivedRowsModel() }
  ) { benchmark, model in
    var total = 0
    for _ in benchmark.scaledIterations {
      total &+= model.computedTotal
      blackHole(model)
    }
    blackHole(total)
  }

  benchmark(
    "derived-read-rows/observation", .perOperation(.kilo),
    setUp: { ObservedRowsModel() }
  ) { benchmark, model in
    var total = 0
    for _ in benchmark.scaledIterations {
      total &+= model.computedTotal
      blackHole(model)
    }
    blackHole(total)
  }

  // MARK: derived-diamond-1000: a write of the input, one observer at the bottom.

  benchmark(
    "derived-diamond-1000/ours", .perOperation(.one),
    setUp: { () -> (DerivedDiamond, TrackingToken, Sink) in
      let diamond = DerivedDiamond()
      let sink = Sink()
      let bottom = diamond.bottom
      let token = observe { [diamond] _ in
        sink.value &+= diamond.bottom?.value ?? 0
        sink.runs &+= 1
      }
      _ = bottom
      return (diamond, token, sink)
    }
  ) { benchmark, state in
    let (diamond, _, sink) = state
    let runs = sink.runs
    for _ in benchmark.scaledIterations {
      diamond.input.count &+= 1
    }
    let notified = sink.runs - runs
    expect(notified == benchmark.operations, benchmark, "\(notified) notifications")
  }

  benchmark(
    "derived-diamond-1000/observation", .perOperation(.one),
    setUp: { () -> (ObservedDiamond, DiamondObservationLoop, Sink) in
      let diamond = ObservedDiamond()
      let sink = Sink()
      return (diamond, DiamondObservationLoop(diamond: diamond, sink: sink), sink)
    },
    tearDown: { state in state.1.flush() }
  ) { benchmark, state in
    let (diamond, _, sink) = state
    let runs = sink.runs
    for _ in benchmark.scaledIterations {
      diamond.count &+= 1
    }
    let notified = sink.runs - runs
    expect(notified == benchmark.operations, benchmark, "\(notified) notifications")
  }
}
