import ArborealTracking
import Synchronization
import Testing

/// Four sources, written together. `@unchecked Sendable`: each test uses it on its own thread
/// only, where the free-standing values that capture it are read.
final class Quad: Trackable, @unchecked Sendable {
  let registrar = TrackingRegistrar()
  @Tracked var a = 0
  @Tracked var b = 0
  @Tracked var c = 0
  @Tracked var d = 0
}

/// Many sources for `mux`. `@unchecked Sendable`: used on one thread.
final class Cell: Trackable, @unchecked Sendable {
  let registrar = TrackingRegistrar()
  @Tracked var value = 0
}

/// Counts observer runs after the first one and keeps the last value each output saw.
final class Outputs: Sendable {
  private let state = Mutex<(runs: Int, seen: [Int: Int])>((0, [:]))

  func ran(_ output: Int, saw value: Int, first: Bool) {
    state.withLock {
      if !first { $0.runs += 1 }
      $0.seen[output] = value
    }
  }

  var runs: Int { state.withLock { $0.runs } }
  func seen(_ output: Int) -> Int? { state.withLock { $0.seen[output] } }
}

/// The shapes of the benchmarks (Benchmarks/…/DerivedShapesBenchmarks.swift), checked against
/// a plain recomputation after every write: each observed output holds the plain result, each
/// observer runs once per write that changes what it reads (never for one that does not), and
/// each value is computed at most once per write.
@Suite struct DerivedShapesTests {
  /// Observes `outputs` (one continuous observer each); returns the tokens.
  private func observeEach(_ outputs: [Derived<Int>], into seen: Outputs) -> [TrackingToken] {
    outputs.enumerated().map { index, output in
      observe { changes in seen.ran(index, saw: output.value, first: changes.isEmpty) }
    }
  }

  /// cellx: 1,000 layers of four values, each computed from the layer above; the published
  /// results are [-3, -6, -2, 2] for the sources 1, 2, 3, 4 and [-2, -4, 2, 3] for 4, 3, 2, 1.
  @Test func cellxOfAThousandLayersGivesThePublishedValues() {
    let results = Mutex<[String: [Int]]>([:])
    // A first read computes the 1,000 layers recursively, deeper than a worker thread's stack
    // allows under AddressSanitizer: on a thread of its own, with room (until computations
    // stop recursing).
    onAnotherThread(stackSize: 256 << 20) {
      let source = Quad()
      source.a = 1
      source.b = 2
      source.c = 3
      source.d = 4
      let computations = Tally()
      var layer: [Derived<Int>] = [
        Derived { source.a }, Derived { source.b }, Derived { source.c }, Derived { source.d },
      ]
      for _ in 0..<1_000 {
        let above = layer
        layer = [
          Derived {
            computations.add()
            return above[1].value
          },
          Derived {
            computations.add()
            return above[0].value - above[2].value
          },
          Derived {
            computations.add()
            return above[1].value + above[3].value
          },
          Derived {
            computations.add()
            return above[2].value
          },
        ]
      }
      let seen = Outputs()
      let tokens = observeEach(layer, into: seen)
      let before = (0..<4).map { seen.seen($0) ?? .min }
      let first = computations.value
      withTransaction {
        source.a = 4
        source.b = 3
        source.c = 2
        source.d = 1
      }
      let after = (0..<4).map { seen.seen($0) ?? .min }
      results.withLock {
        $0 = [
          "before": before, "after": after, "read": layer.map(\.value),
          "computations": [first, computations.value - first], "runs": [seen.runs],
        ]
      }
      for token in tokens { token.cancel() }
    }
    let seen = results.withLock { $0 }
    #expect(seen["before"] == [-3, -6, -2, 2])
    #expect(seen["after"] == [-2, -4, 2, 3])
    #expect(seen["read"] == [-2, -4, 2, 3])
    // Each value computed once for the first read and at most once for the write; the four
    // outputs all changed, and each observer ran once.
    #expect(seen["computations"]?.first == 4_000)
    #expect((seen["computations"]?.last ?? .max) <= 4_000)
    #expect(seen["runs"] == [4])
  }

