/// A class whose properties can be tracked.
///
/// Conform by storing a ``TrackingRegistrar`` and marking properties ``Tracked``:
///
/// ```swift
/// final class Person: Trackable {
///   let registrar = TrackingRegistrar()
///   @Tracked var firstName = "Ada"
///   @Tracked var age = 36
/// }
/// ```
public protocol Trackable: AnyObject {
  /// The registrar that records reads of this instance's properties and notifies their
  /// observers. Return the same registrar every time (store it in a `let`).
  var registrar: TrackingRegistrar { get }
}
