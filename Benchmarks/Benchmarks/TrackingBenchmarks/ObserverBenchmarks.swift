import ArborealTracking
import Benchmark
import Observation

/// Registering and notifying observers.
func registerObserverBenchmarks() {
  // MARK: oneshot-register-fire: register a one-shot observer of `count`, then write it.

  benchmark(
    "oneshot-register-fire/ours", .perOperation(.kilo), setUp: { (TrackedModel(), Sink()) }
  ) { benchmark, state in
    let (model, sink) = state
    let runs = sink.runs
    var value = model.count
    for _ in benchmark.scaledIterations {
      withTracking {
        sink.value &+= model.count
      } onChange: { _ in
        sink.runs &+= 1
      }
      value &+= 1
      model.count = value
    }
    let fired = sink.runs - runs
    expect(fired == benchmark.operations, benchmark, "\(fired) fired")
  }

  benchmark(
    "oneshot-register-fire/observation", .perOperation(.kilo),
    setUp: { (ObservedModel(), Sink()) }
  ) { benchmark, state in
    let (model, sink) = state
    let runs = sink.runs
    var value = model.count
    for _ in benchmark.scaledIterations {
      withObservationTracking {
        sink.value &+= model.count
      } onChange: {
        sink.runs &+= 1
      }
      value &+= 1
      model.count = value
    }
    let fired = sink.runs - runs
    expect(fired == benchmark.operations, benchmark, "\(fired) fired")
  }

  // MARK: notify-N: one write notifies N continuous observers of the written property.
  //
  // Ours: N `observe` bodies, each re-run after the write. Observation: N `ObservationLoop`s,
  // each re-registering `withObservationTracking` in `onChange` (Observation has no public
  // synchronous continuous observer; see ObservationLoop.swift). One operation is one write.

  for observers in [1, 10, 100] {
    benchmark(
      "notify-\(observers)/ours", .perOperation(.kilo, maxDuration: .seconds(2)),
      setUp: { () -> (TrackedModel, [TrackingToken], Sink) in
        let model = TrackedModel()
        let sink = Sink()
        let tokens = (0..<observers).map { _ in
          observe { _ in
            sink.value &+= model.count
            sink.runs &+= 1
          }
        }
        return (model, tokens, sink)
      }
    ) { benchmark, state in
      let (model, _, sink) = state
      let runs = sink.runs
      var value = model.count
      for _ in benchmark.scaledIterations {
        value &+= 1
        model.count = value
      }
      let delivered = sink.runs - runs
      expect(
        delivered == observers * benchmark.operations, benchmark,
        "\(delivered) runs")
    }

    benchmark(
      "notify-\(observers)/observation", .perOperation(.kilo, maxDuration: .seconds(2)),
      setUp: { () -> (ObservedModel, [ObservationLoop], Sink) in
        let model = ObservedModel()
        let sink = Sink()
        let loops = (0..<observers).map { _ in ObservationLoop(model: model, sink: sink) }
        return (model, loops, sink)
      },
      tearDown: { ObservationLoop.flush($0.1) }
    ) { benchmark, state in
      let (model, _, sink) = state
      let runs = sink.runs
      var value = model.count
      for _ in benchmark.scaledIterations {
        value &+= 1
        model.count = value
      }
      let delivered = sink.runs - runs
      expect(
        delivered == observers * benchmark.operations, benchmark,
        "\(delivered) runs")
    }
  }
}
