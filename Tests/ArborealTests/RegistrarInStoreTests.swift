import Arboreal
import Testing

/// The registrar's guarantees as a store's user meets them: net changes per action, owners in
/// the log, `values(of:)` over store state from any task, cheap in-place edits in updates.
@MainActor @Suite struct RegistrarInStoreTests {
  final class Job: ArborealModel {
    enum Action: Sendable { case check, rename(String), toggle(Int), reset(Int) }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var isBusy = false
    @Tracked private(set) var title = "job"
    @Tracked private(set) var flags: [Bool] = []

    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .check:
        isBusy = true
        isBusy = false  // set and set back: no change
      case .rename(let title):
        isBusy = true
        self.title = title
        isBusy = false
      case .toggle(let index):
        flags[index].toggle()
      case .reset(let count):
        flags = Array(repeating: false, count: count)
      }
      return .none
    }
  }

  @Test func anActionThatSetsAndSetsBackChangesNothing() {
    let store = Store(state: Job(), environment: ())
    var lines: [String] = []
    store.addLogHandler { lines.append("\($0.changes)") }
    var runs = 0
    let token = observe { _ in
      _ = store.state.isBusy
      runs += 1
    }
    store.send(.check)
    store.send(.rename("report"))
    #expect(lines == ["", "title"])
    #expect(runs == 1)
    token.cancel()
  }

  @Test func theLogNamesTheOwnerOfEachChange() {
    let store = Store(state: Job(), environment: ())
    var lines: [String] = []
    store.addLogHandler { lines.append("\($0)") }
    store.send(.rename("report"))
    let owner = store.state.$title.owner!
    #expect(lines == ["rename(\"report\") → \(owner).title"])
    #expect(owner.typeName == "Job")
  }

  @Test func valuesOfStoreStateCanBeIteratedFromADetachedTask() async {
    let store = Store(state: Job(), environment: ())
    let titles = values(of: { store.state.title })
    let reader = Task.detached {
      var seen: [String] = []
      for await title in titles {
        seen.append(title)
        if title == "c" { break }
      }
      return seen
    }
    // Each send waits for the reader to have seen the previous value, so that no
    // transaction is coalesced with the next.
    var expected = ["job"]
    for title in ["a", "b", "c"] {
      await store.settle()
      store.send(.rename(title))
      expected.append(title)
    }
    #expect(await reader.value == expected)
  }

  @Test func anObservedListEditedInAnUpdateIsNotCopied() {
    let store = Store(state: Job(), environment: ())
    store.send(.reset(1_000_000))
    var runs = 0
    let token = observe { _ in
      _ = store.state.flags.count
      runs += 1
    }
    let buffer = { store.state.flags.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }
    let before = buffer()
    for index in stride(from: 0, to: 1_000_000, by: 10_000) { store.send(.toggle(index)) }
    #expect(buffer() == before)
    #expect(runs == 101)
    #expect(stride(from: 0, to: 1_000_000, by: 10_000).allSatisfy { store.state.flags[$0] })
    token.cancel()
  }
}

extension Store {
  /// Gives other tasks a few turns of the main actor.
  nonisolated(nonsending) fileprivate func settle() async {
    for _ in 0..<10 { await Task.yield() }
  }
}
