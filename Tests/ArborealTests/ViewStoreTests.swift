import Arboreal
import ArborealTestSupport
import Testing

/// The guarantee (Docs/Semantics.md, "The store"): a view store reads its child through `get` on
/// every access and sends child actions to the parent through `tag`; the child's update runs inside
/// the parent's. And the keyed form, including what happens when its child disappears.
@MainActor @Suite struct ViewStoreTests {
  @Test func stateReevaluatesGetSoAReplacedChildIsSeen() {
    let store = Store(state: Parent(), environment: ())
    let child = store.viewStore(Parent.child)
    let original = child.state
    store.send(.replaceChild(count: 5))
    #expect(child.state !== original)
    #expect(child.state === store.state.child)
    #expect(child.state.count == 5)
  }

  @Test func aChildActionReachesTheParentThroughTag() {
    let store = Store(state: Parent(), environment: ())
    let child = store.viewStore(Parent.child)
    child.send(.increment)
    child.send(.rename("Ada"))
    #expect(store.state.seen == ["child increment", "child rename(\"Ada\")"])
    #expect(child.state.count == 1)
    #expect(child.state.title == "Ada")
  }

  @Test func theChildsUpdateRunsInsideTheParentsTransaction() {
    let store = Store(state: Parent(), environment: ())
    let child = store.viewStore(Parent.child)
    var notifications: [[String]] = []
    let token = observe { changes in
      _ = (store.state.seen, child.state.count)
      if !changes.isEmpty { notifications.append(changes.names) }
    }
    child.send(.increment)
    // The parent's `seen` and the child's `count` changed in one action: one notification.
    #expect(notifications == [["seen", "count"]])
    token.cancel()
  }

  @Test func theChildsEffectsAreTaggedBackToParentActions() async {
    let store = Store(state: Parent(), environment: ())
    let child = store.viewStore(Parent.child)
    await child.send(.renameLater("Grace")).value
    #expect(store.state.seen == ["child renameLater(\"Grace\")", "child rename(\"Grace\")"])
    #expect(child.state.title == "Grace")
  }

  @Test func viewStoresNest() async {
    let store = Store(state: Grandparent(), environment: ())
    let parent = store.viewStore(Grandparent.parent)
    let child = parent.viewStore(Parent.child)
    child.send(.increment)
    #expect(store.state.parent.child.count == 1)
    #expect(store.state.parent.seen == ["child increment"])
    await child.send(.renameLater("nested")).value
    #expect(child.state.title == "nested")
    #expect(child.isPresent)
  }

  @Test func readingStateInsideTrackingTracksTheSlotAndTheChild() {
    let store = Store(state: Parent(), environment: ())
    let child = store.viewStore(Parent.child)
    var runs = 0
    let token = observe { _ in
      _ = child.state.count
      runs += 1
    }
    child.send(.increment)  // the child's count
    store.send(.replaceChild(count: 3))  // the parent's slot
    child.send(.increment)  // the new child's count
    store.send(.setName("unrelated"))  // not read: no run
    #expect(runs == 4)
    token.cancel()
  }

  @Test func aKeyedViewStoreIsNilForAMissingKey() {
    let store = Store(state: Parent(), environment: ())
    store.send(.addRow(id: 1))
    let missing = store.viewStore(Parent.rows, id: 2)
    #expect(missing == nil)
  }

