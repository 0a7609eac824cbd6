import Dispatch
import Synchronization
import Testing

@testable import ArborealTracking

/// The graph holds its nodes strongly (sources, dependents, input links): each test drops the
/// values and finds every node gone, or finds a dependent still right after its source went.
@Suite struct DerivedGraphLifetimeTests {
  final class Source: Trackable, @unchecked Sendable {
    let registrar = TrackingRegistrar()
    @Tracked var count = 0
  }

  /// Counts its live instances.
  final class Counted: Sendable {
    static let live = Atomic<Int>(0)
    let number: Int

    init(_ number: Int) {
      self.number = number
      Self.live.wrappingAdd(1, ordering: .relaxed)
    }

    deinit { Self.live.wrappingSubtract(1, ordering: .relaxed) }
  }

  /// A model whose derived value reads another of its own; the cached values are counted.
  final class Sheet: Trackable, @unchecked Sendable {
    let registrar = TrackingRegistrar()
    @Tracked var count = 1
    @Derived({ (sheet: Sheet) in Counted(sheet.count * 2) }) var double: Counted
    @Derived({ (sheet: Sheet) in Counted(sheet.double.number + 1) }) var next: Counted
  }

  /// Weak references to nodes, kept apart from the values so that the values can go.
  struct Nodes {
    private var boxes: [() -> AnyObject?] = []

    mutating func watch(_ node: AnyObject) {
      weak let weak = node
      boxes.append { weak }
    }

    var live: Int { boxes.filter { $0() != nil }.count }
  }

  @Test func aChainThatWasObservedAndWrittenGoesWithItsValues() {
    let source = Source()
    var nodes = Nodes()
    do {
      var chain = [Derived { source.count + 1 }]
      for _ in 1..<50 {
        let previous = chain[chain.count - 1]
        chain.append(Derived { previous.value + 1 })
      }
      for value in chain { nodes.watch(value.node) }
      let last = chain[chain.count - 1]
      let token = observe { _ in _ = last.value }
      for count in 1...5 { source.count = count }
      #expect(last.value == 55)
      token.cancel()
    }
    #expect(nodes.live == 0)
  }

  /// A value that switched from one source to another keeps an edge from the first (edges
  /// stay): its disposal still removes it, or the first source would hold the value, whose
  /// closure holds the source.
  @Test func aValueThatSwitchedSourcesGoesWithThem() {
    let input = Source()
    var nodes = Nodes()
    do {
      let even = Derived { input.count * 2 }
      let odd = Derived { input.count * 2 + 1 }
      let choice = Derived { input.count % 2 == 0 ? even.value : odd.value }
      for value in [even, odd, choice] { nodes.watch(value.node) }
      for count in 0..<6 {
        input.count = count
        #expect(choice.value == count * 2 + count % 2)
      }
      // Observed too: the writes push marks and refresh it.
      let token = observe { _ in _ = choice.value }
      for count in 6..<12 {
        input.count = count
        #expect(choice.value == count * 2 + count % 2)
      }
      token.cancel()
    }
    #expect(nodes.live == 0)
  }

  @Test func theUnstableShapeGoesWithItsValues() {
    var nodes = Nodes()
    for _ in 0..<50 {
      let source = Source()
      let double = Derived { source.count * 2 }
      let inverse = Derived { -source.count }
      let current = Derived { source.count % 2 == 0 ? double.value : inverse.value }
      for value in [double, inverse, current] { nodes.watch(value.node) }
      let token = observe { changes in _ = (current.value, changes.isEmpty) }
      for write in 1...10 {
        source.count = write
        #expect(current.value == (write % 2 == 0 ? write * 2 : -write))
      }
      token.cancel()
    }
    #expect(nodes.live == 0)
  }

  /// The values' nodes hold each other and the model's registrar holds their input links;
  /// the model and both cached values still go with the model.
  @Test func aModelsValuesThatReadEachOtherGoWithTheModel() {
    let before = Counted.live.load(ordering: .relaxed)
    weak var weakSheet: Sheet?
    do {
      let sheet = Sheet()
      weakSheet = sheet
      let token = observe { _ in _ = sheet.next }
      #expect(sheet.next.number == 3)
      sheet.count = 5
      #expect(sheet.next.number == 11)
      token.cancel()
    }
    #expect(weakSheet == nil)
    #expect(Counted.live.load(ordering: .relaxed) == before)
  }