  @Test func aDeepChainHoldsThePlainResultAfterEveryWrite() {
    let results = Mutex<[(seen: Int?, computed: Int)]>([])
    // Recursive at its first read, as cellx: on a thread with room.
    onAnotherThread(stackSize: 256 << 20) {
      let source = Cell()
      let computations = Tally()
      var chain = [Derived { source.value + 1 }]
      for _ in 1..<1_000 {
        let previous = chain[chain.count - 1]
        chain.append(
          Derived {
            computations.add()
            return previous.value + 1
          })
      }
      let seen = Outputs()
      let tokens = observeEach([chain[chain.count - 1]], into: seen)
      for write in 1...10 {
        let before = computations.value
        source.value = write * 7
        results.withLock { $0.append((seen.seen(0), computations.value - before)) }
      }
      results.withLock { $0.append((seen.runs, 0)) }
      for token in tokens { token.cancel() }
    }
    let seen = results.withLock { $0 }
    #expect(seen.count == 11)
    for (index, write) in zip(seen.indices, 1...10) {
      #expect(seen[index].seen == write * 7 + 1_000)
      #expect(seen[index].computed == 999)
    }
    #expect(seen.last?.seen == 10)
  }

  @Test func aBroadFanHoldsThePlainResultsAndRunsEachObserverOnce() {
    let source = Cell()
    let values = (0..<1_000).map { offset in Derived { source.value + offset } }
    let seen = Outputs()
    let tokens = observeEach(values, into: seen)
    for write in 1...5 {
      source.value = write
      #expect(seen.seen(0) == write && seen.seen(999) == write + 999)
      #expect(seen.runs == write * 1_000)
    }
    for token in tokens { token.cancel() }
  }

  @Test func aTriangleSumsItsChainOncePerWrite() {
    let source = Cell()
    var chain = [Derived { source.value + 1 }]
    for _ in 1..<10 {
      let previous = chain[chain.count - 1]
      chain.append(Derived { previous.value + 1 })
    }
    let nodes = chain
    let sums = Tally()
    let sum = Derived {
      sums.add()
      return nodes.reduce(0) { $0 + $1.value }
    }
    let seen = Outputs()
    let tokens = observeEach([sum], into: seen)
    for write in 1...10 {
      source.value = write
      #expect(seen.seen(0) == (1...10).reduce(0) { $0 + write + $1 })
    }
    #expect(sums.value == 11)
    #expect(seen.runs == 10)
    for token in tokens { token.cancel() }
  }

  @Test func aMuxRecomputesOnlyTheSplitThatChanged() {
    let sources = (0..<100).map { _ in Cell() }
    let mux = Derived { sources.map(\.value) }
    let computations = Tally()
    let splits = (0..<100).map { index in
      Derived {
        computations.add()
        return mux.value[index]
      }
    }
    let seen = Outputs()
    let tokens = observeEach(splits, into: seen)
    for write in 1...10 {
      let before = computations.value
      let index = (write * 37) % 100
      sources[index].value = write
      #expect(seen.seen(index) == write)
      // Every split checks the new array; only the one whose element changed notifies.
      #expect(computations.value - before == 100)
      #expect(seen.runs == write)
    }
    for token in tokens { token.cancel() }
  }

  /// A split reads only the mux, so it shares the mux's stamps of its 100 sources instead of
  /// copying them; unobserved, every read after a write must find the change through them.
  @Test func anUnobservedSplitSeesEveryWriteThroughTheStampsItShares() {
    let sources = (0..<100).map { _ in Cell() }
    let mux = Derived { sources.map(\.value) }
    let computations = Tally()
    let split = Derived {
      computations.add()
      return mux.value[3]
    }
    #expect(split.value == 0)
    for write in 1...20 {
      // A write of the split's element, then one of another element: the first changes it,
      // the second only makes it check (and recompute to the same value).
      sources[3].value = write
      #expect(split.value == write)
      sources[(write * 7) % 100 == 3 ? 4 : (write * 7) % 100].value = write
      #expect(split.value == write)
      let settled = computations.value
      // Nothing written since: a cached read, twice.
      #expect(split.value == write)
      #expect(split.value == write)
      #expect(computations.value == settled)
    }
  }

