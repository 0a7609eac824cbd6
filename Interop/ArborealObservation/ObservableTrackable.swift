import ArborealTracking
import Observation

/// A `Trackable` model that the toolchain's `Observation` (and so SwiftUI) can observe.
///
/// Conform, and create the model's registrar with
/// ``ArborealTracking/TrackingRegistrar/observable()``:
///
/// ```swift
/// import ArborealObservation
///
/// final class Counter: ObservableTrackable {
///   let registrar = TrackingRegistrar.observable()
///   @Tracked var count = 0
/// }
///
/// let counter = Counter()
/// withObservationTracking {
///   _ = counter.count
/// } onChange: {
///   print("count will be re-read")
/// }
/// counter.count += 1  // prints "count will be re-read"
/// ```
///
/// The model is then both: Arboreal's `withTracking` and `observe` see its reads as they see
/// any model's, and every read of a tracked property (a `@Tracked` one, or a hand-written
/// accessor calling `registrar.access(_:)`) is also an `Observation` read, property by
/// property; every change is also an `Observation` change.
///
/// ## Delivery
/// `Observation` hears of a change after the new value is stored: its `willSet` and `didSet`
/// both happen then, so an `onChange` closure (which `Observation` calls on `willSet`) already
/// sees the new value. Changes are forwarded one by one, as they happen: a `withTransaction`
/// batches Arboreal's observers, not `Observation`'s. A write of an equal `Equatable` value is
/// no change for either. `withoutTracking` hides reads from Arboreal's tracking only:
/// `Observation` still sees them.
///
/// ## Cost
/// Models that do not opt in pay nothing. An opted-in model's reads and writes always take
/// the registrar's slow path: each looks up the property's key path (a few loads, no lock,
/// once it is formed) and calls `Observation`; a write takes the registrar's lock only when
/// an Arboreal observer may see the property (see the benchmarks' `bridged-read`,
/// `bridged-write` and `bridged-tracked-read` rows).
///
/// Conforming without an ``ArborealTracking/TrackingRegistrar/observable()`` registrar
/// compiles but forwards nothing; ``isBridgedToObservation`` tells.
public protocol ObservableTrackable: Trackable, Observable {}

extension ObservableTrackable {
  /// Whether this model's registrar forwards its reads and changes to `Observation`: true
  /// when it was made with ``ArborealTracking/TrackingRegistrar/observable()``.
  public var isBridgedToObservation: Bool { registrar.mirror is ObservationMirror }
}
