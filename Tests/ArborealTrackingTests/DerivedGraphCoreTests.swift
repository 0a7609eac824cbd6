import Testing

@testable import ArborealTracking

/// The new derived engine's pure core (`DerivedGraphCore`), driven as the engine will drive
/// it: sources written, values read, each `.compute` step answered by running the node's
/// computation. Every test checks the core's invariants after each operation.
@Suite struct DerivedGraphCoreTests {
  /// A tiny engine over the core: integer values, computations as closures.
  final class Graph {
    typealias Node = DerivedGraphCore.Node
    var core = DerivedGraphCore()
    private var values: [Node: Int] = [:]
    private var computations: [Node: (Graph) -> Int] = [:]
    /// How many times each computed node ran.
    private(set) var runs: [Node: Int] = [:]
    /// The node whose computation runs now, innermost last.
    private var computing: [Node] = []
    /// What the last write reached.
    private(set) var reached: [Node] = []
    /// A cycle a read ran into.
    private(set) var cycle: Node?

    func source(_ value: Int) -> Node {
      let node = core.addSource()
      values[node] = value
      return node
    }

    func computed(watched: Bool = false, _ compute: @escaping (Graph) -> Int) -> Node {
      let node = core.addComputed(watched: watched)
      computations[node] = compute
      return node
    }

    func set(_ node: Node, _ value: Int) {
      guard values[node] != value else { return }
      values[node] = value
      reached.removeAll()
      core.write(node, reached: &reached)
      core.checkInvariants()
    }

    func read(_ node: Node) -> Int {
      if core.isStale(node) {
        core.beginRefresh(node)
        refresh: while true {
          switch core.nextStep() {
          case .compute(let next): run(next)
          case .done: break refresh
          case .cycle(let node):
            cycle = node
            break refresh
          }
        }
      }
      if let reader = computing.last, !core.track(node, by: reader) { cycle = node }
      return values[node] ?? 0
    }

    private func run(_ node: Node) {
      core.beginCompute(node)
      computing.append(node)
      let value = computations[node]!(self)
      computing.removeLast()
      runs[node, default: 0] += 1
      let changed = values[node] != value
      values[node] = value
      core.endCompute(node, changed: changed)
    }

    /// A write of `node` that stores nothing new (a property written and set back, as a
    /// derived value's input row sees it).
    func touch(_ node: Node) {
      reached.removeAll()
      core.write(node, reached: &reached)
      core.checkInvariants()
    }

    func remove(_ node: Node) {
      core.remove(node)
      values[node] = nil
      computations[node] = nil
      core.checkInvariants()
    }
  }

  @Test func aComputedValueIsComputedOnceUntilASourceChanges() {
    let graph = Graph()
    let a = graph.source(1)
    let double = graph.computed { $0.read(a) * 2 }
    #expect(graph.read(double) == 2)
    #expect(graph.read(double) == 2)
    #expect(graph.runs[double] == 1)
    graph.set(a, 5)
    #expect(graph.read(double) == 10)
    #expect(graph.runs[double] == 2)
    graph.core.checkInvariants()
  }

  @Test func theDiamondComputesEachValueOncePerWrite() {
    let graph = Graph()
    let a = graph.source(1)
    let b = graph.computed { $0.read(a) + 1 }
    let c = graph.computed { $0.read(a) * 10 }
    let d = graph.computed { $0.read(b) + $0.read(c) }
    #expect(graph.read(d) == 12)
    for value in 2...50 {
      graph.set(a, value)
      #expect(graph.read(d) == value + 1 + value * 10)
    }
    #expect(graph.runs[b] == 50 && graph.runs[c] == 50 && graph.runs[d] == 50)
    graph.core.checkInvariants()
  }

  @Test func anEqualResultStopsThePropagation() {
    let graph = Graph()
    let a = graph.source(1)
    let isPositive = graph.computed { $0.read(a) > 0 ? 1 : 0 }
    let label = graph.computed { $0.read(isPositive) == 1 ? 100 : -100 }
    #expect(graph.read(label) == 100)
    graph.set(a, 7)  // still positive: `label` is not recomputed
    #expect(graph.read(label) == 100)
    #expect(graph.runs[isPositive] == 2)
    #expect(graph.runs[label] == 1)
    graph.set(a, -1)
    #expect(graph.read(label) == -100)
    #expect(graph.runs[label] == 2)
  }

