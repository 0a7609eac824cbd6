import ArborealTracking
import Benchmark
import Observation

// The graph shapes of the js-reactivity-benchmark suite, each built three ways and measured
// per write (one operation: the sources change, and every observer that must re-run does):
//
// - `/ours`: `Derived` values over `@Tracked` sources, with continuous `observe` observers at
//   the outputs;
// - `/observation`: the same computations as computed properties over `@Observable` sources,
//   with `withObservationTracking` loops (`ShapeObservationLoop`) at the outputs;
// - `/computed`: the outputs recomputed by plain code after each write, with no tracking.
//
// Shapes (sizes as in the suite's "kairo" cases where it has them):
// - `derived-deep`: a chain of 1,000 values, one observer at the end;
// - `derived-broad`: 1,000 values on one source, each with its own observer;
// - `derived-triangle`: a chain of 10 values and a sum of all of them, observed;
// - `derived-mux`: 100 sources gathered into one array value, split into 100 values, each
//   observed; a write changes one source;
// - `derived-repeated-observers`: one value that reads its source 30 times, observed;
// - `derived-unstable`: a value that reads one of two others, switching at every write;
// - `derived-avoidable`: a chain whose second value is equal after every write, so nothing
//   below it recomputes (ours) or is notified;
// - `derived-cellx-1000`: 1,000 layers of 4 values, each computed from the layer above; the
//   4 sources change together (in one transaction for ours).
//
// Observer runs per write are checked for ours and `Observation`: a missed or extra run fails
// the benchmark. `Observation` has no cached computed values, so it cannot cut propagation
// off (mux, avoidable); those rows show what caching buys as much as what it costs.

/// Work that stands for an expensive computation in `derived-avoidable`.
@inline(never)
func busyWork(_ seed: Int) -> Int {
  var value = seed
  for step in 0..<100 { value = value &* 31 &+ step }
  return value & 0
}

/// Four sources for `derived-cellx-1000`, all zero at first, so that every write (of `k`,
/// `2k`, `3k` and `5k`) changes all four. `@unchecked Sendable`: used on one thread only.
final class CellxSource: Trackable, @unchecked Sendable {
  let registrar = TrackingRegistrar()
  @Tracked var a = 0
  @Tracked var b = 0
  @Tracked var c = 0
  @Tracked var d = 0
}

/// The same four sources for `Observation`.
@Observable
final class ObservedCellxSource {
  var a = 0
  var b = 0
  var c = 0
  var d = 0
}

/// The last layer of cellx, computed layer by layer from the four sources (what a computed
/// property must do: without caching, a recursive definition would take 2^1000 steps).
@inline(__always)
func cellxLast(_ a: Int, _ b: Int, _ c: Int, _ d: Int, layers: Int) -> (Int, Int, Int, Int) {
  var (a, b, c, d) = (a, b, c, d)
  for _ in 0..<layers { (a, b, c, d) = (b, a &- c, b &+ d, c) }
  return (a, b, c, d)
}

/// A continuous `Observation` observer of any read, re-armed in `onChange` as
/// ``ObservationLoop`` does. `@unchecked Sendable`: used on one thread only.
final class ShapeObservationLoop: @unchecked Sendable {
  private let read: () -> Int
  private let sink: Sink
  private var isStopped = false

  init(sink: Sink, read: @escaping () -> Int) {
    self.read = read
    self.sink = sink
    arm()
  }

  private func arm() {
    withObservationTracking {
      sink.value &+= read()
    } onChange: { [self] in
      sink.runs &+= 1
      if !isStopped { arm() }
    }
  }

  func stop() { isStopped = true }
}

/// One built shape: what a write does, and how to end it.
struct BuiltShape {
  /// Changes the sources for write number `index`.
  let write: (Int) -> Void
  /// Observer runs so far.
  let runs: () -> Int
  /// Ends every observer; for `Observation`, also writes once so that no loop stays armed.
  let finish: () -> Void
}

