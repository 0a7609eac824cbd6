import Arboreal
import Testing

/// Memoized selectors on `Store` and `ViewStore`: cached, usable as a binding's getter and in
/// observers, which run only when the selected result changes.
@MainActor @Suite struct StoreDerivedTests {
  @Test func aSelectorIsComputedOnceUntilWhatItReadChanges() {
    let store = Store(state: Counter(), environment: ())
    var computations = 0
    let total = store.derived("total") { counter in
      computations += 1
      return counter.count * counter.step
    }
    #expect(computations == 0)
    #expect(total.value == 0)
    #expect(total.value == 0)
    #expect(computations == 1)
    store.send(.setStep(3))
    store.send(.increment)
    #expect(computations == 1)  // nobody observes it: nothing computed yet
    #expect(total.value == 9)
    #expect(computations == 2)
  }

  @Test func observersOfASelectorRunOnlyWhenItsResultChanges() {
    let store = Store(state: Counter(), environment: ())
    let isPositive = store.derived("isPositive") { $0.count > 0 }
    var seen: [Bool] = []
    let token = observe { _ in seen.append(isPositive.value) }
    store.send(.increment)
    store.send(.increment)
    store.send(.setStep(5))
    store.send(.set(-1))
    #expect(seen == [false, true, false])
    token.cancel()
  }

  @Test func aSelectorObservedWithItsPreviousValue() {
    let store = Store(state: Counter(), environment: ())
    let doubled = store.derived { $0.count * 2 }
    var pairs: [[Int]] = []
    let token = observe({ doubled.value }) { old, new in pairs.append([old, new]) }
    store.send(.increment)
    store.send(.bump)  // count changes twice in one action: one notification
    #expect(pairs == [[0, 2], [2, 6]])
    token.cancel()
  }

  @Test func aBindingReadsASelectorAndSendsItsAction() {
    let store = Store(state: Counter(), environment: ())
    var computations = 0
    let count = store.derived("count") { counter in
      computations += 1
      return counter.count
    }
    let binding = store.binding(count, tag: Counter.Action.set)
    #expect(binding.wrappedValue == 0)
    #expect(binding.wrappedValue == 0)
    #expect(computations == 1)
    binding.wrappedValue = 7
    #expect(store.state.count == 7)
    #expect(binding.wrappedValue == 7)
    #expect(computations == 2)

    var runs = 0
    let token = observe { _ in
      _ = binding.wrappedValue
      runs += 1
    }
    store.send(.setStep(2))  // not read by the selector
    #expect(runs == 1)
    token.cancel()
  }

  @Test func aViewStoreSelectorFollowsAReplacedChild() {
    let store = Store(state: Parent(), environment: ())
    let child = store.viewStore(Parent.child)
    let label = child.derived("label") { "\($0.title) \($0.count)" }
    var seen: [String] = []
    let token = observe { _ in seen.append(label.value) }
    child.send(.increment)
    store.send(.replaceChild(count: 5))
    child.send(.rename("five"))
    store.send(.setName("unrelated"))
    #expect(seen == [" 0", " 1", " 5", "five 5"])
    token.cancel()
  }

  @Test func aSelectorChangeIsNotAChangeOfTheState() {
    let store = Store(state: Counter(), environment: ())
    let doubled = store.derived { $0.count * 2 }
    let token = observe { _ in _ = doubled.value }
    var logged: [[String]] = []
    store.addLogHandler { logged.append($0.changes.names) }
    store.send(.increment)
    #expect(logged == [["count"]])
    token.cancel()
  }
}
