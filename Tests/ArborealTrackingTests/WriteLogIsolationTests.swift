import ArborealTestSupport
import Testing

@testable import ArborealTracking

/// The thread's write log, driven the way the store drives it (a transaction, then a recording
/// that shares its span; set and set back; a write kept by an observer), in every isolation:
/// nonisolated, the main actor, another actor, a detached task.
@Suite struct WriteLogIsolationTests {
  /// A model with two properties, shared with the isolation a test runs in.
  ///
  /// `@unchecked Sendable`: each test touches an instance from one isolation at a time (made,
  /// written and read in turn, never concurrently).
  final class Tally: Trackable, @unchecked Sendable {
    let registrar = TrackingRegistrar()
    @Tracked var count = 0
    @Tracked var step = 1
  }

  /// A store's logged send, by hand: a transaction, a recording sharing its span, an update
  /// that sets `count` and back and sets `step`, the recording's end, the transaction's close.
  ///
  /// The observer's runs go to `log`; one that the isolation queues may come after this
  /// returns (``settled(_:)`` waits for it).
  static func loggedAction(
    on counter: Tally, log: Log<String>, isolation: isolated (any Actor)? = #isolation
  ) -> (recorded: [String], token: TrackingToken) {
    let token = observe { changes in
      _ = counter.count
      _ = counter.step
      log.append(changes.description)
    }
    let opened = openTransaction()
    let mark = beginChangeRecording(keepingValues: true)
    counter.count += 1
    counter.step = 7
    counter.count -= 1
    let changes = endChangeRecording(mark, keepingValues: true)
    if let opened { closeTransaction(opened) }
    let recorded = changes.map {
      "\($0.key.name) \($0.values.map { "\($0.before) → \($0.after)" } ?? "-")"
    }
    return (recorded, token)
  }

  /// The observer's runs once it has run twice (its first run and the action's), waiting a
  /// bounded number of rounds for a run its isolation queued.
  static func settled(_ log: Log<String>) async {
    var rounds = 0
    while log.all.count < 2, rounds < 10_000 {
      await Task.yield()
      rounds += 1
    }
  }

  static let recorded = ["step 1 → 7"]
  /// The first run, then one for the action: told of `step` alone (`count` came back).
  static let observed = ["", "step"]

  @Test func nonisolated() async {
    let log = Log<String>()
    let (recorded, token) = Self.loggedAction(on: Tally(), log: log)
    await Self.settled(log)
    #expect(recorded == Self.recorded && log.all == Self.observed)
    token.cancel()
  }

  @Test @MainActor func onTheMainActor() async {
    let log = Log<String>()
    let (recorded, token) = Self.loggedAction(on: Tally(), log: log)
    await Self.settled(log)
    #expect(recorded == Self.recorded && log.all == Self.observed)
    token.cancel()
  }

  actor Worker {
    let log = Log<String>()
    var token: TrackingToken?

    func run() -> [String] {
      let (recorded, token) = WriteLogIsolationTests.loggedAction(on: Tally(), log: log)
      self.token = token
      return recorded
    }

    /// Ends the observation, whose body may hold this actor's model.
    func stop() { token?.cancel() }
  }

  @Test func onAnotherActor() async {
    let worker = Worker()
    let recorded = await worker.run()
    await Self.settled(worker.log)
    #expect(recorded == Self.recorded && worker.log.all == Self.observed)
    await worker.stop()
  }

  @Test func inADetachedTask() async {
    let log = Log<String>()
    let (recorded, token) = await Task.detached {
      Self.loggedAction(on: Tally(), log: log)
    }.value
    await Self.settled(log)
    #expect(recorded == Self.recorded && log.all == Self.observed)
    token.cancel()
  }

  @Test func aHundredThousandModelsInOneLoggedAction() {
    // Each set and set back but every tenth: the log's index finds each entry, and the
    // recording lists the tenth that changed, in order.
    let counters = (0..<100_000).map { _ in Tally() }
    let opened = openTransaction()
    let mark = beginChangeRecording()
    for counter in counters { counter.count = 1 }
    for (index, counter) in counters.enumerated() where !index.isMultiple(of: 10) {
      counter.count = 0
    }
    let changes = endChangeRecording(mark, keepingValues: false)
    if let opened { closeTransaction(opened) }
    #expect(changes.count == 10_000)
    #expect(
      changes.map(\.registrar)
        == counters.enumerated().filter { $0.offset.isMultiple(of: 10) }.map {
          $0.element.registrar.identity
        })
  }
}