/// A shape's three builds and the observer runs each write must cause.
struct Shape {
  let name: String
  let ours: () -> BuiltShape
  let oursRunsPerWrite: Int
  let observation: () -> BuiltShape
  let observationRunsPerWrite: Int
  /// Changes plain sources and recomputes the outputs, for write number `index`.
  let computed: () -> (Int) -> Int
}

/// Observers of ours: one continuous `observe` per output.
func observeOutputs(_ outputs: [@Sendable () -> Int], sink: Sink) -> [TrackingToken] {
  outputs.map { output in
    observe { _ in
      sink.value &+= output()
      sink.runs &+= 1
    }
  }
}

/// Ours built from sources and outputs: counts runs after the observers' first runs.
func builtOurs(
  sink: Sink, outputs: [@Sendable () -> Int], write: @escaping (Int) -> Void
) -> BuiltShape {
  let tokens = observeOutputs(outputs, sink: sink)
  let start = sink.runs
  return BuiltShape(
    write: write, runs: { sink.runs - start },
    finish: { for token in tokens { token.cancel() } })
}

/// `Observation` built from outputs: one loop each.
func builtObservation(
  sink: Sink, outputs: [() -> Int], write: @escaping (Int) -> Void
) -> BuiltShape {
  let loops = outputs.map { ShapeObservationLoop(sink: sink, read: $0) }
  return BuiltShape(
    write: write, runs: { sink.runs },
    finish: {
      for loop in loops { loop.stop() }
      write(-1)
    })
}

