import ArborealTracking

// Five of the derived shapes (DerivedShapesBenchmarks), one write repeated `count` times:
// the deep chain, mux and cellx, for their instruction counts per recomputed value, and
// avoidable and unstable (without the benchmark's busy work), for the fixed cost of a write.

/// Four sources, as `CellxSource` in the benchmarks. `@unchecked Sendable`: one thread.
final class ProfileCellxSource: Trackable, @unchecked Sendable {
  let registrar = TrackingRegistrar()
  @Tracked var a = 0
  @Tracked var b = 0
  @Tracked var c = 0
  @Tracked var d = 0
}

/// Observes `read` continuously, counting runs in `sink`.
private func observeOutput(_ sink: Sink, _ read: @escaping @Sendable () -> Int) -> TrackingToken {
  observe { _ in
    sink.value &+= read()
    sink.runs &+= 1
  }
}

let shapeScenarios: [String: @Sendable (Int) -> Void] = [
  "deep/ours": { count in
    let source = TrackedModel()
    var chain = [Derived { source.count &+ 1 }]
    for _ in 1..<1_000 {
      let previous = chain[chain.count - 1]
      chain.append(Derived { previous.value &+ 1 })
    }
    let last = chain[chain.count - 1]
    let sink = Sink()
    let token = observeOutput(sink) { last.value }
    for index in 0..<count { source.count = index &+ 1 }
    precondition(sink.runs == count + 1)
    token.cancel()
  },
  "mux/ours": { count in
    let sources = (0..<100).map { _ in TrackedModel() }
    let mux = Derived { sources.map(\.count) }
    let splits = (0..<100).map { index in Derived { mux.value[index] } }
    let sink = Sink()
    let tokens = splits.map { split in observeOutput(sink) { split.value } }
    for index in 0..<count { sources[index % 100].count = index &+ 1 }
    precondition(sink.runs == 100 + count)
    for token in tokens { token.cancel() }
  },
  "avoidable/ours": { count in
    let source = TrackedModel()
    let first = Derived { source.count }
    let zero = Derived { first.value &* 0 }
    let heavy = Derived { zero.value &+ 1 }
    let last = Derived { heavy.value &+ 1 }
    let sink = Sink()
    let token = observeOutput(sink) { last.value }
    for index in 0..<count { source.count = index &+ 1 }
    precondition(sink.runs == 1)
    token.cancel()
  },
  // A deliberate twin of `derived-unstable` in DerivedShapesBenchmarks (the same graph, so that
  // its instruction counts explain the benchmark's times); change both together.
  "unstable/ours": { count in
    let source = TrackedModel()
    let double = Derived { source.count &* 2 }
    let inverse = Derived { 0 &- source.count }
    let current = Derived {
      var sum = 0
      for _ in 0..<20 { sum &+= source.count % 2 == 0 ? double.value : inverse.value }
      return sum
    }
    let sink = Sink()
    let token = observeOutput(sink) { current.value }
    for index in 0..<count { source.count = index &+ 1 }
    precondition(sink.runs == count + 1)
    token.cancel()
  },
  "cellx/ours": { count in
    let source = ProfileCellxSource()
    var layer: [Derived<Int>] = [
      Derived { source.a }, Derived { source.b }, Derived { source.c }, Derived { source.d },
    ]
    for _ in 0..<1_000 {
      let (a, b, c, d) = (layer[0], layer[1], layer[2], layer[3])
      layer = [
        Derived { b.value }, Derived { a.value &- c.value }, Derived { b.value &+ d.value },
        Derived { c.value },
      ]
    }
    let outputs = layer
    let sink = Sink()
    let tokens = outputs.map { output in observeOutput(sink) { output.value } }
    for index in 0..<count {
      let k = index &+ 1
      withTransaction {
        source.a = k
        source.b = 2 &* k
        source.c = 3 &* k
        source.d = 5 &* k
      }
    }
    keep(sink.runs)
    for token in tokens { token.cancel() }
  },
]
