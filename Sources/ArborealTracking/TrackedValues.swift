/// An asynchronous sequence of a value derived from tracked properties: the current value
/// first, then one element per transaction that changed it.
///
/// Make one with `values(of:)`. Each iterator observes on its own, from its first `next()`
/// until it is released; values computed while the consumer is busy are buffered in order, so
/// no transaction's value is skipped. The sequence is `Sendable` and can be handed to an
/// effect or a task.
///
/// ```swift
/// for await count in values(of: { counter.count }) {
///   print(count)
/// }
/// ```
public struct TrackedValues<Element: Sendable>: AsyncSequence, Sendable {
  /// The element type's failure: iterating never throws.
  public typealias Failure = Never

  let compute: @Sendable () -> Element
  let isDuplicate: (@Sendable (Element, Element) -> Bool)?

  /// Creates an iterator that starts observing at its first `next()`.
  public func makeAsyncIterator() -> Iterator {
    Iterator(compute: compute, isDuplicate: isDuplicate)
  }

  /// Produces the values of a ``TrackedValues`` sequence.
  public struct Iterator: AsyncIteratorProtocol {
    private let compute: @Sendable () -> Element
    private let isDuplicate: (@Sendable (Element, Element) -> Bool)?
    private var stream: AsyncStream<Element>.Iterator?
    private var token: TrackingToken?

    init(
      compute: @escaping @Sendable () -> Element,
      isDuplicate: (@Sendable (Element, Element) -> Bool)?
    ) {
      self.compute = compute
      self.isDuplicate = isDuplicate
    }

    /// The next value, waiting for a change when none is buffered.
    public mutating func next() async -> Element? {
      if stream == nil { start() }
      return await stream?.next()
    }

    /// The next value, waiting for a change when none is buffered.
    public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
      if stream == nil { start() }
      return await stream?.next(isolation: actor)
    }

    private mutating func start() {
      let (stream, continuation) = AsyncStream.makeStream(
        of: Element.self, bufferingPolicy: .unbounded)
      let compute = self.compute
      let isDuplicate = self.isDuplicate
      let last = LastValue<Element>()
      // Nonisolated: the body runs synchronously on whichever thread makes the change.
      token = observeNonisolated { (_: TrackingChanges) in
        let value = compute()
        if let isDuplicate, let previous = last.value, isDuplicate(previous, value) { return }
        last.value = value
        continuation.yield(value)
      }
      let token = self.token
      continuation.onTermination = { _ in token?.cancel() }
      self.stream = stream.makeAsyncIterator()
    }
  }
}

@available(*, unavailable)
extension TrackedValues.Iterator: Sendable {}

/// Observes without an isolation, whatever the caller's.
private func observeNonisolated(_ body: @escaping @Sendable (TrackingChanges) -> Void)
  -> TrackingToken
{
  observe(isolation: nil, body)
}

/// The last value a `TrackedValues` iterator yielded.
///
/// Invariant: only touched from inside one observer's body, and an observer's runs never
/// overlap, so accesses are serialised (each run happens-after the previous one through the
/// observer's lock).
private final class LastValue<Element>: @unchecked Sendable {
  var value: Element?
}

/// The value computed by `value`, now and after every transaction that changes it, as an
/// asynchronous sequence.
///
/// - Parameter value: Computes the value; its reads are tracked. It runs on whichever thread
///   makes a change, so it must be `Sendable`.
/// - Returns: A sequence that yields the current value first.
public func values<Element: Sendable>(
  of value: @escaping @Sendable () -> Element
) -> TrackedValues<Element> {
  TrackedValues(compute: value, isDuplicate: nil)
}

/// The value computed by `value`, now and after every transaction that changes it to a
/// different value, as an asynchronous sequence.
///
/// - Parameter value: Computes the value; its reads are tracked. It runs on whichever thread
///   makes a change, so it must be `Sendable`.
/// - Returns: A sequence that yields the current value first, then each different value.
public func values<Element: Sendable & Equatable>(
  of value: @escaping @Sendable () -> Element
) -> TrackedValues<Element> {
  TrackedValues(compute: value, isDuplicate: { $0 == $1 })
}
