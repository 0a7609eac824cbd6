import ArborealTracking
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
final class TrackedModel: Trackable {
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