/// The shapes. Each `ours` keeps its values alive through the closures it returns.
func makeDerivedShapes() -> [Shape] {
  [
    Shape(
      name: "derived-deep",
      ours: {
        let sink = Sink()
        let source = TrackedModel()
        var chain = [Derived { source.count &+ 1 }]
        for _ in 1..<1_000 {
          let previous = chain[chain.count - 1]
          chain.append(Derived { previous.value &+ 1 })
        }
        let last = chain[chain.count - 1]
        return builtOurs(sink: sink, outputs: [{ last.value }]) { source.count = $0 }
      },
      oursRunsPerWrite: 1,
      observation: {
        let sink = Sink()
        let source = ObservedModel()
        // A chain of 1,000 computed properties, each a getter that reads the one before, as
        // ours is a chain of 1,000 derived values (the sum alone would skip the chain).
        var chain: [() -> Int] = [{ source.count &+ 1 }]
        for _ in 1..<1_000 {
          let previous = chain[chain.count - 1]
          chain.append { previous() &+ 1 }
        }
        return builtObservation(sink: sink, outputs: [chain[chain.count - 1]]) {
          source.count = $0
        }
      },
      observationRunsPerWrite: 1,
      computed: {
        var count = 0
        return { index in
          count = index
          var value = count
          for _ in 0..<1_000 { value &+= 1 }
          return value
        }
      }),
    Shape(
      name: "derived-broad",
      ours: {
        let sink = Sink()
        let source = TrackedModel()
        let values = (0..<1_000).map { offset in Derived { source.count &+ offset } }
        return builtOurs(sink: sink, outputs: values.map { value in { value.value } }) {
          source.count = $0
        }
      },
      oursRunsPerWrite: 1_000,
      observation: {
        let sink = Sink()
        let source = ObservedModel()
        let outputs = (0..<1_000).map { offset in { source.count &+ offset } }
        return builtObservation(sink: sink, outputs: outputs) { source.count = $0 }
      },
      observationRunsPerWrite: 1_000,
      computed: {
        var count = 0
        return { index in
          count = index
          var sum = 0
          for offset in 0..<1_000 { sum &+= count &+ offset }
          return sum
        }
      }),
    Shape(
      name: "derived-triangle",
      ours: {
        let sink = Sink()
        let source = TrackedModel()
        var chain = [Derived { source.count &+ 1 }]
        for _ in 1..<10 {
          let previous = chain[chain.count - 1]
          chain.append(Derived { previous.value &+ 1 })
        }
        let nodes = chain
        let sum = Derived { nodes.reduce(0) { $0 &+ $1.value } }
        return builtOurs(sink: sink, outputs: [{ sum.value }]) { source.count = $0 }
      },
      oursRunsPerWrite: 1,
      observation: {
        let sink = Sink()
        let source = ObservedModel()
        let sum = { (1...10).reduce(0) { $0 &+ source.count &+ $1 } }
        return builtObservation(sink: sink, outputs: [sum]) { source.count = $0 }
      },
      observationRunsPerWrite: 1,
      computed: {
        var count = 0
        return { index in
          count = index
          return (1...10).reduce(0) { $0 &+ count &+ $1 }
        }
      }),
    Shape(
      name: "derived-mux",
      ours: {
        let sink = Sink()
        let sources = (0..<100).map { _ in TrackedModel() }
        let mux = Derived { sources.map(\.count) }
        let splits = (0..<100).map { index in Derived { mux.value[index] } }
        return builtOurs(sink: sink, outputs: splits.map { split in { split.value } }) {
          sources[($0 & Int.max) % 100].count &+= 1
        }
      },
      oursRunsPerWrite: 1,
      observation: {
        let sink = Sink()
        let sources = (0..<100).map { _ in ObservedModel() }
        let mux = { sources.map(\.count) }
        let outputs = (0..<100).map { index in { mux()[index] } }
        return builtObservation(sink: sink, outputs: outputs) {
          sources[($0 & Int.max) % 100].count &+= 1
        }
      },
      observationRunsPerWrite: 100,
      computed: {
        var counts = [Int](repeating: 0, count: 100)
        return { index in
          counts[index % 100] &+= 1
          let mux = counts
          var sum = 0
          for split in 0..<100 { sum &+= mux[split] }
          return sum
        }
      }),
    Shape(
      name: "derived-repeated-observers",
      ours: {
        let sink = Sink()
        let source = TrackedModel()
        let value = Derived {
          var sum = 0
          for _ in 0..<30 { sum &+= source.count }
          return sum
        }
        return builtOurs(sink: sink, outputs: [{ value.value }]) { source.count = $0 }
      },
      oursRunsPerWrite: 1,
      observation: {
        let sink = Sink()
        let source = ObservedModel()
        let value = {
          var sum = 0
          for _ in 0..<30 { sum &+= source.count }
          return sum
        }
        return builtObservation(sink: sink, outputs: [value]) { source.count = $0 }
      },
      observationRunsPerWrite: 1,
      computed: {
        var count = 0
        return { index in
          count = index
          var sum = 0
          for _ in 0..<30 { sum &+= count }
          return sum
        }
      }),
    Shape(
      name: "derived-unstable",
      ours: {
        let sink = Sink()
        let source = TrackedModel()
        let double = Derived { source.count &* 2 }
        let inverse = Derived { 0 &- source.count }
        let current = Derived {
          var sum = 0
          for _ in 0..<20 { sum &+= source.count % 2 == 0 ? double.value : inverse.value }
          return sum
        }
        return builtOurs(sink: sink, outputs: [{ current.value }]) { source.count = $0 }
      },
      oursRunsPerWrite: 1,
      observation: {
        let sink = Sink()
        let source = ObservedModel()
        let current = {
          var sum = 0
          for _ in 0..<20 {
            sum &+= source.count % 2 == 0 ? source.count &* 2 : 0 &- source.count
          }
          return sum
        }
        return builtObservation(sink: sink, outputs: [current]) { source.count = $0 }
      },
      observationRunsPerWrite: 1,
      computed: {
        var count = 0
        return { index in
          count = index
          var sum = 0
          for _ in 0..<20 { sum &+= count % 2 == 0 ? count &* 2 : 0 &- count }
          return sum
        }
      }),
    Shape(
      name: "derived-avoidable",
      ours: {
        let sink = Sink()
        let source = TrackedModel()
        let first = Derived { source.count }
        let zero = Derived { first.value &* 0 }
        let heavy = Derived { zero.value &+ busyWork(zero.value) }
        let last = Derived { heavy.value &+ 1 }
        return builtOurs(sink: sink, outputs: [{ last.value }]) { source.count = $0 }
      },
      oursRunsPerWrite: 0,
      observation: {
        let sink = Sink()
        let source = ObservedModel()
        let last = {
          let zero = source.count &* 0
          return zero &+ busyWork(zero) &+ 1
        }
        return builtObservation(sink: sink, outputs: [last]) { source.count = $0 }
      },
      observationRunsPerWrite: 1,
      computed: {
        var count = 0
        return { index in
          count = index
          let zero = count &* 0
          return zero &+ busyWork(zero) &+ 1
        }
      }),
    Shape(
      name: "derived-cellx-1000",
      ours: {
        let sink = Sink()
        let source = CellxSource()
        var layer: [Derived<Int>] = [
          Derived { source.a }, Derived { source.b }, Derived { source.c }, Derived { source.d },
        ]
        for _ in 0..<1_000 {
          let above = layer
          layer = [
            Derived { above[1].value },
            Derived { above[0].value &- above[2].value },
            Derived { above[1].value &+ above[3].value },
            Derived { above[2].value },
          ]
        }
        let last = layer
        return builtOurs(sink: sink, outputs: last.map { value in { value.value } }) { index in
          withTransaction {
            source.a = index
            source.b = index &* 2
            source.c = index &* 3
            source.d = index &* 5
          }
        }
      },
      // Every output changes when the index moves by one: after 1,000 layers, the outputs'
      // coefficients over (a, b, c, d) give -3, -7, -2 and 2 for the step (1, 2, 3, 5).
      oursRunsPerWrite: 4,
      observation: {
        let sink = Sink()
        let source = ObservedCellxSource()
        let outputs: [() -> Int] = (0..<4).map { position in
          {
            let last = cellxLast(source.a, source.b, source.c, source.d, layers: 1_000)
            return [last.0, last.1, last.2, last.3][position]
          }
        }
        return builtObservation(sink: sink, outputs: outputs) { index in
          source.a = index
          source.b = index &* 2
          source.c = index &* 3
          source.d = index &* 5
        }
      },
      // `Observation` has no transaction: each of the four loops hears each of the four writes
      // (it re-arms in `onChange`, before the next one).
      observationRunsPerWrite: 16,
      computed: {
        var sources = (0, 0, 0, 0)
        return { index in
          sources = (index, index &* 2, index &* 3, index &* 5)
          let last = cellxLast(sources.0, sources.1, sources.2, sources.3, layers: 1_000)
          return last.0 &+ last.1 &+ last.2 &+ last.3
        }
      }),
  ]
}

