import ArborealTestSupport
import Dispatch
import Synchronization
import Testing

@testable import ArborealTracking

@Suite struct PackageHookTests {
  @Test func changeRecordingSeesUnobservedWritesButNotEqualOnes() {
    let person = Person()
    let (_, changes) = withChangeRecording {
      person.firstName = "Grace"
      person.age = 36  // equal: not a change
      person.age = 37
    }
    #expect(changes.map(\.key.name) == ["firstName", "age"])
    #expect(changes.allSatisfy { $0.registrar == person.registrar.identity })
    #expect(changes.first?.model === person)
    // Recording set no observed bit: once no recording runs, unobserved writes take the fast
    // path again. (Other tests may be recording in parallel, so check the bit, not the count.)
    #expect(person.registrar.core.observedMask.load(ordering: .relaxed) & person.$age.maskBit == 0)
  }

  @Test func recordingsNest() {
    let counter = Counter()
    let (inner, outer) = withChangeRecording {
      counter.count = 1
      return withChangeRecording { counter.step = 2 }.1
    }
    #expect(inner.map(\.key.name) == ["step"])
    #expect(outer.map(\.key.name) == ["count", "step"])
  }

  @Test func nestedRecordingsShareNetChanges() {
    let counter = Counter()
    let (inner, outer) = withChangeRecording(keepingValues: true) {
      counter.count = 1
      // The inner recording sees 1 → 0, a change; the outer one 0 → 0, none.
      let inner = withChangeRecording { counter.count = 0 }.1
      counter.step = 5
      counter.step = 6
      return inner
    }
    #expect(inner.map(\.key.name) == ["count"])
    #expect(inner.allSatisfy { $0.values == nil })  // not kept: the inner one did not ask
    // Each property once, with the value before its first write and after its last.
    #expect(outer.map(\.key.name) == ["step"])
    #expect(outer.last.flatMap { $0.values?.before as? Int } == 1)
    #expect(outer.last.flatMap { $0.values?.after as? Int } == 6)
  }

  @Test func aRecordingAfterOthersSeesOnlyItsOwnChanges() {
    let counter = Counter()
    _ = withChangeRecording {
      counter.count = 1
      _ = withChangeRecording { counter.step = 2 }
    }
    let (_, changes) = withChangeRecording { counter.count = 3 }
    #expect(changes.map(\.key.name) == ["count"])
    #expect(!isRecordingChanges)
  }

  @Test func theBeginAndEndCallsRecordLikeTheClosure() {
    let counter = Counter()
    let mark = beginChangeRecording(keepingValues: true)
    #expect(isRecordingChanges)
    counter.count = 4
    counter.count = 0  // set back: no change
    counter.step = 7
    let changes = endChangeRecording(mark, keepingValues: true)
    #expect(!isRecordingChanges)
    #expect(changes.map(\.key.name) == ["step"])
    #expect(changes.first.flatMap { $0.values?.before as? Int } == 1)
    #expect(changes.first.flatMap { $0.values?.after as? Int } == 7)
    #expect(TrackingChanges(recorded: changes).names == ["step"])
  }

  @Test func theStoresOneStepEndClosesTheTransactionItsRecordingShares() {
    let observed = SendableCounter()
    let counter = Counter()
    let runs = Log<[String]>()
    let token = observe { changes in
      _ = observed.count
      runs.append(changes.names)
    }
    // Observed: the transaction has an observer to notify, so the two close apart.
    let (opened, mark) = openTransactionRecording(keepingValues: false)
    #expect(opened != nil && isRecordingChanges)
    observed.count = 4
    counter.step = 5
    #expect(runs.count == 1)  // the first run only: the transaction holds the change
    #expect(endChangeRecordingKeys(mark, closing: opened).names == ["count", "step"])
    #expect(runs.all == [[], ["count"]] && !isRecordingChanges)
    token.cancel()
    // Unobserved: the recording's end closes the transaction in the same step.
    let (again, second) = openTransactionRecording(keepingValues: false)
    counter.step = 6
    counter.count = 0  // equal: no change
    #expect(endChangeRecordingKeys(second, closing: again).names == ["step"])
    #expect(!isRecordingChanges && ThreadContext.currentIfPresent?.isInTransaction == false)
    #expect(ThreadContext.currentIfPresent?.writes.isOpen == false)
  }

  @Test func theOneStepEndInsideAnEnclosingRecordingHandsItItsChanges() {
    let counter = Counter()
    let outer = beginChangeRecording()
    let (opened, mark) = openTransactionRecording(keepingValues: false)
    counter.count = 4
    #expect(endChangeRecordingKeys(mark, closing: opened).names == ["count"])
    counter.step = 5
    #expect(endChangeRecording(outer, keepingValues: false).map(\.key.name) == ["count", "step"])
    // Inside a transaction, none is opened: the recording ends alone.
    let inner = withTransaction {
      let (opened, mark) = openTransactionRecording(keepingValues: false)
      #expect(opened == nil)
      counter.count = 5
      return endChangeRecordingKeys(mark, closing: opened).names
    }
    #expect(inner == ["count"])
  }

  @Test func aRecordingBegunWithoutValuesEndsWithoutThem() {
    let counter = Counter()
    let mark = beginChangeRecording()
    counter.step = 7
    let changes = endChangeRecording(mark, keepingValues: true)
    #expect(changes.map(\.key.name) == ["step"])
    #expect(changes.first.map { $0.values == nil } == true)
  }

  @Test func anInnerRecordingWithoutValuesKeepsThemForTheOuterOneThatAsked() {
    let counter = Counter()
    let outer = beginChangeRecording(keepingValues: true)
    let inner = beginChangeRecording()
    counter.step = 7
    counter.step = 8
    let innerChanges = endChangeRecording(inner, keepingValues: false)
    let outerChanges = endChangeRecording(outer, keepingValues: true)
    #expect(innerChanges.map(\.key.name) == ["step"])
    #expect(outerChanges.first.flatMap { $0.values?.before as? Int } == 1)
    #expect(outerChanges.first.flatMap { $0.values?.after as? Int } == 8)
  }

  @Test func aRecordingOnAnotherThreadDoesNotSeeThisThreadsWrites() {
    let counter = Counter()
    let mark = beginChangeRecording()
    // Synchronous, so that the recording begins and ends on this thread; the other recording
    // runs on a dispatch worker while this thread waits, and writes a model of its own.
    let elsewhere = Mutex(-1)
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) {
      let other = Counter()
      let changes = withChangeRecording { other.count = 9 }.1
      elsewhere.withLock { $0 = changes.count }
    }
    // Bounded, so that a deadlock fails here, naming the wait, instead of hanging.
    guard group.wait(timeout: .now() + 120) == .success else {
      Issue.record("the recording on the other thread never finished")
      _ = endChangeRecording(mark, keepingValues: false)
      return
    }
    counter.count = 2
    #expect(elsewhere.withLock { $0 } == 1)
    #expect(endChangeRecording(mark, keepingValues: false).map(\.key.name) == ["count"])
  }

  @Test func accessRecordingReturnsWhatWasReadWithoutObserving() {
    let person = Person()
    let (_, reads) = withAccessRecording { _ = person.fullName }
    #expect(reads.count == 2)
    let (_, changes) = withChangeRecording { person.lastName = "Hopper" }
    #expect(reads.contains { $0.matches(changes[0]) })
    #expect(person.registrar.registrationCount == 0)
  }
}
