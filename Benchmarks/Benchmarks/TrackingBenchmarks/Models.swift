import ArborealTracking
import Benchmark
import Observation

// The same model three times: every scenario runs on identical shapes (three `Int`
// properties), so the only difference between a pair is the tracking machinery.

/// The floor: plain stored properties, no tracking at all.
final class PlainModel {
  var count = 0
  var other = 0
  var third = 0
}

/// Ours: `@Tracked` properties over a `TrackingRegistrar`.
///
/// `@unchecked Sendable` because nonisolated `observe` bodies must be `@Sendable`.
/// Invariant: a benchmark runs on one thread, and observers run synchronously on it (see
/// ``Sink``).
final class TrackedModel: Trackable, @unchecked Sendable {
  let registrar = TrackingRegistrar()
  @Tracked var count = 0
  @Tracked var other = 0
  @Tracked var third = 0
}

/// The anchor: the toolchain's `@Observable`.
@Observable
final class ObservedModel {
  var count = 0
  var other = 0
  var third = 0
}

/// A second floor: a plain stored property whose getter may call out (here never does).
///
/// Any tracking read has such a call on a cold branch. When models come from an array, its
/// mere presence makes the compiler keep each model retained across the read, which a plain
/// property read is spared; this model measures that cost apart from any registrar. The call
/// goes to `blackHole`, in another module, so the optimiser cannot see that it releases
/// nothing.
final class HookedModel {
  private var storage = 0
  var count: Int {
    if hookEnabled.isOn { blackHole(self) }
    return storage
  }
}

/// The switch for `HookedModel`'s call-out; never on.
final class HookSwitch: @unchecked Sendable {
  var isOn = false
}

/// Never on.
let hookEnabled = HookSwitch()
