/// A value captured by a closure that the tracking layer requires to be `Sendable`, where the
/// closure runs only in the isolation that made the value: an observer's callback or a derived
/// value's computation registered in the store's isolation runs there (the tracking layer
/// delivers in the registering isolation).
///
/// Invariant (why `@unchecked Sendable` holds): made in one isolation and read only by closures
/// that run in that same isolation, as above; never handed to anything else.
struct IsolatedBox<Value>: @unchecked Sendable {
  let value: Value
}
