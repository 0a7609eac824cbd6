import ArborealTracking

/// Runs `read` so that the enclosing Arboreal tracking scope also depends on the `Observation`
/// properties it reads (properties of `@Observable` classes).
///
/// Use it where an Arboreal model or observer reads an `@Observable` object, such as an
/// existing service:
///
/// ```swift
/// @Observable final class Session {
///   var userName = "ada"
/// }
///
/// final class AppModel: ArborealModel {
///   let registrar = TrackingRegistrar()
///   let session: Session
///   var greeting: String { trackingObservation { "Hello, \(session.userName)" } }
///   // ...
/// }
///
/// let token = observe { _ in print(app.greeting) }
/// session.userName = "grace"  // prints "Hello, grace"
/// ```
///
/// Inside `withTracking` or `observe`, `read` runs inside `Observation`'s
/// `withObservationTracking`, and the first change of a property it read counts as a change
/// for the Arboreal scope. Outside any tracking scope, `read` just runs.
///
/// ## Delivery
/// - Arboreal's observer is notified after the `Observation` property changed (it sees the new
///   value), synchronously on the mutating thread, then in the observer's own isolation as
///   for any change. The change is named `observation` in `TrackingChanges`:
///   `Observation` does not say which property changed.
/// - Each call is one `Observation` registration that ends at its first change: a continuous
///   `observe` re-runs and registers again, so it sees every change that happens after its
///   run.
/// - A change made while `read` is running, or between the end of `read` and the end of this
///   call, may be missed: `Observation` starts listening only when `read` returns.
/// - A `withTransaction` groups these changes with the others made in it on the same thread.
/// - After the Arboreal observer is cancelled, the `Observation` registration lingers until the
///   next change of a property it read, or until the `@Observable` object is released (a small
///   object each); that change then notifies nobody.
///
/// - Parameter read: The reads of `@Observable` properties; runs once, now.
/// - Returns: What `read` returns.
/// - Complexity: Outside tracking, one check. Inside tracking, one `Observation` registration
///   for the properties `read` reads, plus an allocation.
public func trackingObservation<T>(_ read: () -> T) -> T {
  guard isTrackingAccesses else { return read() }
  return ObservationForwarder.track(read)
}
