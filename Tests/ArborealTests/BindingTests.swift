import Arboreal
import Testing

/// The guarantee (Docs/Semantics.md, "The store"): reading a binding inside tracking tracks what
/// its `get` read; setting it sends exactly one action.
@MainActor @Suite struct BindingTests {
  @Test func readingABindingInsideTrackingTracksWhatGetRead() {
    let store = Store(state: Parent(), environment: ())
    let name = store.binding(get: \.name, tag: Parent.Action.setName)
    var fired: [[String]] = []
    let value = withTracking {
      name.wrappedValue
    } onChange: { changes in
      fired.append(changes.names)
    }
    #expect(value == "")
    store.send(.replaceChild(count: 1))  // not read by `get`
    #expect(fired.isEmpty)
    store.send(.setName("Ada"))
    #expect(fired == [["name"]])
  }

  @Test func settingABindingSendsExactlyOneAction() {
    let store = Store(state: Parent(), environment: ())
    var actions: [Parent.Action] = []
    store.addLogHandler { actions.append($0.action) }
    let name = store.binding(get: \.name, tag: Parent.Action.setName)
    name.wrappedValue = "Ada"
    #expect(actions == [.setName("Ada")])
    #expect(store.state.name == "Ada")
    #expect(name.wrappedValue == "Ada")
    name.wrappedValue = "Ada"  // the same value: still one action per set
    #expect(actions == [.setName("Ada"), .setName("Ada")])
  }

  @Test func aBindingOnAViewStoreSendsTheTaggedAction() {
    let store = Store(state: Parent(), environment: ())
    let child = store.viewStore(Parent.child)
    var actions: [Parent.Action] = []
    store.addLogHandler { actions.append($0.action) }
    let title = child.binding(get: \.title, tag: Child.Action.rename)
    title.wrappedValue = "Grace"
    #expect(actions == [.child(.rename("Grace"))])
    #expect(title.wrappedValue == "Grace")
  }

  @Test func aBindingOfADerivedValueTracksEverythingItsGetterRead() {
    let store = Store(state: Counter(), environment: ())
    let total = store.binding(get: { $0.count * $0.step }, tag: Counter.Action.set)
    var runs = 0
    let token = observe { _ in
      _ = total.wrappedValue
      runs += 1
    }
    store.send(.setStep(3))
    store.send(.increment)
    #expect(runs == 3)
    #expect(total.wrappedValue == 9)
    token.cancel()
  }

  @Test func aBindingWorksInATaskOfItsStoresIsolation() async {
    let store = Store(state: Counter(), environment: ())
    let count = store.binding(get: \.count, tag: Counter.Action.set)
    // `StoreBinding` is not `Sendable`: a task in the store's isolation (here the main actor)
    // may use it; a detached task may not, which the compiler checks.
    await Task {
      count.wrappedValue = 5
    }.value
    #expect(store.state.count == 5)
  }

  @Test func settingThroughSetReturnsTheSendsHandle() async {
    let store = Store(state: Script(), environment: ())
    let size = store.binding(
      get: { $0.log.count },
      tag: { size in .then("set \(size)", Fx { .record("effect of \(size)") }) })
    let handle = size.set(1)
    #expect(!handle.isFinished)
    await handle.value
    #expect(store.state.log == ["set 1", "effect of 1"])
    #expect(StoreBinding(get: { 0 }, set: { _ in }).set(1).isFinished)
  }
}