  @Test func aKeyedViewStoreReadsItsChildAndTagsItsKey() async throws {
    let store = Store(state: Parent(), environment: ())
    store.send(.addRow(id: 1))
    store.send(.addRow(id: 2))
    let row = try #require(
      store.viewStore(Parent.rows, id: 2))
    row.send(.increment)
    #expect(store.state.row(id: 2)?.count == 1)
    #expect(store.state.row(id: 1)?.count == 0)
    #expect(store.state.seen == ["row 2 increment"])
    await row.send(.renameLater("two")).value
    #expect(row.state.title == "two")
    #expect(row.isPresent)
  }

  @Test func aKeyedViewStoreWhoseChildDisappearsKeepsTheLastChildAndDropsSends() throws {
    let store = Store(state: Parent(), environment: ())
    store.send(.addRow(id: 1))
    let row = try #require(
      store.viewStore(Parent.rows, id: 1))
    row.send(.increment)
    let last = row.state
    store.send(.removeRow(id: 1))

    #expect(!row.isPresent)
    #expect(row.state === last)  // the detached child, as it was
    #expect(row.state.count == 1)
    let handle = row.send(.increment)
    #expect(handle.isFinished)
    #expect(store.state.seen == ["row 1 increment"])  // the parent never saw the second one
    #expect(last.count == 1)

    // A child with the same key appears again: the view store follows it.
    store.send(.addRow(id: 1))
    #expect(row.isPresent)
    #expect(row.state !== last)
    row.send(.increment)
    #expect(row.state.count == 1)
    #expect(store.state.seen == ["row 1 increment", "row 1 increment"])
  }

  @Test func aViewStoreBelowAMissingKeyedChildIsMissingToo() throws {
    let store = Store(state: Parent(), environment: ())
    store.send(.addRow(id: 1))
    let row = try #require(
      store.viewStore(Parent.rows, id: 1))
    // A view store of the same child, scoped below the keyed one.
    let same = row.viewStore()
    #expect(same.isPresent)
    store.send(.removeRow(id: 1))
    #expect(!same.isPresent)
    same.send(.increment)
    #expect(store.state.seen.isEmpty)
    #expect(same.state.count == 0)
  }

  @Test func aViewStoreBelowACustomStoreWhoseModelDisappearsIsMissingToo() throws {
    let store = Store(state: Parent(), environment: ())
    store.send(.addRow(id: 1))
    let custom = Hideable(store)
    let child = custom.viewStore(Parent.child)
    let row = try #require(
      custom.viewStore(Parent.rows, id: 1))
    child.send(.increment)
    let last = child.state
    #expect(child.isPresent && row.isPresent)
    #expect(child.presentState === last)

    custom.isShown = false
    #expect(!child.isPresent && !row.isPresent)
    #expect(child.presentState == nil)
    #expect(child.state === last)  // the last child seen
    child.send(.increment)
    row.send(.increment)
    #expect(store.state.seen == ["child increment"])  // the custom store dropped both
    #expect(custom.dropped == 2)

    custom.isShown = true
    #expect(child.isPresent && row.isPresent)
    row.send(.increment)
    #expect(store.state.seen == ["child increment", "row 1 increment"])
  }

  #if DEBUG
    @Test func aSendBelowARemovedRowIsReportedByTheRowWithItsKey() throws {
      let messages = Log<String>()
      ArborealDiagnostics.droppedActionHandler = { messages.append($0) }
      defer { ArborealDiagnostics.droppedActionHandler = nil }
      let store = Store(state: Parent(), environment: ())
      store.send(.addRow(id: 1))
      let row = try #require(
        store.viewStore(Parent.rows, id: 1))
      let same = row.viewStore()
      store.send(.removeRow(id: 1))
      same.send(.increment)
      #expect(store.state.seen.isEmpty)
      let reported = messages.all.filter { $0.contains("Child[1]") }
      #expect(reported.count == 1)
      #expect(reported.first?.contains("dropped increment") == true)
    }
  #endif

  @Test func anActionQueuedBehindItsRowsRemovalReachesTheParentWhichIgnoresIt() throws {
    let store = Store(state: Parent(), environment: ())
    store.send(.addRow(id: 1))
    let row = try #require(
      store.viewStore(Parent.rows, id: 1))
    var once = true
    let token = observe { changes in
      _ = store.state.name
      guard !changes.isEmpty, once else { return }
      once = false
      // The store is busy: both are queued. When `row.send` runs, the row is still there, so
      // the view store forwards the action; by the time the parent handles it, the row is gone.
      store.send(.removeRow(id: 1))
      row.send(.increment)
    }
    store.send(.setName("go"))
    #expect(store.state.rows.isEmpty)
    #expect(store.state.seen.isEmpty)  // `Parent.update` ignored the action for a missing key
    token.cancel()
  }

  @Test func aViewStoreFromAValueShowsItAndSendsToTheClosure() {
    var sent: [Child.Action] = []
    let child = Child(id: 3, count: 5)
    let preview = ViewStore(state: child) { sent.append($0) }
    let handle = preview.send(.increment)
    #expect(sent == [.increment])
    #expect(handle.isFinished)
    #expect(preview.state === child)
    #expect(preview.state.count == 5)  // nothing applies the action
    #expect(preview.isPresent)
  }

  @Test func theWholeStoresViewStoreReadsTheModelAndSendsItsActions() {
    let store = Store(state: Parent(), environment: ())
    let root = store.viewStore()
    #expect(root.state === store.state)
    root.send(.setName("Ada"))
    #expect(store.state.name == "Ada")
    let child = root.viewStore(Parent.child)
    child.send(.increment)
    #expect(store.state.child.count == 1)
  }
}

/// A store of its own whose model can disappear: it forwards to a `Store` while `isShown` and
/// drops its sends otherwise, as the `ArborealStore/isPresent` requirement asks.
private final class Hideable: ArborealStore {
  let store: Store<Parent>
  var isShown = true
  private(set) var dropped = 0

  init(_ store: Store<Parent>) { self.store = store }

  var state: Parent { store.state }
  var isPresent: Bool { isShown }

  func send(_ action: Parent.Action) -> SendHandle {
    guard isShown else {
      dropped += 1
      return SendHandle()
    }
    return store.send(action)
  }
}
