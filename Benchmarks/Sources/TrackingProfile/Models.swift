import ArborealTracking
import Observation

// Copies of the benchmark models (Benchmarks/TrackingBenchmarks/Models.swift). They are kept
// in this module, not shared through a library, because a model in another module would add
// a cross-module call to every property access and change what is measured.

/// `@unchecked Sendable` because nonisolated `observe` bodies must be `@Sendable`. Invariant:
/// each scenario runs on one thread, and observers run synchronously on it.
final class TrackedModel: Trackable, @unchecked Sendable {
  let registrar = TrackingRegistrar()
  @Tracked var count = 0
  @Tracked var other = 0
}

@Observable
final class ObservedModel {
  var count = 0
  var other = 0
}

/// Where observer bodies put what they read. `@unchecked Sendable`: used on one thread only,
/// and both libraries call back synchronously on the mutating thread.
final class Sink: @unchecked Sendable {
  var value = 0
  var runs = 0
}
