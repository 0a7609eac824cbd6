import ArborealTestSupport
import ArborealTracking
import Testing

/// A transaction reports only the properties whose value at the end differs from their
/// value at the start.
@MainActor @Suite struct NetChangeTests {
  final class Job: Trackable {
    let registrar = TrackingRegistrar()
    @Tracked var isBusy = false
    @Tracked var title = "draft"
    @Tracked var tags: [String] = []
  }

  @Test func setAndSetBackNotifiesNobody() {
    let job = Job()
    var runs: [String] = []
    let token = observe { changes in
      _ = job.isBusy
      runs.append(changes.description)
    }
    withTransaction {
      job.isBusy = true
      job.isBusy = false
    }
    #expect(runs == [""])
    token.cancel()
  }

  @Test func onlyTheNetChangesAreNamed() {
    let job = Job()
    var runs: [String] = []
    let token = observe { changes in
      _ = (job.isBusy, job.title)
      runs.append(changes.description)
    }
    withTransaction {
      job.title = "final"
      job.isBusy = true
      job.isBusy = false
    }
    #expect(runs == ["", "title"])
    token.cancel()
  }

  /// A property set back on one instance hides nothing of the same property on another, even
  /// with an explicit name (the two share the name, never the key's identity).
  @Test func aSetBackOnOneInstanceHidesNoChangeOnAnother() {
    final class Named: Trackable {
      let registrar = TrackingRegistrar()
      @Tracked("count") var count = 0
    }
    let first = Named()
    let second = Named()
    #expect(first.$count != second.$count)
    var runs: [String] = []
    let token = observe { changes in
      _ = (first.count, second.count)
      runs.append(changes.description)
    }
    withTransaction {
      first.count = 1
      second.count = 5
      first.count = 0
    }
    #expect(runs == ["", "count"])
    #expect(second.count == 5)
    token.cancel()
  }

  @Test func aOneShotObserverOfAPropertySetBackStaysRegistered() {
    let job = Job()
    var fired: [String] = []
    withTracking {
      job.isBusy
    } onChange: { changes in
      fired.append(changes.description)
    }
    withTransaction {
      job.isBusy = true
      job.isBusy = false
    }
    #expect(fired.isEmpty)
    job.isBusy = true
    #expect(fired == ["isBusy"])
  }

  @Test func aCollectionEditedInPlaceAndBackIsReported() {
    // In-place edits keep no copy to compare (that would cost O(n) per edit), so a
    // collection edited and edited back counts as changed; assigning it back does not.
    let job = Job()
    var runs: [String] = []
    let token = observe { changes in
      _ = job.tags
      runs.append(changes.description)
    }
    withTransaction {
      job.tags.append("x")
      job.tags.removeLast()
    }
    withTransaction {
      job.tags = ["x"]
      job.tags = []
    }
    #expect(runs == ["", "tags"])
    token.cancel()
  }

  @Test func setAndSetBackOnAnotherThreadNotifiesNobody() async {
    let counter = SendableCounter()
    let log = Log<String>()
    let token = observe { changes in
      _ = counter.count
      log.append(changes.description)
    }
    await Task.detached {
      withTransaction {
        counter.count = 5
        counter.count = 0
      }
    }.value
    #expect(log.all == [""])
    token.cancel()
  }
}

/// Net change for an observer isolated to another actor, whose runs are queued there.
@Suite struct NetChangeOnAnActorTests {
  actor Worker {
    let counter = SendableCounter()
    var seen: [String] = []
    var token: TrackingToken?

    func start() {
      token = observe { changes in
        _ = self.counter.count
        self.seen.append(changes.description)
      }
    }

    func setAndSetBack() {
      withTransaction {
        counter.count = 5
        counter.count = 0
      }
    }

    func change() { counter.count = 7 }

    /// Ends the observation, whose body holds this actor.
    func stop() { token?.cancel() }
  }

  @Test func setAndSetBackOnTheObserversActorQueuesNoRun() async {
    let worker = Worker()
    await worker.start()
    await worker.setAndSetBack()
    // Time for a wrongly queued run to happen (it could only make the test pass wrongly late,
    // never fail it wrongly).
    for _ in 0..<50 { await Task.yield() }
    #expect(await worker.seen == [""])
    await worker.change()
    var rounds = 0
    while await worker.seen.count < 2, rounds < 10_000 {
      await Task.yield()
      rounds += 1
    }
    #expect(await worker.seen == ["", "count"])
    await worker.stop()
  }
}

/// A counter that tests share with detached tasks.
///
/// Invariant (why `@unchecked Sendable` holds): each test writes it from one task at a time
/// and reads it only after that task is done, or from observers notified by the write.
final class SendableCounter: Trackable, @unchecked Sendable {
  let registrar = TrackingRegistrar()
  @Tracked var count = 0
}
