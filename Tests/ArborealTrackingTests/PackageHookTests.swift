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
    // Outside a recording, an unobserved write is back on the fast path.
    #expect(!person.registrar.core.mayBeObserved(person.$age))
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
