import ArborealTracking
import Benchmark
import Observation

/// One-shot tracking closures per iteration in the tracked-read scenarios.
private let closuresPerIteration = 1_000
/// Reads (or groups of three reads) inside each tracking closure.
private let readsPerClosure = 1_000

/// Reads outside any tracking closure, and reads inside one.
func registerReadBenchmarks() {
  let plain = (0..<modelCount).map { _ in PlainModel() }
  let tracked = (0..<modelCount).map { _ in TrackedModel() }
  let observed = (0..<modelCount).map { _ in ObservedModel() }
  let hooked = (0..<modelCount).map { _ in HookedModel() }

  // MARK: untracked-read: `count` of each of 1,000 models, 1,000 passes (1M reads).

  _ = Benchmark("untracked-read/plain", configuration: .perOperation(.mega)) { benchmark in
    let models = identity(plain)
    var sum = 0
    for _ in 0..<benchmark.operations / models.count {
      for model in models { sum &+= model.count }
      blackHole(models)
    }
    blackHole(sum)
  }

  _ = Benchmark("untracked-read/plain-hook", configuration: .perOperation(.mega)) { benchmark in
    let models = identity(hooked)
    var sum = 0
    for _ in 0..<benchmark.operations / models.count {
      for model in models { sum &+= model.count }
      blackHole(models)
    }
    blackHole(sum)
  }

  _ = Benchmark("untracked-read/ours", configuration: .perOperation(.mega)) { benchmark in
    let models = identity(tracked)
    var sum = 0
    for _ in 0..<benchmark.operations / models.count {
      for model in models { sum &+= model.count }
      blackHole(models)
    }
    blackHole(sum)
  }

  _ = Benchmark("untracked-read/observation", configuration: .perOperation(.mega)) { benchmark in
    let models = identity(observed)
    var sum = 0
    for _ in 0..<benchmark.operations / models.count {
      for model in models { sum &+= model.count }
      blackHole(models)
    }
    blackHole(sum)
  }

  // MARK: tracked-read-1 / tracked-read-3: reads inside a one-shot tracking closure.
  //
  // An iteration runs 1,000 tracking closures that each read the property (or three
  // properties) 1,000 times: one operation is one read (or one group of three reads), and the
  // closure's set-up and registration are spread over its 1,000 reads. After the measurement
  // stops, one write fires and removes the 1,000 one-shot registrations, so they do not pile
  // up across iterations.

  benchmark(
    "tracked-read-1/ours", .perOperation(.mega), setUp: { (TrackedModel(), Sink()) }
  ) { benchmark, state in
    let (model, sink) = state
    let runs = sink.runs
    for _ in 0..<closuresPerIteration {
      withTracking {
        var sum = 0
        for _ in 0..<readsPerClosure { sum &+= model.count }
        sink.value &+= sum
      } onChange: { _ in
        sink.runs &+= 1
      }
    }
    benchmark.stopMeasurement()
    model.count &+= 1
    expect(sink.runs - runs == closuresPerIteration, benchmark, "\(sink.runs - runs) fired")
  }

  benchmark(
    "tracked-read-1/observation", .perOperation(.mega), setUp: { (ObservedModel(), Sink()) }
  ) { benchmark, state in
    let (model, sink) = state
    let runs = sink.runs
    for _ in 0..<closuresPerIteration {
      withObservationTracking {
        var sum = 0
        for _ in 0..<readsPerClosure { sum &+= model.count }
        sink.value &+= sum
      } onChange: {
        sink.runs &+= 1
      }
    }
    benchmark.stopMeasurement()
    model.count &+= 1
    expect(sink.runs - runs == closuresPerIteration, benchmark, "\(sink.runs - runs) fired")
  }

  benchmark(
    "tracked-read-3/ours", .perOperation(.mega), setUp: { (TrackedModel(), Sink()) }
  ) { benchmark, state in
    let (model, sink) = state
    let runs = sink.runs
    for _ in 0..<closuresPerIteration {
      withTracking {
        var sum = 0
        for _ in 0..<readsPerClosure { sum &+= model.count &+ model.other &+ model.third }
        sink.value &+= sum
      } onChange: { _ in
        sink.runs &+= 1
      }
    }
    benchmark.stopMeasurement()
    model.third &+= 1
    expect(sink.runs - runs == closuresPerIteration, benchmark, "\(sink.runs - runs) fired")
  }

  benchmark(
    "tracked-read-3/observation", .perOperation(.mega), setUp: { (ObservedModel(), Sink()) }
  ) { benchmark, state in
    let (model, sink) = state
    let runs = sink.runs
    for _ in 0..<closuresPerIteration {
      withObservationTracking {
        var sum = 0
        for _ in 0..<readsPerClosure { sum &+= model.count &+ model.other &+ model.third }
        sink.value &+= sum
      } onChange: {
        sink.runs &+= 1
      }
    }
    benchmark.stopMeasurement()
    model.third &+= 1
    expect(sink.runs - runs == closuresPerIteration, benchmark, "\(sink.runs - runs) fired")
  }
}

/// Reads and writes of one model held in a local, beside the array-held scenarios: a model
/// taken from an array is retained and released around any access that may call out, which
/// these variants leave out, so that they show the registrar's own cost. The opaque
/// `blackHole(model)` after each operation keeps every load and store in the loop.
func registerLocalBenchmarks() {
  // MARK: untracked-read-local: `count` of one model, 1M reads.

  _ = Benchmark("untracked-read-local/plain", configuration: .perOperation(.mega)) { benchmark in
    let model = identity(PlainModel())
    var sum = 0
    for _ in 0..<benchmark.operations {
      sum &+= model.count
      blackHole(model)
    }
    blackHole(sum)
  }

  _ = Benchmark("untracked-read-local/ours", configuration: .perOperation(.mega)) { benchmark in
    let model = identity(TrackedModel())
    var sum = 0
    for _ in 0..<benchmark.operations {
      sum &+= model.count
      blackHole(model)
    }
    blackHole(sum)
  }

  _ = Benchmark("untracked-read-local/observation", configuration: .perOperation(.mega)) {
    benchmark in
    let model = identity(ObservedModel())
    var sum = 0
    for _ in 0..<benchmark.operations {
      sum &+= model.count
      blackHole(model)
    }
    blackHole(sum)
  }

  // MARK: write-unobserved-local: `count` of one model, 1M writes of new values.

  _ = Benchmark("write-unobserved-local/plain", configuration: .perOperation(.mega)) {
    benchmark in
    let model = identity(PlainModel())
    for index in 0..<benchmark.operations {
      model.count = index
      blackHole(model)
    }
  }

  _ = Benchmark("write-unobserved-local/ours", configuration: .perOperation(.mega)) {
    benchmark in
    let model = identity(TrackedModel())
    for index in 0..<benchmark.operations {
      model.count = index
      blackHole(model)
    }
  }

  _ = Benchmark("write-unobserved-local/observation", configuration: .perOperation(.mega)) {
    benchmark in
    let model = identity(ObservedModel())
    for index in 0..<benchmark.operations {
      model.count = index
      blackHole(model)
    }
  }
}
