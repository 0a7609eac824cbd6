import Benchmark

// Every scenario exists as `<scenario>/ours` (ArborealTracking) and `<scenario>/observation`
// (the toolchain's Observation module), on identical models (see Models.swift), plus
// `<scenario>/plain` (a plain final class) where a floor exists. `compare.sh` pairs them.
//
// How the optimiser is kept honest:
// - Results are kept: reads are summed and the sum goes to `blackHole`, or observer bodies
//   add what they read to a `Sink` (a store into an escaped object, which cannot be removed).
// - Inputs are opaque: model arrays pass through `identity` (an `@_optimize(none)` function),
//   so nothing about them is known at compile time.
// - Loops cannot be folded: within a pass every operation touches a different model, and
//   `blackHole(models)` after each pass is an opaque call that may read or write every model,
//   so loads cannot be hoisted out of the pass loop nor stores merged across passes. Writes
//   store a new value each time, so `@Observable`'s equal-value shortcut never applies.
// - Observer scenarios check afterwards that every expected notification arrived (and no
//   other), and fail the benchmark otherwise.
let benchmarks: @Sendable () -> Void = {
  registerReadBenchmarks()
  registerWriteBenchmarks()
  registerObserverBenchmarks()
  registerScaleBenchmarks()
  registerStoreBenchmarks()
  registerBridgeBenchmarks()
  registerInPlaceBenchmarks()
  registerLocalBenchmarks()
  registerDevtoolsBenchmarks()
  registerPersistBenchmarks()
  registerViewerBenchmarks()
  registerDerivedBenchmarks()
  registerDerivedShapeBenchmarks()
  registerChildBenchmarks()
}