  @Test func dynamicDependenciesDropWhatIsNoLongerRead() {
    let graph = Graph()
    let flag = graph.source(1)
    let left = graph.source(10)
    let right = graph.source(20)
    let pick = graph.computed { $0.read(flag) == 1 ? $0.read(left) : $0.read(right) }
    #expect(graph.read(pick) == 10)
    #expect(graph.core.sources(of: pick) == [flag, left])
    graph.set(flag, 0)
    #expect(graph.read(pick) == 20)
    #expect(graph.core.sources(of: pick) == [flag, right])
    #expect(graph.core.dependents(of: left).isEmpty)
    let runs = graph.runs[pick]
    graph.set(left, 11)  // no longer read: nothing is marked
    #expect(!graph.core.isStale(pick))
    #expect(graph.read(pick) == 20)
    #expect(graph.runs[pick] == runs)
  }

  @Test func aSteadyRecomputationReusesItsLinksAndGrowsNothing() {
    let graph = Graph()
    let sources = (0..<8).map { graph.source($0) }
    let sum = graph.computed { graph in sources.reduce(0) { $0 + graph.read($1) } }
    _ = graph.read(sum)
    let capacity = graph.core.capacity
    for round in 1...1_000 {
      graph.set(sources[round % 8], round)
      _ = graph.read(sum)
    }
    #expect(graph.core.capacity == capacity)
    #expect(graph.core.linkCount == 8)
  }

  /// The `unstable` shape: a value that reads other sources on alternate writes inserts and
  /// purges links each time, from rows freed the time before: the arena stops growing.
  @Test func dependenciesThatChangeEveryWriteReuseFreedRows() {
    let graph = Graph()
    let parity = graph.source(0)
    let sources = (0..<6).map { graph.source($0) }
    let mixed = graph.computed { graph in
      let odd = graph.read(parity) % 2 == 1
      return (odd ? sources[0..<3] : sources[3..<6]).reduce(0) { $0 + graph.read($1) }
    }
    _ = graph.read(mixed)
    graph.set(parity, 1)
    _ = graph.read(mixed)
    let capacity = graph.core.capacity
    for round in 2...1_000 {
      graph.set(parity, round)
      #expect(graph.read(mixed) == (round % 2 == 1 ? 0 + 1 + 2 : 3 + 4 + 5))
    }
    #expect(graph.core.capacity == capacity)
    #expect(graph.core.linkCount == 4)
    graph.core.checkInvariants()
  }

  @Test func aWriteReportsEachWatchedValueItReachesOnce() {
    let graph = Graph()
    let a = graph.source(1)
    let b = graph.computed { $0.read(a) + 1 }
    let shown = graph.computed(watched: true) { $0.read(a) + $0.read(b) }
    _ = graph.read(shown)
    graph.set(a, 2)
    #expect(graph.reached == [shown])
    graph.set(a, 3)  // not refreshed since: already reported
    #expect(graph.reached.isEmpty)
    _ = graph.read(shown)
    graph.set(a, 4)
    #expect(graph.reached == [shown])
  }

  @Test func aFirstReadOfAChainOfAHundredThousandRecursesNowhere() {
    let graph = Graph()
    let source = graph.source(0)
    var last = source
    var chain: [DerivedGraphCore.Node] = []
    for _ in 0..<100_000 {
      let previous = last
      last = graph.computed { $0.read(previous) + 1 }
      chain.append(last)
    }
    // Computed from the root outwards, each once, so that no computation nests another: the
    // engine's first read of a deep chain does the same (its stops will show it).
    for node in chain { _ = graph.read(node) }
    #expect(graph.read(last) == 100_000)
    graph.set(source, 1)
    // A pending chain is checked with frames, not recursion.
    #expect(graph.read(last) == 100_001)
    #expect(graph.runs[last] == 2)
    graph.core.checkInvariants()
  }

  @Test func aValueThatReadsItselfIsACycle() {
    let graph = Graph()
    var loop: DerivedGraphCore.Node = -1
    loop = graph.computed { $0.read(loop) + 1 }
    _ = graph.read(loop)
    #expect(graph.cycle == loop)
  }

