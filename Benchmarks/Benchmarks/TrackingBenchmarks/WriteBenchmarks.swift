import ArborealTracking
import Benchmark
import Observation

/// Writes that notify nobody: with no observer at all, and with an observer of another
/// property of the same object.
func registerWriteBenchmarks() {
  // The next value to write, kept across iterations so that every write changes the value.
  let next = Sink()

  // MARK: write-unobserved: `count` of each of 1,000 models, 1,000 passes (1M writes).

  let plain = (0..<modelCount).map { _ in PlainModel() }
  let tracked = (0..<modelCount).map { _ in TrackedModel() }
  let observed = (0..<modelCount).map { _ in ObservedModel() }

  _ = Benchmark("write-unobserved/plain", configuration: .perOperation(.mega)) { benchmark in
    let models = identity(plain)
    var value = next.value
    for _ in 0..<benchmark.operations / models.count {
      value &+= 1
      for model in models { model.count = value }
      blackHole(models)
    }
    next.value = value
  }

  _ = Benchmark("write-unobserved/ours", configuration: .perOperation(.mega)) { benchmark in
    let models = identity(tracked)
    var value = next.value
    for _ in 0..<benchmark.operations / models.count {
      value &+= 1
      for model in models { model.count = value }
      blackHole(models)
    }
    next.value = value
  }

  _ = Benchmark("write-unobserved/observation", configuration: .perOperation(.mega)) {
    benchmark in
    let models = identity(observed)
    var value = next.value
    for _ in 0..<benchmark.operations / models.count {
      value &+= 1
      for model in models { model.count = value }
      blackHole(models)
    }
    next.value = value
  }

  // MARK: write-sibling-observed: as above, while `other` of every model is observed.

  benchmark(
    "write-sibling-observed/ours", .perOperation(.mega),
    setUp: { () -> ([TrackedModel], [TrackingToken], Sink) in
      let models = (0..<modelCount).map { _ in TrackedModel() }
      let sink = Sink()
      let tokens = models.map { model in
        observe { _ in
          sink.value &+= model.other
          sink.runs &+= 1
        }
      }
      return (models, tokens, sink)
    }
  ) { benchmark, state in
    let (models, _, sink) = (identity(state.0), state.1, state.2)
    let runs = sink.runs
    var value = next.value
    for _ in 0..<benchmark.operations / models.count {
      value &+= 1
      for model in models { model.count = value }
      blackHole(models)
    }
    next.value = value
    expect(sink.runs == runs, benchmark, "an observer of `other` ran")
  }

  benchmark(
    "write-sibling-observed/observation", .perOperation(.mega),
    setUp: { () -> ([ObservedModel], Sink) in
      let models = (0..<modelCount).map { _ in ObservedModel() }
      let sink = Sink()
      for model in models {
        // One-shot is enough: `other` never changes, so the registration stays in place.
        withObservationTracking {
          sink.value &+= model.other
        } onChange: {
          sink.runs &+= 1
        }
      }
      return (models, sink)
    }
  ) { benchmark, state in
    let (models, sink) = (identity(state.0), state.1)
    let runs = sink.runs
    var value = next.value
    for _ in 0..<benchmark.operations / models.count {
      value &+= 1
      for model in models { model.count = value }
      blackHole(models)
    }
    next.value = value
    expect(sink.runs == runs, benchmark, "an observer of `other` ran")
  }
}