  @Test func anUnstableValueFollowsTheBranchItReads() {
    let source = Cell()
    let double = Derived { source.value * 2 }
    let inverse = Derived { -source.value }
    let current = Derived { source.value % 2 == 0 ? double.value : inverse.value }
    let seen = Outputs()
    let tokens = observeEach([current], into: seen)
    for write in 1...10 {
      source.value = write
      #expect(seen.seen(0) == (write % 2 == 0 ? write * 2 : -write))
    }
    #expect(seen.runs == 10)
    for token in tokens { token.cancel() }
  }

  @Test func anAvoidableChainStopsWhereTheResultStaysEqual() {
    let source = Cell()
    let first = Derived { source.value }
    let zero = Derived { first.value * 0 }
    let heavies = Tally()
    let heavy = Derived {
      heavies.add()
      return zero.value + 1
    }
    let seen = Outputs()
    let tokens = observeEach([heavy], into: seen)
    for write in 1...10 { source.value = write }
    #expect(heavies.value == 1)
    #expect(seen.runs == 0)
    #expect(seen.seen(0) == 1)
    for token in tokens { token.cancel() }
  }

  @Test func repeatedReadsOfOneSourceRunTheObserverOnce() {
    let source = Cell()
    let value = Derived { (0..<30).reduce(0) { total, _ in total + source.value } }
    let seen = Outputs()
    let tokens = observeEach([value], into: seen)
    for write in 1...10 {
      source.value = write
      #expect(seen.seen(0) == write * 30)
    }
    #expect(seen.runs == 10)
    for token in tokens { token.cancel() }
  }
}

/// Nothing about a chain's length reaches the call stack once it is computed: a write
/// through 100,000 values, its refresh, the reads after it and the chain's release all run on
/// a thread with a 512 KB stack (recursion of even a few frames per value would need tens of
/// megabytes). The chain is computed level by level first: a first read computes whatever
/// the closure reads, by calling it.
@Suite struct DeepChainTests {
  @Test func aChainOfAHundredThousandValuesRefreshesAndGoesWithoutRecursion() {
    onAnotherThread(stackSize: 512 << 10) {
      let source = Cell()
      var chain = [Derived { source.value + 1 }]
      chain.reserveCapacity(100_000)
      _ = chain[0].value
      for _ in 1..<100_000 {
        let previous = chain[chain.count - 1]
        let next = Derived { previous.value &+ 1 }
        _ = next.value
        chain.append(next)
      }
      let last = chain[chain.count - 1]
      let seen = Outputs()
      let token = observe { changes in seen.ran(0, saw: last.value, first: changes.isEmpty) }
      #expect(seen.seen(0) == 100_000)
      for write in 1...3 {
        source.value = write
        #expect(seen.seen(0) == 100_000 + write)
        #expect(seen.runs == write)
        // Unobserved, in the middle: a cached read, then one after a write.
        #expect(chain[50_000].value == 50_001 + write)
      }
      token.cancel()
      chain.removeAll()
    }
  }

  #if ARBOREAL_NEW_DERIVED
    /// A first read of a chain made on the main actor, nesting a thousand computations: the
    /// new engine computes every 256 nested values past the first on a fresh stack while the
    /// main thread waits, and the values' isolation checks must let those computations read.
    /// The new engine's only: the current one nests a thousand computations on the main
    /// thread's stack, which AddressSanitizer's larger frames overflow.
    @MainActor @Test func aFirstReadOfAMainActorChainOfAThousandValues() {
      let source = Cell()
      var chain = [Derived { source.value }]
      for _ in 1..<1_000 {
        let previous = chain[chain.count - 1]
        chain.append(Derived { previous.value &+ 1 })
      }
      #expect(chain[999].value == 999)
      source.value = 1
      #expect(chain[999].value == 1_000)
      #expect(chain[500].value == 501)
    }
  #endif
}
