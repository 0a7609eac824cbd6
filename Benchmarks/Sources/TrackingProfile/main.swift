// A driver for instruction-count profiling, without package-benchmark (valgrind cannot run a
// binary linked with its malloc interposer). It repeats one operation of a scenario `count`
// times:
//
//   swift build -c release --product TrackingProfile
//   valgrind --tool=callgrind .build/release/TrackingProfile oneshot/ours 10000
//
// Run it with two counts and divide the difference in instructions by the difference in
// counts to get instructions per operation, free of start-up and set-up costs.

/// Keeps a value alive for the optimiser: an opaque call it cannot see through.
@inline(never) @_optimize(none)
func keep<T>(_ value: T) {}

/// Hides a value's origin from the optimiser.
@inline(never) @_optimize(none)
func opaque<T>(_ value: T) -> T { value }

let arguments = CommandLine.arguments
let everyScenario = scenarios.merging(movedScenarios) { first, _ in first }
  .merging(shapeScenarios) { first, _ in first }
  .merging(childScenarios) { first, _ in first }
  .merging(taggedChildScenarios) { first, _ in first }
let names = everyScenario.keys.sorted().joined(separator: ", ")
guard arguments.count >= 2, let run = everyScenario[arguments[1]] else {
  fatalError("usage: TrackingProfile <scenario> [count]; scenarios: \(names)")
}
run(arguments.count >= 3 ? Int(arguments[2]) ?? 1_000 : 1_000)
