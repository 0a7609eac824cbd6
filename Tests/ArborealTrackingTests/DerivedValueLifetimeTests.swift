import ArborealTracking
import Synchronization
import Testing

/// A derived value keeps exactly one computed value alive: the one it would return. Each
/// recomputation lets the previous value go, an equal new value too replaces it, and the last
/// one goes with the derived value.
@Suite struct DerivedValueLifetimeTests {
  /// Counts its live instances.
  final class Counted: Sendable, Equatable {
    static let live = Atomic<Int>(0)
    let number: Int

    init(_ number: Int) {
      self.number = number
      Self.live.wrappingAdd(1, ordering: .relaxed)
    }

    deinit { Self.live.wrappingSubtract(1, ordering: .relaxed) }

    static func == (lhs: Counted, rhs: Counted) -> Bool { lhs.number == rhs.number }
  }

  final class Source: Trackable, @unchecked Sendable {
    let registrar = TrackingRegistrar()
    @Tracked var count = 0
  }

  @Test func eachRecomputationReleasesThePreviousValueAndTheLastGoesWithTheValue() {
    let before = Counted.live.load(ordering: .relaxed)
    let source = Source()
    do {
      let plain = Derived { Counted(source.count) }  // a new, different value at every write
      let equal = Derived { Counted(source.count / 2) }  // an equal value every other write
      #expect(plain.value.number == 0 && equal.value.number == 0)
      for count in 1...50 {
        source.count = count
        #expect(plain.value.number == count)
        #expect(equal.value.number == count / 2)
        // One cached value each; the values read above are gone once the reads end.
        #expect(Counted.live.load(ordering: .relaxed) - before == 2)
      }
      let token = observe { _ in _ = plain.value.number &+ equal.value.number }
      for count in 51...100 { source.count = count }
      #expect(Counted.live.load(ordering: .relaxed) - before == 2)
      token.cancel()
    }
    #expect(Counted.live.load(ordering: .relaxed) == before, "released with the derived values")
  }
}
