import ArborealTestSupport
import ArborealTracking
import Testing

/// After `cancel()` returns, or the token is released, the body never runs again, whatever
/// the observer's isolation and whatever was already queued.
@Suite struct CancelIsolationTests {
  /// Lets a main-actor or actor queue drain: several hops through the executor.
  private static func drain(_ actor: isolated (any Actor)? = #isolation) async {
    for _ in 0..<20 { await Task.yield() }
  }

  @MainActor @Test func aRunQueuedOnTheMainActorDoesNotStartAfterCancel() async {
    let counter = SendableCounter()
    var runs = 0
    let token = observe { _ in
      _ = counter.count
      runs += 1
    }
    // A change on another thread queues the main-actor run; the main actor is busy here.
    onAnotherThread { counter.count = 1 }
    token.cancel()
    await Self.drain()
    #expect(runs == 1)
  }

  @MainActor @Test func aRunQueuedOnTheMainActorDoesNotStartAfterTheTokenIsReleased() async {
    let counter = SendableCounter()
    var runs = 0
    var token: TrackingToken? = observe { _ in
      _ = counter.count
      runs += 1
    }
    onAnotherThread { counter.count = 1 }
    withExtendedLifetime(token) {}
    token = nil
    await Self.drain()
    #expect(runs == 1)
  }

  actor Watcher {
    var runs = 0
    var token: TrackingToken?

    /// Observes, then changes what it observes (which queues a run on this actor), then
    /// cancels before the actor is free to run it.
    func observeChangeAndCancel(_ counter: SendableCounter, release: Bool) {
      token = observe { _ in
        _ = counter.count
        self.runs += 1
      }
      counter.count += 1
      if release { token = nil } else { token?.cancel() }
    }
  }

  @Test(arguments: [false, true])
  func aRunQueuedOnAnActorDoesNotStartAfterCancel(release: Bool) async {
    let watcher = Watcher()
    await watcher.observeChangeAndCancel(SendableCounter(), release: release)
    await Self.drain(watcher)
    #expect(await watcher.runs == 1)
  }

  @Test func aNonisolatedObserverCancelledFromADetachedTaskStopsAtOnce() async {
    let counter = SendableCounter()
    let runs = Log<Int>()
    let token = observe { _ in runs.append(counter.count) }
    await Task.detached { token.cancel() }.value
    counter.count = 1
    #expect(runs.all == [0])
  }

  @MainActor @Test func aQueuedRunMergesTheChangesThatArrivedMeanwhile() async {
    let counter = SendableCounter()
    var seen: [String] = []
    let token = observe { changes in
      _ = counter.count
      seen.append(changes.description)
    }
    onAnotherThread {
      counter.count = 1
      counter.count = 2
    }
    await Self.drain()
    #expect(seen == ["", "count"])
    token.cancel()
  }
}
