// The `willSet:didSet:` form of `withObservationTracking` is SPI of the toolchain's
// Observation (SwiftUI uses it). It is the only way to be told after an `Observation`
// property changed; the public `onChange` runs before, when the old value is still stored,
// which would make an Arboreal observer re-run with stale values.
import ArborealTracking
@_spi(SwiftUI) import Observation
import Synchronization

/// One `Observation` registration forwarded to Arboreal: a registrar with a single key, read
/// by the Arboreal scope, and changed when `Observation` reports the first change.
///
/// Arboreal observers refer to registrars without retaining them, so the forwarder is kept
/// alive by the `Observation` registration's closure until it fires (or the `@Observable`
/// object goes), which is exactly as long as the dependency can fire.
final class ObservationForwarder: Sendable {
  /// The name Arboreal's `TrackingChanges` gives such a change.
  static let key = TrackingKey("observation")

  private let registrar = TrackingRegistrar()
  /// Set by the first change; later reports of the same registration are ignored.
  private let fired = Atomic<Bool>(false)

  /// Runs `read` with both the Arboreal read and the `Observation` registration in place.
  static func track<T>(_ read: () -> T) -> T {
    let forwarder = ObservationForwarder()
    // The Arboreal read first: a change forwarded from now on reaches the scope, even one that
    // lands before the scope has finished registering.
    forwarder.registrar.access(key)
    return withObservationTracking(
      read, willSet: { _ in }, didSet: { _ in forwarder.fire() })
  }

  private func fire() {
    guard !fired.exchange(true, ordering: .acquiringAndReleasing) else { return }
    registrar.didChange(Self.key)
  }
}