/// Registers `/ours`, `/observation` and `/computed` for every shape.
func registerDerivedShapeBenchmarks() {
  for shape in makeDerivedShapes() {
    benchmark(
      "\(shape.name)/ours", .perOperation(.one), setUp: shape.ours, tearDown: { $0.finish() }
    ) { benchmark, built in
      let runs = built.runs()
      for _ in benchmark.scaledIterations { built.write(nextShapeWrite()) }
      let made = built.runs() - runs
      expect(
        made == shape.oursRunsPerWrite * benchmark.operations, benchmark,
        "\(made) observer runs for \(benchmark.operations) writes")
    }
    benchmark(
      "\(shape.name)/observation", .perOperation(.one), setUp: shape.observation,
      tearDown: { $0.finish() }
    ) { benchmark, built in
      let runs = built.runs()
      for _ in benchmark.scaledIterations { built.write(nextShapeWrite()) }
      let made = built.runs() - runs
      expect(
        made == shape.observationRunsPerWrite * benchmark.operations, benchmark,
        "\(made) observer runs for \(benchmark.operations) writes")
    }
    benchmark("\(shape.name)/computed", .perOperation(.one), setUp: shape.computed) {
      benchmark, recompute in
      var sum = 0
      for _ in benchmark.scaledIterations { sum &+= recompute(nextShapeWrite()) }
      blackHole(sum)
    }
  }
}

/// The value each write stores: always new, so that no write is of an equal value.
private nonisolated(unsafe) var shapeWriteCounter = 0

/// The next value to write. Benchmarks run on one thread.
func nextShapeWrite() -> Int {
  shapeWriteCounter &+= 1
  return shapeWriteCounter
}
