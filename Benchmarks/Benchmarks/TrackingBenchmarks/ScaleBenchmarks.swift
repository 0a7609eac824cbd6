import ArborealTracking
import Benchmark
import Observation

/// Observers of other models in the fan-out scenarios.
private let bystanderCount = 100_000
/// Models one observer reads in the registration scenario.
private let registrationWidth = 1_000

/// How costs grow with the number of observers and with what one observer reads.
func registerScaleBenchmarks() {
  // MARK: fanout-100k / fanout-none: a write notifying the one observer of its model, while
  // 100,000 continuous observers watch 100,000 other models (or none do). Fan-out should be
  // O(affected observers): the two should cost the same.

  for bystanders in [bystanderCount, 0] {
    let suffix = bystanders == 0 ? "none" : "100k"

    benchmark(
      "fanout-\(suffix)/ours", .perOperation(.kilo),
      setUp: { () -> (TrackedModel, Sink, [TrackedModel], [TrackingToken], Sink) in
        let model = TrackedModel()
        let sink = Sink()
        let others = (0..<bystanders).map { _ in TrackedModel() }
        let othersSink = Sink()
        var tokens = others.map { other in
          observe { _ in
            othersSink.value &+= other.count
            othersSink.runs &+= 1
          }
        }
        tokens.append(
          observe { _ in
            sink.value &+= model.count
            sink.runs &+= 1
          })
        return (model, sink, others, tokens, othersSink)
      }
    ) { benchmark, state in
      let (model, sink, othersSink) = (state.0, state.1, state.4)
      let (runs, othersRuns) = (sink.runs, othersSink.runs)
      var value = model.count
      for _ in benchmark.scaledIterations {
        value &+= 1
        model.count = value
      }
      let delivered = sink.runs - runs
      expect(delivered == benchmark.operations, benchmark, "\(delivered) runs")
      expect(othersSink.runs == othersRuns, benchmark, "a bystander ran")
    }

    benchmark(
      "fanout-\(suffix)/observation", .perOperation(.kilo),
      setUp: { () -> (ObservedModel, Sink, [ObservationLoop], Sink) in
        let model = ObservedModel()
        let sink = Sink()
        let othersSink = Sink()
        var loops = (0..<bystanders).map { _ in
          ObservationLoop(model: ObservedModel(), sink: othersSink)
        }
        loops.append(ObservationLoop(model: model, sink: sink))
        return (model, sink, loops, othersSink)
      },
      tearDown: { ObservationLoop.flush($0.2) }
    ) { benchmark, state in
      let (model, sink, othersSink) = (state.0, state.1, state.3)
      let (runs, othersRuns) = (sink.runs, othersSink.runs)
      var value = model.count
      for _ in benchmark.scaledIterations {
        value &+= 1
        model.count = value
      }
      let delivered = sink.runs - runs
      expect(delivered == benchmark.operations, benchmark, "\(delivered) runs")
      expect(othersSink.runs == othersRuns, benchmark, "a bystander ran")
    }
  }

  // MARK: register-1000: one one-shot observer whose closure reads `count` of 1,000 models.
  //
  // One operation is one registration. After the measurement stops, a write to one of the
  // models fires the observer, which removes its 1,000 registrations.

  benchmark(
    "register-1000/ours", .perOperation(.one),
    setUp: { ((0..<registrationWidth).map { _ in TrackedModel() }, Sink()) }
  ) { benchmark, state in
    let (models, sink) = (identity(state.0), state.1)
    let runs = sink.runs
    withTracking {
      for model in models { sink.value &+= model.count }
    } onChange: { _ in
      sink.runs &+= 1
    }
    benchmark.stopMeasurement()
    models[0].count &+= 1
    expect(sink.runs - runs == 1, benchmark, "\(sink.runs - runs) fired")
  }

  benchmark(
    "register-1000/observation", .perOperation(.one),
    setUp: { ((0..<registrationWidth).map { _ in ObservedModel() }, Sink()) }
  ) { benchmark, state in
    let (models, sink) = (identity(state.0), state.1)
    let runs = sink.runs
    withObservationTracking {
      for model in models { sink.value &+= model.count }
    } onChange: {
      sink.runs &+= 1
    }
    benchmark.stopMeasurement()
    models[0].count &+= 1
    expect(sink.runs - runs == 1, benchmark, "\(sink.runs - runs) fired")
  }
}
