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

  let compute: @isolated(any) @Sendable () -> Element
  /// Where `compute` runs: its own isolation, or the isolation `values(of:)` was called in.
  let isolation: (any Actor)?
  let isDuplicate: (@Sendable (Element, Element) -> Bool)?

  /// Creates an iterator that starts observing at its first `next()`.
  public func makeAsyncIterator() -> Iterator {
    Iterator(compute: compute, isolation: isolation, isDuplicate: isDuplicate)
  }

  /// Produces the values of a ``TrackedValues`` sequence.
  public struct Iterator: AsyncIteratorProtocol {
    private let compute: @isolated(any) @Sendable () -> Element
    private let isolation: (any Actor)?
    private let isDuplicate: (@Sendable (Element, Element) -> Bool)?
    private var stream: AsyncStream<Element>.Iterator?
    private var token: TrackingToken?

    init(
      compute: @escaping @isolated(any) @Sendable () -> Element,
      isolation: (any Actor)?,
      isDuplicate: (@Sendable (Element, Element) -> Bool)?
    ) {
      self.compute = compute
      self.isolation = isolation
      self.isDuplicate = isDuplicate
    }

    /// The next value, waiting for a change when none is buffered.
    public mutating func next() async -> Element? {
      if stream == nil { await start() }
      return await stream?.next()
    }

    /// The next value, waiting for a change when none is buffered.
    public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
      if stream == nil { await start() }
      return await stream?.next(isolation: actor)
    }

    /// Starts observing in the sequence's isolation, wherever the iteration runs.
    private mutating func start(isolation caller: isolated (any Actor)? = #isolation) async {
      let (stream, continuation) = AsyncStream.makeStream(
        of: Element.self, bufferingPolicy: .unbounded)
      let (isolation, compute, isDuplicate) = (self.isolation, self.compute, self.isDuplicate)
      let token = await observeValues(
        on: isolation, compute: compute, isDuplicate: isDuplicate, into: continuation)
      continuation.onTermination = { _ in token.cancel() }
      self.token = token
      self.stream = stream.makeAsyncIterator()
    }
  }
}

@available(*, unavailable)
extension TrackedValues.Iterator: Sendable {}

/// Observes `compute` from inside `actor`'s isolation, so that its first run and every
/// later one happen there.
private func observeValues<Element: Sendable>(
  on actor: isolated (any Actor)?,
  compute: @escaping @isolated(any) @Sendable () -> Element,
  isDuplicate: (@Sendable (Element, Element) -> Bool)?,
  into continuation: AsyncStream<Element>.Continuation
) -> TrackingToken {
  let compute = synchronous(compute)
  var last: Element?
  let callback = UncheckedCallback(readsNames: false) { _ in
    let value = compute()
    if let isDuplicate, let previous = last, isDuplicate(previous, value) { return }
    last = value
    continuation.yield(value)
  }
  return startObserving(
    Delivery(actor), callback, origin: ObserverOrigin(fileID: #fileID, line: #line))
}

/// The value computed by `value`, now and after every transaction that changes it, as an
/// asynchronous sequence.
///
/// `value` runs in the caller's isolation, whichever task iterates: on the main actor it may
/// read a store's state or any main-actor model; from nonisolated code it must be `Sendable`
/// and runs on whichever thread makes a change.
///
/// ```swift
/// for await count in values(of: { store.state.count }) {
///   print(count)
/// }
/// ```
///
/// - Parameters:
///   - isolation: The caller's isolation; leave the default.
///   - value: Computes the value; its reads are tracked.
/// - Returns: A sequence that yields the current value first.
public func values<Element: Sendable>(
  isolation: isolated (any Actor)? = #isolation,
  @_inheritActorContext of value: @escaping @isolated(any) @Sendable () -> Element
) -> TrackedValues<Element> {
  TrackedValues(compute: value, isolation: value.isolation ?? isolation, isDuplicate: nil)
}

/// The value computed by `value`, now and after every transaction that changes it to a
/// different value, as an asynchronous sequence.
///
/// `value` runs in the caller's isolation, whichever task iterates (see
/// ``values(isolation:of:)-3oej9``).
///
/// - Parameters:
///   - isolation: The caller's isolation; leave the default.
///   - value: Computes the value; its reads are tracked.
/// - Returns: A sequence that yields the current value first, then each different value.
public func values<Element: Sendable & Equatable>(
  isolation: isolated (any Actor)? = #isolation,
  @_inheritActorContext of value: @escaping @isolated(any) @Sendable () -> Element
) -> TrackedValues<Element> {
  TrackedValues(
    compute: value, isolation: value.isolation ?? isolation, isDuplicate: { $0 == $1 })
}
