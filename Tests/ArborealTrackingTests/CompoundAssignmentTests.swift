import ArborealTracking
import Testing

/// `model.count += 1` reads `count`: inside a tracking closure it is a dependency, as a plain
/// read is (and as it is with the toolchain's Observation).
@MainActor @Suite struct CompoundAssignmentTests {
  @Test func aCompoundAssignmentInWithTrackingIsARead() {
    let counter = Counter()
    var fired: [String] = []
    withTracking {
      counter.count += 0  // reads `count`; an equal value is no change
    } onChange: { changes in
      fired.append(changes.description)
    }
    #expect(fired.isEmpty)
    counter.count = 5
    #expect(fired == ["count"])
  }

  @Test func aCompoundAssignmentInObserveIsARead() {
    let counter = Counter()
    var runs = 0
    let token = observe { _ in
      counter.count += 0  // reads `count`
      runs += 1
    }
    counter.count = 2
    #expect(runs == 2)
    token.cancel()
  }
}
