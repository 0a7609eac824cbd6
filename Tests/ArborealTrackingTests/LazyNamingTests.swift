import ArborealTracking
import Testing

/// A first change that wakes only observers which ignore what changed skips naming the
/// property; whoever reads the changes later still gets its name and owner.
@MainActor
@Suite struct LazyNamingTests {
  @Test func aChangeSeenFirstByAPlainObserverIsNamedForTheNextObserverThatReadsChanges() {
    let counter = Counter()
    var fired = 0
    withTracking {
      _ = counter.count
    } onChange: {
      fired += 1
    }
    counter.count = 1
    #expect(fired == 1)

    var names: [String] = []
    withTracking {
      _ = counter.count
    } onChange: { changes in
      names += changes.map(\.qualifiedName)
    }
    counter.count = 2
    let owner = counter.$count.owner?.description
    #expect(owner?.hasPrefix("Counter#") == true)
    #expect(names == ["\(owner ?? "?").count"])
  }

  @Test func aPlainContinuousObserverRunsOnEveryChangeOfAnUnnamedProperty() {
    let counter = Counter()
    var runs = 0
    let token = observe {
      _ = counter.step
      runs += 1
    }
    for step in 2...5 { counter.step = step }
    #expect(runs == 5)
    token.cancel()
  }
}
