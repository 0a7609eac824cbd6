import ArborealTestSupport
import ArborealTracking
import Testing

/// An observed collection edited in place is not copied: the edit costs O(1), in every
/// isolation, at every size. The proof is the array's buffer: a copy would move it.
@Suite struct InPlaceEditTests {
  struct Item: Equatable, Sendable {
    var title: String
    var done = false
  }

  /// A list whose storage only the test's one thread touches at a time.
  ///
  /// Invariant (why `@unchecked Sendable` holds): each test writes and reads it from one
  /// task at a time; observers only read `count`, after the write that notified them.
  final class Inventory: Trackable, @unchecked Sendable {
    let registrar = TrackingRegistrar()
    @Tracked var items: [Item]
    @Tracked var flag = false

    init(count: Int) {
      // Built without per-element work, so that the million-item cases stay cheap under
      // the sanitizers and do not hold the test pool's threads.
      items = Array(repeating: Item(title: "item"), count: count)
    }

    /// The address of the items' buffer.
    var buffer: UnsafeRawPointer? {
      withoutTracking { items.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
    }
  }

  /// Edits `inventory` in place `edits` times and checks that the buffer never moved.
  static func editInPlace(_ inventory: Inventory, edits: Int) {
    let before = inventory.buffer
    for index in 0..<edits {
      inventory.items[index % inventory.items.count].done.toggle()
      #expect(inventory.buffer == before)
    }
    inventory.items.reserveCapacity(inventory.items.count + edits)
    let reserved = inventory.buffer
    for index in 0..<edits {
      inventory.items.append(Item(title: "new", done: index.isMultiple(of: 2)))
      #expect(inventory.buffer == reserved)
    }
  }

  @Test(arguments: [1, 1_000_000])
  func aNonisolatedObserverSeesEveryEditWithoutACopy(size: Int) {
    let inventory = Inventory(count: size)
    let runs = Log<Int>()
    let token = observe { _ in runs.append(inventory.items.count) }
    Self.editInPlace(inventory, edits: 100)
    #expect(runs.count == 202)  // the first run, 100 edits, the reservation, 100 appends
    token.cancel()
  }

  @MainActor @Test(arguments: [1, 1_000_000])
  func aMainActorObserverSeesEveryEditWithoutACopy(size: Int) {
    let inventory = Inventory(count: size)
    var runs = 0
    let token = observe { _ in
      _ = inventory.items
      runs += 1
    }
    Self.editInPlace(inventory, edits: 100)
    #expect(runs == 202)  // the first run, 100 edits, the reservation, 100 appends
    token.cancel()
  }

  /// Observes and edits on its own executor: its observer's runs are queued there.
  actor Editor {
    var runs = 0
    func editWhileObserving(_ inventory: Inventory) -> TrackingToken {
      let token = observe { _ in
        _ = inventory.items.count
        self.runs += 1
      }
      InPlaceEditTests.editInPlace(inventory, edits: 100)
      return token
    }
  }

  @Test(arguments: [1, 1_000_000])
  func anActorObserverMakesNoCopy(size: Int) async {
    let inventory = Inventory(count: size)
    let editor = Editor()
    let token = await editor.editWhileObserving(inventory)
    #expect(await editor.runs >= 1)
    token.cancel()
  }

  @Test(arguments: [1, 1_000_000])
  func aDetachedWriterMakesNoCopy(size: Int) async {
    let inventory = Inventory(count: size)
    let runs = Log<Int>()
    let token = observe { _ in runs.append(inventory.items.count) }
    await Task.detached { Self.editInPlace(inventory, edits: 100) }.value
    #expect(runs.count == 202)  // the first run, 100 edits, the reservation, 100 appends
    token.cancel()
  }

  @MainActor @Test func anEditInsideATransactionMakesNoCopyAndNotifiesOnce() {
    let inventory = Inventory(count: 1_000)
    var changes: [String] = []
    let token = observe { (changed: TrackingChanges) in
      _ = inventory.items
      if !changed.isEmpty { changes.append(changed.description) }
    }
    let before = inventory.buffer
    withTransaction {
      for index in 0..<100 { inventory.items[index].done = true }
    }
    #expect(inventory.buffer == before)
    #expect(changes == ["items"])
    token.cancel()
  }

  @MainActor @Test func aTrivialValueEditedToAnEqualValueNotifiesNobody() {
    let counter = Counter()
    var runs = 0
    let token = observe { _ in
      _ = counter.count
      runs += 1
    }
    counter.count += 0
    #expect(runs == 1)
    counter.count += 1
    #expect(runs == 2)
    token.cancel()
  }
}
