/// A heap cell that observer bodies and callbacks add what they read to.
///
/// Storing into an object that escapes is an effect the optimiser must keep, so a body that
/// reads a property and adds it here cannot be removed, yet costs only a load and a store.
/// `runs` counts callbacks, so each benchmark can check that every notification arrived.
///
/// `@unchecked Sendable` because `withObservationTracking` wants a `@Sendable` `onChange`.
/// Invariant: a benchmark runs on one thread, and both libraries call back synchronously on
/// the mutating thread when observing from nonisolated code, so no two threads ever touch a
/// sink.
final class Sink: @unchecked Sendable {
  var value = 0
  var runs = 0
}