  @Test func aRemovedSourceMarksItsReadersAndItsRowIsReused() {
    let graph = Graph()
    let a = graph.source(1)
    let b = graph.source(2)
    let sum = graph.computed { $0.read(a) + $0.read(b) }
    #expect(graph.read(sum) == 3)
    graph.remove(b)
    #expect(graph.core.isStale(sum))
    #expect(graph.core.sources(of: sum) == [a])
    let c = graph.source(5)
    #expect(c == b, "the freed row is reused")
    #expect(graph.core.nodeCount == 3)
  }

  // MARK: Settling writes that came to nothing

  @Test func writesThatCameToNothingLeaveTheirReaderCleanWithoutComputing() {
    let graph = Graph()
    let input = graph.source(0)
    let other = graph.source(3)
    let value = graph.computed { $0.read(input) + $0.read(other) }
    let reader = graph.computed(watched: true) { $0.read(value) * 2 }
    #expect(graph.read(reader) == 6)
    graph.touch(input)
    graph.touch(input)
    #expect(graph.core.isStale(value))
    #expect(graph.core.settle(value, source: input, writes: 2))
    graph.core.checkInvariants()
    #expect(!graph.core.isStale(value))
    #expect(graph.read(reader) == 6)
    #expect(graph.runs[value] == 1)
    #expect(graph.runs[reader] == 1)
    // A later write marks it again, and reports the watched reader again.
    graph.set(other, 4)
    #expect(graph.reached == [reader])
    #expect(graph.read(reader) == 8)
  }

  @Test func aWriteBesideTheSettledOnesKeepsTheValueDirty() {
    let graph = Graph()
    let input = graph.source(0)
    let value = graph.computed { $0.read(input) + 1 }
    #expect(graph.read(value) == 1)
    graph.touch(input)
    graph.touch(input)
    // Two writes, of which the caller knows one came to nothing: the other stands.
    #expect(!graph.core.settle(value, source: input, writes: 1))
    graph.core.checkInvariants()
    #expect(graph.core.isStale(value))
    _ = graph.read(value)
    #expect(graph.runs[value] == 2)
  }

  @Test func anotherSourceThatMovedKeepsTheValueDirty() {
    let graph = Graph()
    let input = graph.source(0)
    let other = graph.source(1)
    let value = graph.computed { $0.read(input) + $0.read(other) }
    #expect(graph.read(value) == 1)
    graph.touch(input)
    graph.set(other, 2)
    #expect(!graph.core.settle(value, source: input, writes: 1))
    #expect(graph.read(value) == 2)
    #expect(graph.runs[value] == 2)
  }

  @Test func aValueThatLostASourceIsNotSettled() {
    let graph = Graph()
    let input = graph.source(0)
    let other = graph.source(1)
    final class Reads { var other = true }
    let reads = Reads()
    let value = graph.computed { $0.read(input) + (reads.other ? $0.read(other) : 0) }
    #expect(graph.read(value) == 1)
    reads.other = false
    graph.remove(other)
    graph.touch(input)
    // Its remaining links all hold, but what it read is gone: only computing settles it.
    #expect(!graph.core.settle(value, source: input, writes: 1))
    graph.core.checkInvariants()
    #expect(graph.core.isStale(value))
    _ = graph.read(value)
    #expect(graph.runs[value] == 2)
    #expect(!graph.core.isStale(value))
  }

  /// The `published` bit: a node published while clean is listed in `unpublished` by the
  /// first mark that reaches it, through a chain and through a removed source, once.
  @Test func aMarkTakesBackEachPublishedValueItReachesOnce() {
    let graph = Graph()
    let input = graph.source(1)
    let first = graph.computed { $0.read(input) + 1 }
    let second = graph.computed { $0.read(first) * 10 }
    #expect(graph.read(second) == 20)
    graph.core.setPublished(first)
    graph.core.setPublished(second)
    graph.core.checkInvariants()
    graph.set(input, 2)
    #expect(!graph.core.isPublished(first) && !graph.core.isPublished(second))
    #expect(
      (0..<graph.core.unpublished.count).map { graph.core.unpublished[$0] }.sorted() == [
        first, second,
      ])
    graph.core.clearUnpublished()
    graph.set(input, 3)  // already stale: nothing more to take back
    #expect(graph.core.unpublished.count == 0)
    #expect(graph.read(second) == 40)
    graph.core.setPublished(second)
    graph.remove(first)
    #expect(!graph.core.isPublished(second))
    #expect(graph.core.unpublished.count == 1 && graph.core.unpublished[0] == second)
    graph.core.checkInvariants()
  }
}