  /// A dependent that reads its source through a box it can empty: once the source's last
  /// value is gone, the dependent's edge to the node finds it disposed, and the dependent
  /// recomputes without it.
  @Test func aDependentWhoseSourceWentRecomputesWithoutIt() {
    final class Box: @unchecked Sendable {
      var source: Derived<Int>?
    }
    let input = Source()
    let box = Box()
    var nodes = Nodes()
    box.source = Derived { input.count * 10 }
    nodes.watch(box.source!.node)
    let reader = Derived { (box.source?.value ?? -1) + input.count }
    #expect(reader.value == 0)
    input.count = 1
    #expect(reader.value == 11)
    box.source = nil
    input.count = 2
    #expect(reader.value == 1)
    #expect(nodes.live == 0)
  }

  // MARK: Every isolation

  /// Makes a source, a value on it and a value of that value in the caller's isolation,
  /// observes the second, writes, and drops them all; returns how many of their nodes live.
  static func liveAfterUse(isolation: isolated (any Actor)? = #isolation) -> Int {
    var nodes = Nodes()
    use(watching: &nodes)
    return nodes.live
  }

  /// The work of ``liveAfterUse(isolation:)``, watching the nodes in `nodes`.
  static func use(watching nodes: inout Nodes, isolation: isolated (any Actor)? = #isolation) {
    let source = Source()
    do {
      let double = Derived { source.count * 2 }
      let next = Derived { double.value + 1 }
      nodes.watch(double.node)
      nodes.watch(next.node)
      let token = observe { _ in _ = next.value }
      for count in 1...3 { source.count = count }
      #expect(next.value == 7)
      token.cancel()
    }
  }

  /// An actor whose values' refreshes and observer runs are jobs queued for it, which hold
  /// the nodes until they run.
  actor Worker {
    var nodes = Nodes()

    func use() { DerivedGraphLifetimeTests.use(watching: &nodes) }

    func live() -> Int { nodes.live }
  }

  @Test func valuesMadeNonisolatedGo() {
    #expect(Self.liveAfterUse() == 0)
  }

  @MainActor @Test func valuesMadeOnTheMainActorGo() {
    #expect(Self.liveAfterUse() == 0)
  }

  @Test func valuesMadeOnAnotherActorGo() async {
    let worker = Worker()
    await worker.use()
    // The deliveries the writes queued for the worker hold the nodes until they run: wait
    // for them by turns, not by time.
    var live = await worker.live()
    var turns = 0
    while live > 0 && turns < 10_000 {
      await Task.yield()
      live = await worker.live()
      turns += 1
    }
    #expect(live == 0, "\(live) nodes still held after 10,000 turns: a queued delivery never ran")
  }

  @Test func valuesMadeInADetachedTaskGo() async {
    #expect(await Task.detached { Self.liveAfterUse() }.value == 0)
  }

  /// A value whose last handle goes while it computes on another thread stores no input link;
  /// the tracked reads of that computation still let go of their registrar (else its
  /// properties' observed bits could never be cleared, and every write to them would take
  /// the slow path for good).
  @Test func aValueDisposedWhileItComputesLetsGoOfTheRegistrarItRead() {
    let source = Source()
    let reading = DispatchSemaphore(value: 0)
    let goOn = DispatchSemaphore(value: 0)
    var value: Derived<Int>? = Derived {
      let count = source.count
      reading.signal()
      // Bounded: a test that failed before signalling leaves no thread waiting for ever.
      _ = goOn.wait(timeout: .now() + 120)
      return count
    }
    let node = value.unsafelyUnwrapped.node
    let done = DispatchSemaphore(value: 0)
    // The other thread reads the node (kept alive by a retain of the test's) through no handle.
    let unmanaged = Unmanaged.passRetained(node)
    DispatchQueue.global().async {
      _ = unmanaged.takeUnretainedValue().read(owner: nil)
      done.signal()
    }
    // Bounded, so that a regression fails here, naming the wait, instead of hanging.
    guard reading.wait(timeout: .now() + 120) == .success else {
      Issue.record("the other thread's computation never started")
      unmanaged.release()
      return
    }
    value = nil
    goOn.signal()
    guard done.wait(timeout: .now() + 120) == .success else {
      Issue.record("the other thread's read never returned")
      return
    }
    #expect(node.isDisposed)
    #expect(source.registrar.core.pendingScopes.load(ordering: .sequentiallyConsistent) == 0)
    unmanaged.release()
  }
}
