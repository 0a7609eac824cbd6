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

  @Test func accessRecordingReturnsWhatWasReadWithoutObserving() {
    let person = Person()
    let (_, reads) = withAccessRecording { _ = person.fullName }
    #expect(reads.count == 2)
    let (_, changes) = withChangeRecording { person.lastName = "Hopper" }
    #expect(reads.contains { $0.matches(changes[0]) })
    #expect(person.registrar.registrationCount == 0)
  }
}
