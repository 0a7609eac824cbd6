import ArborealTestSupport
import Synchronization
import Testing

@testable import ArborealTracking

@MainActor @Suite struct ObserveTests {
  @Test func runsNowAndAfterEveryChange() {
    let counter = Counter()
    let seen = Log<Int>()
    let token = observe { _ in seen.append(counter.count) }
    counter.count = 1
    counter.count = 2
    #expect(seen.all == [0, 1, 2])
    token.cancel()
  }

  @Test func onlyObserversOfTheChangedPropertyRun() {
    let person = Person()
    let runs = Log<String>()
    let first = observe { _ in runs.append("first:\(person.firstName)") }
    let age = observe { _ in runs.append("age:\(person.age)") }
    person.firstName = "Grace"
    #expect(runs.all == ["first:Ada", "age:36", "first:Grace"])
    first.cancel()
    age.cancel()
  }

  @Test func receivesTheChangedPropertiesByName() {
    let person = Person()
    let log = Log<String>()
    let token = observe { changes in
      _ = person.fullName
      log.append(changes.description)
    }
    person.lastName = "Hopper"
    #expect(log.all == ["", "lastName"])
    token.cancel()
  }

  @Test func aBranchThatStopsReadingAPropertyStopsDependingOnIt() {
    let parent = Parent()
    let seen = Log<Int>()
    let token = observe { _ in seen.append(parent.useChild ? parent.child.count : parent.fallback) }
    parent.useChild = false
    #expect(seen.all == [0, -1])
    parent.child.count = 5  // no longer read
    #expect(seen.all == [0, -1])
    parent.fallback = 7
    #expect(seen.all == [0, -1, 7])
    token.cancel()
  }

  @Test func replacingANestedModelMovesTheDependency() {
    let parent = Parent()
    let old = parent.child
    let seen = Log<Int>()
    let token = observe { _ in seen.append(parent.child.count) }
    let replacement = Child(count: 10)
    parent.child = replacement
    old.count = 99  // the old child is no longer observed
    replacement.count = 11
    #expect(seen.all == [0, 10, 11])
    #expect(old.registrar.registrationCount == 0)
    token.cancel()
  }

  @Test func noCallAfterCancelReturns() {
    let counter = Counter()
    let seen = Log<Int>()
    let token = observe { _ in seen.append(counter.count) }
    token.cancel()
    counter.count = 1
    #expect(seen.all == [0])
    #expect(token.isCancelled)
    #expect(counter.registrar.registrationCount == 0)
  }

  @Test func releasingTheTokenEndsTheObservation() {
    let counter = Counter()
    let seen = Log<Int>()
    var token: TrackingToken? = observe { _ in seen.append(counter.count) }
    _ = token
    token = nil
    counter.count = 1
    #expect(seen.all == [0])
    #expect(counter.registrar.registrationCount == 0)
  }

  @Test func valueFormSkipsTheFirstValueAndEqualValues() {
    let counter = Counter()
    let seen = Log<Bool>()
    let token = observe {
      counter.count > 2
    } onChange: { _, isLarge in
      seen.append(isLarge)
    }
    counter.count = 1
    counter.count = 3
    counter.count = 4
    counter.count = 0
    #expect(seen.all == [true, false])
    token.cancel()
  }

  @Test func aBodyThatWritesWhatItReadsSettles() {
    let counter = Counter()
    let runs = Log<Int>()
    let token = observe { _ in
      runs.append(counter.count)
      if counter.count < 5 { counter.count += 1 }
    }
    #expect(counter.count == 5)
    #expect(runs.all == [0, 1, 2, 3, 4, 5])
    token.cancel()
  }

  @Test func aRunawayCycleIsCutAtTheLimitAndReported() {
    let document = Document()
    let reports = Log<String>()
    TrackingDiagnostics.runawayHandler = { reports.append($0) }
    defer { TrackingDiagnostics.runawayHandler = nil }
    let runs = Locked.make(0)
    let token = observe { _ in
      runs.withLock { $0 += 1 }
      document.blob = Blob(size: document.blob.size + 1)  // never equal: never settles
    }
    #expect(runs.withLock { $0 } == TrackingDiagnostics.rerunLimit + 1)
    #expect(reports.count == 1)
    #expect(reports.all.first?.contains("re-ran") == true)
    token.cancel()
  }

  @Test func observersMayWriteWhatOtherObserversRead() {
    let counter = Counter()
    let doubled = Counter()
    let seen = Log<Int>()
    let writer = observe { _ in doubled.count = counter.count * 2 }
    let reader = observe { _ in seen.append(doubled.count) }
    counter.count = 2
    counter.count = 3
    #expect(seen.all == [0, 4, 6])
    writer.cancel()
    reader.cancel()
  }

  @Test @MainActor func mainActorObserversRunSynchronouslyOnTheMainActor() {
    let counter = Counter()
    var seen: [Int] = []
    let token = observe { _ in seen.append(counter.count) }
    counter.count = 1
    #expect(seen == [0, 1])
    token.cancel()
  }

  @Test @MainActor func mainActorObserversAreEnqueuedForChangesOnOtherThreads() async {
    let shared = SharedCounter()
    var seen: [Int] = []
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let token = observe { _ in
      seen.append(shared.value)
      continuation.yield(shared.value)
    }
    await Task.detached { shared.value = 42 }.value
    for await value in stream where value == 42 { break }
    #expect(seen == [0, 42])
    token.cancel()
  }
}
