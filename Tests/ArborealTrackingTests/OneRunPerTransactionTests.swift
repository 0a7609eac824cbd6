import ArborealTracking
import Synchronization
import Testing

/// One run per observer per write or transaction, whatever mix of tracked properties and
/// derived values it reads, with every changed name in its changes: an observer that reads a
/// property and a value derived from it hears of both at once, not of the property and then,
/// when the value is refreshed, of the value. In each isolation an observer can have.
// The time limit guards against a hang only: the tests that wait for an observer's run on
// another actor wait for progress, not for a time.
@Suite(.timeLimit(.minutes(10))) struct OneRunPerTransactionTests {
  /// What each run of an observer was told changed, sorted, after its first run.
  final class Runs: Sendable {
    private let runs = Mutex<[[String]]>([])

    func record(_ changes: TrackingChanges) {
      guard !changes.isEmpty else { return }
      runs.withLock { $0.append(changes.names.sorted()) }
    }

    var all: [[String]] { runs.withLock { $0 } }
  }

  /// A property, a value derived from it and one derived from that; an observer reads all
  /// three. Writes once, then twice in a transaction. Returns the runs.
  private static func propertyAndItsDerivedValues(
    isolation: isolated (any Actor)? = #isolation
  ) -> [[String]] {
    let shared = SharedCounter()
    let doubled = Derived("doubled") { shared.value * 2 }
    let label = Derived("label") { "\(doubled.value)" }
    let runs = Runs()
    let token = observe { changes in
      _ = (shared.value, doubled.value, label.value)
      runs.record(changes)
    }
    shared.value = 1
    withTransaction {
      shared.value = 2
      shared.value = 3
    }
    token.cancel()
    return runs.all
  }

  private static let expected = [
    ["doubled", "label", "value"], ["doubled", "label", "value"],
  ]

  @Test func nonisolated() {
    #expect(Self.propertyAndItsDerivedValues() == Self.expected)
  }

  @MainActor @Test func onTheMainActor() {
    #expect(Self.propertyAndItsDerivedValues() == Self.expected)
  }

  /// On another actor, observers run in jobs on the actor after the write: each run names
  /// every property and value that changed, and there are no more runs than writes.
  actor Other {
    let shared = SharedCounter()
    let runs = Runs()
    var token: TrackingToken?

    /// Observes a property and two derived values of it; `finalRun` hears of the run that
    /// saw `value == 3`.
    func start(finalRun: AsyncStream<Void>.Continuation) {
      let shared = shared
      let doubled = Derived("doubled") { shared.value * 2 }
      let label = Derived("label") { "\(doubled.value)" }
      let runs = runs
      token = observe { changes in
        let seen = (shared.value, doubled.value, label.value)
        runs.record(changes)
        if seen == (3, 6, "6") { finalRun.yield() }
      }
    }

    func write() {
      shared.value = 1
      withTransaction {
        shared.value = 2
        shared.value = 3
      }
    }

    /// The runs, once the job that is running (the final run's) has ended.
    func recorded() -> [[String]] {
      token?.cancel()
      return runs.all
    }
  }

  @Test func onAnotherActor() async {
    let other = Other()
    let (finalRun, continuation) = AsyncStream.makeStream(of: Void.self)
    await other.start(finalRun: continuation)
    await other.write()
    var iterator = finalRun.makeAsyncIterator()
    await iterator.next()
    // Enqueued on the actor behind the job of the final run, so it reads after that job.
    let runs = await other.recorded()
    #expect((1...2).contains(runs.count))
    #expect(runs.allSatisfy { $0 == ["doubled", "label", "value"] }, "\(runs)")
  }

  /// A main-actor observer of writes made off the main actor: its runs are jobs on the main
  /// actor, each naming everything that changed.
  @MainActor @Test func onTheMainActorForWritesMadeOffIt() async {
    let shared = SharedCounter()
    let doubled = Derived("doubled") { shared.value * 2 }
    let runs = Runs()
    let (finalRun, continuation) = AsyncStream.makeStream(of: Void.self)
    let token = observe { changes in
      let seen = (shared.value, doubled.value)
      runs.record(changes)
      if seen == (3, 6) { continuation.yield() }
    }
    await Task.detached {
      shared.value = 1
      withTransaction {
        shared.value = 2
        shared.value = 3
      }
    }.value
    var iterator = finalRun.makeAsyncIterator()
    await iterator.next()
    // Back on the main actor: the job of the final run has ended.
    token.cancel()
    #expect((1...2).contains(runs.all.count))
    #expect(runs.all.allSatisfy { $0 == ["doubled", "value"] }, "\(runs.all)")
  }

  @Test func inADetachedTask() async {
    #expect(await Task.detached { Self.propertyAndItsDerivedValues() }.value == Self.expected)
  }

  @Test func twoDerivedValuesOfOneSource() {
    let shared = SharedCounter()
    let doubled = Derived("doubled") { shared.value * 2 }
    let tripled = Derived("tripled") { shared.value * 3 }
    let runs = Runs()
    let token = observe { changes in
      _ = (doubled.value, tripled.value)
      runs.record(changes)
    }
    shared.value = 1
    #expect(runs.all == [["doubled", "tripled"]])
    token.cancel()
  }

  @MainActor @Test func aModelsPropertyAndItsDerivedValue() {
    let numbers = Numbers(count: 3)
    let runs = Runs()
    let token = observe { changes in
      _ = (numbers.items, numbers.sum)
      runs.record(changes)
    }
    numbers.items.append(4)
    #expect(runs.all == [["items", "sum"]])
    token.cancel()
  }

  /// An unchanged derived result adds nothing: the observer hears of the property alone.
  @Test func aDerivedValueWhoseResultStaysIsNotNamed() {
    let shared = SharedCounter()
    let isPositive = Derived("isPositive") { shared.value > 0 }
    let runs = Runs()
    let token = observe { changes in
      _ = (shared.value, isPositive.value)
      runs.record(changes)
    }
    shared.value = 1
    shared.value = 2
    #expect(runs.all == [["isPositive", "value"], ["value"]])
    token.cancel()
  }
}
