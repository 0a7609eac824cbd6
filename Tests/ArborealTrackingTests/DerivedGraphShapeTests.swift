import Synchronization
import Testing

@testable import ArborealTracking

/// The new derived engine's graph on the shapes the benchmarks run against alien-signals
/// (`shared/anchors/signals/shapes.mjs`): each value after each write equals the plain
/// computation, each observer runs as often as its value changes, and each value computes as
/// often as the shape says (the benchmark's `runsPerWrite`).
@Suite struct DerivedGraphShapeTests {
  /// Counts runs from any thread.
  final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    func tick() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
  }

  /// A chain of 10 values and a value that sums all ten, observed.
  @Test func triangle() {
    let graph = DerivedGraph()
    let source = GraphSource(0, in: graph)
    var chain = [GraphComputed(in: graph) { source.value + 1 }]
    for _ in 1..<10 {
      let previous = chain[chain.count - 1]
      chain.append(GraphComputed(in: graph) { previous.value + 1 })
    }
    let nodes = chain
    let (runs, observed) = (Counter(), Counter())
    let sum = GraphComputed(in: graph, observer: { _ in observed.tick() }) {
      runs.tick()
      return nodes.reduce(0) { $0 + $1.value }
    }
    for write in 1...50 {
      source.value = write
      #expect(sum.value == (1...10).reduce(0) { $0 + write + $1 })
    }
    #expect(runs.value == 51 && observed.value == 50)
  }

  /// 100 sources gathered into one array value, split into 100 values, each observed: a
  /// write to one source changes one split, and one observer runs.
  @Test func mux() {
    let graph = DerivedGraph()
    let sources = (0..<100).map { _ in GraphSource(0, in: graph) }
    let mux = GraphComputed(in: graph) { sources.map(\.value) }
    let observed = (0..<100).map { _ in Counter() }
    let outputs = (0..<100).map { index in
      GraphComputed(in: graph, observer: { _ in observed[index].tick() }) { mux.value[index] }
    }
    for write in 1...300 {
      let index = write % 100
      sources[index].value += 1
      #expect(outputs[index].value == (write + 99) / 100)
    }
    #expect(observed.allSatisfy { $0.value == 3 })
    #expect(outputs.map(\.value) == Array(repeating: 3, count: 100))
  }

  /// One value that reads its source 30 times, observed: it computes once per write, however
  /// often it reads the source.
  @Test func repeatedObservers() {
    let graph = DerivedGraph()
    let source = GraphSource(0, in: graph)
    let (runs, observed) = (Counter(), Counter())
    let value = GraphComputed(in: graph, observer: { _ in observed.tick() }) {
      runs.tick()
      return (0..<30).reduce(0) { sum, _ in sum + source.value }
    }
    for write in 1...40 {
      source.value = write
      #expect(value.value == 30 * write)
    }
    #expect(runs.value == 41 && observed.value == 40)
  }

  /// A value that reads one of two others (20 times), switching at every write: what it
  /// depends on changes with each computation, and the one it stopped reading no longer
  /// makes it compute.
  @Test func unstable() {
    let graph = DerivedGraph()
    let source = GraphSource(0, in: graph)
    let runs = (double: Counter(), inverse: Counter(), current: Counter())
    let double = GraphComputed(in: graph) {
      runs.double.tick()
      return source.value * 2
    }
    let inverse = GraphComputed(in: graph) {
      runs.inverse.tick()
      return 0 - source.value
    }
    let current = GraphComputed(in: graph, observer: { _ in }) {
      runs.current.tick()
      return (0..<20).reduce(0) { sum, _ in
        sum + (source.value % 2 == 0 ? double.value : inverse.value)
      }
    }
    for write in 1...40 {
      source.value = write
      #expect(current.value == 20 * (write % 2 == 0 ? write * 2 : -write))
    }
    #expect(runs.current.value == 41)
    // Each computes only at the writes where `current` reads it (and `double` once at first).
    #expect(runs.double.value == 21 && runs.inverse.value == 20)
  }

  /// A chain whose second value is 0 after every write: nothing below it recomputes, and the
  /// observer does not run (the equal-result cutoff).
  @Test func avoidable() {
    let graph = DerivedGraph()
    let source = GraphSource(0, in: graph)
    let runs = (first: Counter(), zero: Counter(), heavy: Counter(), last: Counter())
    let observed = Counter()
    let first = GraphComputed(in: graph) {
      runs.first.tick()
      return source.value
    }
    let zero = GraphComputed(in: graph) {
      runs.zero.tick()
      return first.value * 0
    }
    let heavy = GraphComputed(in: graph) {
      runs.heavy.tick()
      return zero.value + 1
    }
    let last = GraphComputed(in: graph, observer: { _ in observed.tick() }) {
      runs.last.tick()
      return heavy.value + 1
    }
    for write in 1...25 { source.value = write }
    #expect(last.value == 2)
    #expect(runs.first.value == 26 && runs.zero.value == 26)
    #expect(runs.heavy.value == 1 && runs.last.value == 1 && observed.value == 0)
  }

  /// A first read of a chain 100,000 values deep computes each value once, without
  /// overflowing a stack, and a write to its source recomputes each value once.
  ///
  /// The engine's passes are iterative, but a computation that reads a value never computed
  /// computes it within its own (its sources are known only once it runs): a first read nests
  /// one computation per value. Every `DerivedGraph.stackHop` levels the next ones move to a
  /// fresh stack.
  @Test(arguments: [1_000, 100_000])
  func aFirstReadOfADeepChainComputesEachValueOnce(depth: Int) {
    let graph = DerivedGraph()
    let source = GraphSource(1, in: graph)
    let runs = Counter()
    var chain = [GraphComputed(in: graph) { source.value }]
    chain.reserveCapacity(depth)
    for _ in 1..<depth {
      let previous = chain[chain.count - 1]
      chain.append(
        GraphComputed(in: graph) {
          runs.tick()
          return previous.value &+ 1
        })
    }
    #expect(chain[depth - 1].value == depth)
    source.value = 2
    #expect(chain[depth - 1].value == depth + 1)
    #expect(runs.value == 2 * (depth - 1))
    // Released from the end, one value at a time: each holds the one before, so releasing
    // the first while the rest are held would free them in a chain of `deinit`s.
    while !chain.isEmpty { chain.removeLast() }
    #expect(graph.cellCount == 1)
  }
}
