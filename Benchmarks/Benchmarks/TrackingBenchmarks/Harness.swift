import Benchmark

/// How many models the read and write scenarios cycle through. Every operation of a pass touches
/// a different object, so no load can be reused and no store dropped within a pass.
let modelCount = 1_000

extension Benchmark.Configuration {
  /// Wall time and allocations, per operation.
  ///
  /// `scalingFactor` is the number of operations one iteration performs (the body loops over
  /// `benchmark.scaledIterations` or an equivalent nest), so package-benchmark's own table is
  /// already per operation; `compare.sh` reads the raw per-iteration samples and divides by it
  /// for sub-nanosecond resolution. Time is recorded in nanoseconds and allocations as plain
  /// counts (the default picks K or M for large counts, and exports divide by it).
  static func perOperation(
    _ operations: BenchmarkScalingFactor, maxDuration: Duration = .seconds(1)
  ) -> Self {
    .init(
      metrics: [.wallClock, .mallocCountTotal, .throughput],
      timeUnits: .nanoseconds,
      units: [.mallocCountTotal: .count],
      warmupIterations: 3,
      scalingFactor: operations,
      maxDuration: maxDuration,
      maxIterations: 100_000
    )
  }
}

/// The state of one benchmark, built before its first iteration and released after its last,
/// so that large fixtures (100,000 observers) exist only while their own benchmark runs.
private final class Fixture<State> {
  var state: State?
}

/// Registers a benchmark whose `State` is made by `setUp` (not measured) and handed to every
/// iteration; `tearDown` runs after the last iteration, before the state is released.
func benchmark<State>(
  _ name: String,
  _ configuration: Benchmark.Configuration,
  setUp: @escaping () -> State,
  tearDown: @escaping (State) -> Void = { _ in },
  run: @escaping (Benchmark, State) -> Void
) {
  let fixture = Fixture<State>()
  var configuration = configuration
  configuration.setup = { fixture.state = setUp() }
  configuration.teardown = {
    if let state = fixture.state { tearDown(state) }
    fixture.state = nil
  }
  _ = Benchmark(name, configuration: configuration) { benchmark in
    guard let state = fixture.state else {
      benchmark.error("\(name): set-up did not run")
      return
    }
    run(benchmark, state)
  }
}

/// Reports a benchmark as failed when a check does not hold (a missed or extra notification
/// would make its timing meaningless).
func expect(
  _ condition: @autoclosure () -> Bool, _ benchmark: Benchmark, _ message: @autoclosure () -> String
) {
  if !condition() { benchmark.error("\(benchmark.name): \(message())") }
}

extension Benchmark {
  /// Operations per iteration: the configuration's `scalingFactor`.
  var operations: Int { scaledIterations.count }
}
