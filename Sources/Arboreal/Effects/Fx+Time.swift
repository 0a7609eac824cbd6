extension Fx {
  /// The same effects, each started `duration` after the store starts it, on `clock`.
  ///
  /// ```swift
  /// case .showToast(let text):
  ///   toast = text
  ///   return Fx { .hideToast }.delay(for: .seconds(3), clock: environment.clock)
  /// ```
  ///
  /// Take the clock from the environment (`var clock: any Clock<Duration> = ContinuousClock()`),
  /// so that a test can pass `ArborealTesting`'s `TestClock` and move time itself. The wait
  /// begins when the store starts the effect (during the `send` whose update returned it), not
  /// when the effect's task gets to run. Delaying an `Fx` that is already delayed waits for
  /// both, one after the other. A cancelled effect that is still waiting ends without running.
  /// Cancellations in this `Fx` are not delayed.
  ///
  /// - Parameters:
  ///   - duration: How long to wait before each effect starts.
  ///   - clock: The clock to wait on.
  /// - Returns: The delayed effects.
  /// - Complexity: O(*n*) for *n* effects.
  public func delay(for duration: Duration, clock: any Clock<Duration>) -> Fx {
    Fx(
      effects: effects.map { effect in
        guard case .run(var work) = effect else { return effect }
        work.delays.insert(DelayStep(duration: duration, clock: clock), at: 0)
        return .run(work)
      })
  }

  /// The same effects, started only once `duration` has passed without another debounced `Fx`
  /// with the same `id` being returned: the latest one wins, the earlier ones never start.
  ///
  /// ```swift
  /// case .queryChanged(let query):
  ///   self.query = query
  ///   return Fx { .resultsLoaded(await environment.search(query)) }
  ///     .debounce(id: SearchID(), for: .milliseconds(300), clock: environment.clock)
  /// ```
  ///
  /// A debounced effect is cancellable by `id` (``cancel(id:)``), while it waits and while it
  /// runs; a new debounced `Fx` with the same `id` cancels it in both cases.
  ///
  /// - Parameters:
  ///   - id: The identifier the debounced effects share, scoped like any cancellation
  ///     identifier.
  ///   - duration: How long to wait for a quieter moment.
  ///   - clock: The clock to wait on.
  /// - Returns: The debounced effects.
  /// - Complexity: O(*n*) for *n* effects.
  public func debounce(
    id: some Hashable & Sendable, for duration: Duration, clock: any Clock<Duration>
  ) -> Fx {
    delay(for: duration, clock: clock).cancellable(id: id, cancelInFlight: true)
  }

  /// The same effects, started at once unless a throttled `Fx` with the same `id` started less
  /// than `duration` ago: then they are dropped.
  ///
  /// ```swift
  /// case .refreshTapped:
  ///   return Fx { .refreshed(await environment.feed()) }
  ///     .throttle(id: RefreshID(), for: .seconds(1), clock: environment.clock)
  /// ```
  ///
  /// The window opens when the effects start and lasts `duration` on `clock`, whether they end
  /// sooner or later. The effects (not the window) are cancellable by `id`; ``cancel(id:)``
  /// stops them, and the window stays open.
  ///
  /// - Parameters:
  ///   - id: The identifier the throttled effects share, scoped like any cancellation
  ///     identifier.
  ///   - duration: How long after a start further starts are dropped.
  ///   - clock: The clock the window is measured on.
  /// - Returns: The throttled effects, and the window.
  /// - Complexity: O(*n*) for *n* effects.
  public func throttle(
    id: some Hashable & Sendable, for duration: Duration, clock: any Clock<Duration>
  ) -> Fx {
    let window = CancelID(ThrottleWindow(id: id))
    var throttled = cancellable(id: id).effects.map { effect -> FxEntry<Action> in
      guard case .run(var work) = effect else { return effect }
      work.unlessRunning = window
      return .run(work)
    }
    guard throttled.contains(where: { if case .run = $0 { true } else { false } }) else {
      return Fx(effects: throttled)
    }
    throttled.append(
      .run(
        FxEntry.Work(
          operation: { _ in },
          cancelIDs: [window],
          unlessRunning: window,
          delays: [DelayStep(duration: duration, clock: clock)])))
    return Fx(effects: throttled)
  }
}

/// The identifier of a throttle's window: a type of its own, so that it never equals the
/// throttled effects' own identifier.
private struct ThrottleWindow<ID: Hashable & Sendable>: Hashable, Sendable {
  let id: ID
}
