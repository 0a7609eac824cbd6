import Dispatch
import Synchronization
import Testing

@testable import ArborealTracking

/// The new derived engine's graph with its values and lock (`DerivedGraph`), through its own
/// sources: what the derived values promise, before the engine is wired to `Derived`.
@Suite struct DerivedGraphTests {
  /// Counts a computation's runs from any thread.
  final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    func tick() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
  }

  @Test func theDiamondIsGlitchFreeAndComputesEachValueOncePerWrite() {
    let graph = DerivedGraph()
    let input = GraphSource(1, in: graph)
    let runs = (left: Counter(), right: Counter(), bottom: Counter())
    let left = GraphComputed(in: graph) {
      runs.left.tick()
      return input.value + 1
    }
    let right = GraphComputed(in: graph) {
      runs.right.tick()
      return input.value * 10
    }
    let seen = Locked.make([Int]())
    let bottom = GraphComputed(in: graph, observer: { value in seen.withLock { $0.append(value) } })
    {
      runs.bottom.tick()
      return left.value + right.value
    }
    #expect(bottom.value == 12)
    for value in 2...20 { input.value = value }
    #expect(runs.left.value == 20 && runs.right.value == 20 && runs.bottom.value == 20)
    // Each write ran the observer once, with a value never mixing old and new inputs.
    #expect(seen.withLock { $0 } == (2...20).map { $0 + 1 + $0 * 10 })
  }

  @Test func anObserverRunsOnlyWhenItsValueChanged() {
    let graph = DerivedGraph()
    let input = GraphSource(1, in: graph)
    let runs = Counter()
    let sign = GraphComputed(in: graph, observer: { _ in runs.tick() }) { input.value > 0 }
    input.value = 5
    input.value = 9
    #expect(runs.value == 0)
    input.value = -1
    #expect(runs.value == 1)
    #expect(sign.value == false)
  }

  /// The cellx shape's operation: four sources written in one batch; each observer runs once
  /// per batch, with the value after all four writes, and each value is computed once.
  @Test func aBatchRunsEachObserverOnceWithTheValueAfterAllItsWrites() {
    let graph = DerivedGraph()
    let sources = (0..<4).map { GraphSource($0, in: graph) }
    let runs = Counter()
    let seen = Locked.make([Int]())
    let sum = GraphComputed(
      in: graph,
      observer: { value in
        runs.tick()
        seen.withLock { $0.append(value) }
      }
    ) {
      sources.reduce(0) { $0 + $1.value }
    }
    let computations = Counter()
    let difference = GraphComputed(in: graph) {
      computations.tick()
      return sources[0].value - sources[3].value
    }
    _ = difference.value
    for round in 1...10 {
      graph.batch {
        for (index, source) in sources.enumerated() { source.value = round * (index + 1) }
      }
    }
    #expect(runs.value == 10)
    #expect(seen.withLock { $0 } == (1...10).map { $0 * (1 + 2 + 3 + 4) })
    #expect(difference.value == 10 - 40)
    #expect(computations.value == 2, "unobserved: computed once more, when read")
    #expect(sum.value == 100)
  }

  @Test func aValueReadInsideABatchIsCurrentAndItsObserverStillRunsOnce() {
    let graph = DerivedGraph()
    let input = GraphSource(1, in: graph)
    let runs = Counter()
    let doubled = GraphComputed(in: graph, observer: { _ in runs.tick() }) { input.value * 2 }
    graph.batch {
      input.value = 2
      #expect(doubled.value == 4)  // read mid-batch: brought up to date
      input.value = 3
      graph.batch { input.value = 4 }  // nested: nothing runs until the outer one ends
      #expect(runs.value == 0)
    }
    #expect(runs.value == 1)
    #expect(doubled.value == 8)
    graph.batch {
      input.value = 5
      input.value = 4  // set back: the value did not move
    }
    #expect(runs.value == 1)
  }

  @Test func anObserverWhoseValueWasReleasedRunsNoMore() {
    let graph = DerivedGraph()
    let input = GraphSource(1, in: graph)
    let runs = Counter()
    var watched: GraphComputed<Int>? = GraphComputed(in: graph, observer: { _ in runs.tick() }) {
      input.value * 2
    }
    input.value = 2
    #expect(runs.value == 1)
    _ = watched
    watched = nil
    input.value = 3
    #expect(runs.value == 1)
    #expect(graph.cellCount == 1)
  }

  @Test func aReleasedValueFreesItsRowAndTheArenaStopsGrowing() {
    let graph = DerivedGraph()
    let input = GraphSource(0, in: graph)
    for round in 0..<100 {
      let doubled = GraphComputed(in: graph) { input.value * 2 }
      input.value = round
      #expect(doubled.value == round * 2)
    }
    #expect(graph.cellCount == 1)
    #expect(graph.capacity.nodes == 2)
  }

  /// Threads read the end of a chain while one thread writes its source: every read sees a
  /// value of one write (never a mix), and the last read sees the last write.
  @Test func readersOnManyThreadsSeeWholeValuesWhileOneThreadWrites() async {
    let graph = DerivedGraph()
    let source = GraphSource(0, in: graph)
    var chain = [GraphComputed(in: graph) { source.value * 3 }]
    for _ in 0..<50 {
      let previous = chain[chain.count - 1]
      chain.append(GraphComputed(in: graph) { previous.value + 1 })
    }
    let end = chain[chain.count - 1]
    await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        for value in 1...2_000 { source.value = value }
        return true
      }
      for _ in 0..<3 {
        group.addTask {
          for _ in 0..<2_000 where (end.value - 50) % 3 != 0 { return false }
          return true
        }
      }
      for await wholeValues in group { #expect(wholeValues) }
    }
    #expect(end.value == 2_000 * 3 + 50)
  }
}
