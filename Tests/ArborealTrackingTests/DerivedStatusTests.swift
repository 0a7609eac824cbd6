import Testing

@testable import ArborealTracking

/// `DerivedStatus`, the derived value's phases, versions, generations and marks, driven
/// directly: every transition, and every notification that must change nothing.
@Suite struct DerivedStatusTests {
  /// The result of a transition, outside `#expect` (which cannot take a mutating call).
  private func mutated(
    _ status: inout DerivedStatus, _ transition: (inout DerivedStatus) -> Bool
  ) -> Bool {
    transition(&status)
  }

  /// A status after its first computation: clean, version 1, generation 1.
  private func computedOnce() -> DerivedStatus {
    var status = DerivedStatus()
    #expect(mutated(&status) { $0.computed(duplicate: false, versionBefore: 0) })
    return status
  }

  @Test func aNewStatusIsUncomputedAndNothingMarksIt() {
    var status = DerivedStatus()
    #expect(status.phase == .uncomputed)
    #expect(status.version == 0)
    #expect(status.checkStart == nil)
    #expect(!mutated(&status) { $0.inputMayHaveChanged() })
    #expect(!mutated(&status) { $0.inputChanged(generation: 0) })
    #expect(!mutated(&status) { $0.sourceMayHaveChanged() })
    #expect(status == DerivedStatus())
  }

  @Test func theFirstComputationIsCleanWithVersionOne() {
    let status = computedOnce()
    #expect(status.phase == .clean)
    #expect(status.isClean)
    #expect(status.version == 1)
    #expect(status.generation == 1)
    #expect(status.marks == 0)
  }

  @Test func anInputThatMayHaveChangedMarksACleanValueCheckOnce() {
    var status = computedOnce()
    #expect(mutated(&status) { $0.inputMayHaveChanged() })
    #expect(status.phase == .check)
    #expect(status.marks == 1)
    // Already marked: a second notification changes nothing.
    #expect(!mutated(&status) { $0.inputMayHaveChanged() })
    #expect(status.marks == 1)
  }

  @Test func anInputChangeFoundByTheCurrentComputationMarksDirty() {
    var status = computedOnce()
    #expect(mutated(&status) { $0.inputChanged(generation: 1) })
    #expect(status.phase == .dirty)
    #expect(status.marks == 1)
    #expect(status.checkStart == nil)
    // Dirty stays dirty.
    #expect(!mutated(&status) { $0.inputChanged(generation: 1) })
    #expect(!mutated(&status) { $0.inputMayHaveChanged() })
    #expect(!mutated(&status) { $0.sourceMayHaveChanged() })
  }

  @Test func aCheckBecomesDirtyWhenTheInputChangeIsConfirmed() {
    var status = computedOnce()
    #expect(mutated(&status) { $0.sourceMayHaveChanged() })
    #expect(mutated(&status) { $0.inputChanged(generation: 1) })
    #expect(status.phase == .dirty)
    #expect(status.marks == 2)
  }

  @Test func aChangeFoundByAnOlderComputationIsIgnored() {
    var status = computedOnce()
    #expect(!mutated(&status) { $0.computed(duplicate: true, versionBefore: 1) })
    #expect(status.generation == 2)
    #expect(!mutated(&status) { $0.inputChanged(generation: 1) })
    #expect(status.phase == .clean)
    #expect(status.marks == 0)
  }

  @Test func aSourceMarkNeedsNoGeneration() {
    // An edge may be older than the computation that relies on it: the mark only asks for a
    // check.
    var status = computedOnce()
    #expect(!mutated(&status) { $0.computed(duplicate: true, versionBefore: 1) })
    #expect(mutated(&status) { $0.sourceMayHaveChanged() })
    #expect(status.phase == .check)
  }

  @Test func aSourceMarkOnlyMarksACleanValue() {
    var status = computedOnce()
    #expect(mutated(&status) { $0.sourceMayHaveChanged() })
    #expect(status.phase == .check)
    #expect(!mutated(&status) { $0.sourceMayHaveChanged() })
    #expect(status.marks == 1)
  }

  @Test func aCheckThatFindsNothingChangedMakesTheValueClean() {
    var status = computedOnce()
    #expect(mutated(&status) { $0.inputMayHaveChanged() })
    let marks = status.checkStart
    #expect(marks == 1)
    #expect(mutated(&status) { $0.checked(sinceMarks: 1) })
    #expect(status.phase == .clean)
    #expect(status.version == 1)
  }

  @Test func aCheckThatRacedANotificationDoesNotMarkTheValueClean() {
    var status = computedOnce()
    #expect(mutated(&status) { $0.inputMayHaveChanged() })
    let marks = status.checkStart ?? 0
    // A notification lands while the check runs.
    #expect(mutated(&status) { $0.inputChanged(generation: 1) })
    #expect(!mutated(&status) { $0.checked(sinceMarks: marks) })
    #expect(status.phase == .dirty)
  }

  @Test func aCheckCannotCleanAValueThatIsUncomputedOrDirty() {
    var fresh = DerivedStatus()
    #expect(!mutated(&fresh) { $0.checked(sinceMarks: 0) })
    #expect(fresh.phase == .uncomputed)
    var dirty = computedOnce()
    #expect(mutated(&dirty) { $0.inputChanged(generation: 1) })
    let marks = dirty.marks
    #expect(!mutated(&dirty) { $0.checked(sinceMarks: marks) })
    #expect(dirty.phase == .dirty)
  }

  @Test func aDuplicateResultKeepsTheVersionAndANewOneMovesIt() {
    var status = computedOnce()
    #expect(mutated(&status) { $0.inputChanged(generation: 1) })
    #expect(!mutated(&status) { $0.computed(duplicate: true, versionBefore: 1) })
    #expect(status.version == 1)
    #expect(status.phase == .clean)
    #expect(mutated(&status) { $0.inputChanged(generation: 2) })
    #expect(mutated(&status) { $0.computed(duplicate: false, versionBefore: 1) })
    #expect(status.version == 2)
    #expect(status.generation == 3)
  }

  @Test func aDuplicateStillMovesTheVersionWhenAnotherComputationMovedItMeanwhile() {
    var status = computedOnce()
    // Two computations start at version 1; the first stores a new result.
    #expect(mutated(&status) { $0.computed(duplicate: false, versionBefore: 1) })
    #expect(status.version == 2)
    // The second's result duplicates the value it started from, not the one now cached.
    #expect(mutated(&status) { $0.computed(duplicate: true, versionBefore: 1) })
    #expect(status.version == 3)
  }
}
