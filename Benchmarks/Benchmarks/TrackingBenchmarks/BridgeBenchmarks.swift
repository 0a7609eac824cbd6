import ArborealObservation
import ArborealTracking
import Benchmark
import Observation

/// `TrackedModel` opted in to the `Observation` bridge (`ArborealObservation`): the same three
/// `Int` properties, over a registrar made with `TrackingRegistrar.observable()`.
final class BridgedModel: ObservableTrackable {
  let registrar = TrackingRegistrar.observable()
  @Tracked var count = 0
  @Tracked var other = 0
  @Tracked var third = 0
}

/// What the `Observation` bridge costs a model that opts in. Each `bridged-*/bridged`
/// scenario is the matching unbridged scenario (`untracked-read`, `write-unobserved`,
/// `tracked-read-1`) run on `BridgedModel`; `compare.sh` sets it against both ours unbridged
/// and `@Observable`. (A model that does not opt in is measured by the unbridged scenarios
/// themselves, whose ratios must not move.)
func registerBridgeBenchmarks() {
  let next = Sink()
  let bridged = (0..<modelCount).map { _ in BridgedModel() }

  // MARK: bridged-read: `count` of each of 1,000 bridged models, 1,000 passes (1M reads),
  // outside any tracking closure.

  _ = Benchmark("bridged-read/bridged", configuration: .perOperation(.mega)) { benchmark in
    let models = identity(bridged)
    var sum = 0
    for _ in 0..<benchmark.operations / models.count {
      for model in models { sum &+= model.count }
      blackHole(models)
    }
    blackHole(sum)
  }

  // MARK: bridged-write: `count` of each of 1,000 bridged models, 1,000 passes (1M writes),
  // nothing observes anything.

  _ = Benchmark("bridged-write/bridged", configuration: .perOperation(.mega)) { benchmark in
    let models = identity(bridged)
    var value = next.value
    for _ in 0..<benchmark.operations / models.count {
      value &+= 1
      for model in models { model.count = value }
      blackHole(models)
    }
    next.value = value
  }

  // MARK: bridged-tracked-read: reads of a bridged model inside `withObservationTracking`,
  // 1,000 closures × 1,000 reads, as `tracked-read-1/observation` does on `@Observable`.

  benchmark(
    "bridged-tracked-read/bridged", .perOperation(.mega), setUp: { (BridgedModel(), Sink()) }
  ) { benchmark, state in
    let (model, sink) = state
    let runs = sink.runs
    for _ in 0..<1_000 {
      withObservationTracking {
        var sum = 0
        for _ in 0..<1_000 { sum &+= model.count }
        sink.value &+= sum
      } onChange: {
        sink.runs &+= 1
      }
    }
    benchmark.stopMeasurement()
    model.count &+= 1
    expect(sink.runs - runs == 1_000, benchmark, "\(sink.runs - runs) fired")
  }
}
