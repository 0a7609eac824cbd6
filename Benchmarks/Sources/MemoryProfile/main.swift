// Bytes held by models and registrations, ours against the toolchain's Observation, from the
// allocator's count of bytes in use before and after making `count` of each thing (and
// keeping them alive). Prints a table, then one line `memory: key=value ...` for scripts.
//
//   swift run -c release MemoryProfile [count]

import AllocatorStatistics
import ArborealTracking
import Observation

// The models repeat Benchmarks/TrackingBenchmarks/Models.swift on purpose, as
// TrackingProfile's do: each executable keeps its own, so that no shared module changes how
// their accesses compile, and this one carries no package-benchmark dependency.

/// The floor: the same stored properties, no tracking.
final class PlainModel {
  var count = 0
  var other = 0
  var third = 0
}

/// Ours.
///
/// `@unchecked Sendable` because nonisolated `observe` bodies must be `@Sendable`.
/// Invariant: this program runs on one thread.
final class TrackedModel: Trackable, @unchecked Sendable {
  let registrar = TrackingRegistrar()
  @Tracked var count = 0
  @Tracked var other = 0
  @Tracked var third = 0
}

/// The anchor.
///
/// `@unchecked Sendable` for the same reason, with the same invariant.
@Observable
final class ObservedModel: @unchecked Sendable {
  var count = 0
  var other = 0
  var third = 0
}

/// Bytes the allocator has handed out and not taken back.
func bytesInUse() -> Int { Int(allocator_bytes_in_use()) }

/// The bytes `make` leaves allocated per item, for `count` items kept alive until measured.
func bytesPerItem<T>(_ count: Int, _ make: () -> T) -> Double {
  var kept: [T] = []
  kept.reserveCapacity(count)
  let before = bytesInUse()
  for _ in 0..<count { kept.append(make()) }
  let after = bytesInUse()
  withExtendedLifetime(kept) {}
  return Double(after - before) / Double(count)
}

/// The bytes registrations leave allocated, per registration, for `count` models made first
/// (not counted) and `register` called once per model.
func bytesPerRegistration<Model, Kept>(
  _ count: Int, model: () -> Model, register: (Model) -> Kept
) -> Double {
  let models = (0..<count).map { _ in model() }
  var kept: [Kept] = []
  kept.reserveCapacity(count)
  let before = bytesInUse()
  for model in models { kept.append(register(model)) }
  let after = bytesInUse()
  withExtendedLifetime((models, kept)) {}
  return Double(after - before) / Double(count)
}

/// A sink observer bodies write to, so that their reads are kept.
///
/// Invariant (why `@unchecked Sendable` holds): this program runs on one thread.
final class Sink: @unchecked Sendable {
  var value = 0
}

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 100_000 : 100_000
let sink = Sink()

let plain = bytesPerItem(count) { PlainModel() }
let ours = bytesPerItem(count) { TrackedModel() }
let observed = bytesPerItem(count) { ObservedModel() }

// One one-shot registration of one property per model.
let oneShotOurs = bytesPerRegistration(count, model: { TrackedModel() }) { model in
  withTracking {
    sink.value &+= model.count
  } onChange: { _ in
    sink.value &+= 1
  }
}
let oneShotObservation = bytesPerRegistration(count, model: { ObservedModel() }) { model in
  withObservationTracking {
    sink.value &+= model.count
  } onChange: {
    sink.value &+= 1
  }
}

// One continuous observer of one property per model.
let continuousOurs = bytesPerRegistration(count, model: { TrackedModel() }) { model in
  observe { _ in sink.value &+= model.count }
}

// One observer that reads 1,000 models (ours), or one registration over 1,000 models.
let group = 1_000
let wideOurs =
  bytesPerRegistration(
    count / group, model: { (0..<group).map { _ in TrackedModel() } }
  ) { models in
    observe { _ in for model in models { sink.value &+= model.count } }
  }
let wideObservation =
  bytesPerRegistration(
    count / group, model: { (0..<group).map { _ in ObservedModel() } }
  ) { models in
    withObservationTracking {
      for model in models { sink.value &+= model.count }
    } onChange: {
      sink.value &+= 1
    }
  }

func format(_ bytes: Double) -> String { String(Int(bytes.rounded())) }

print("| memory (bytes, \(count) of each) | ours | Observation | plain class |")
print("|---|---:|---:|---:|")
print("| per idle model | \(format(ours)) | \(format(observed)) | \(format(plain)) |")
print(
  "| per one-shot registration of one property | \(format(oneShotOurs)) | \(format(oneShotObservation)) | - |"
)
print("| per continuous observer of one property | \(format(continuousOurs)) | - | - |")
print(
  "| per observer that read 1,000 models | \(format(wideOurs)) | \(format(wideObservation)) | - |")
print()
let overPlain = ours - plain
let registrationRatio = oneShotOurs / oneShotObservation
print(
  "memory: bytes-idle-model-over-plain=\(format(overPlain)) "
    + "bytes-per-registration-ratio=\((registrationRatio * 1_000).rounded() / 1_000)")
