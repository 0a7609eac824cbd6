import ArborealTestSupport
import Testing

@testable import Arboreal

/// Presented children and stacks through view stores, alerts as state, dismissal, and the
/// effects of a grandchild that end with its parent.
@Suite actor PresentationTests {
  /// A store in the caller's isolation (an actor-isolated test's, or a main-actor one's).
  private func makeStore(isolation: isolated (any Actor)? = #isolation) -> (Store<Board>, Jobs) {
    let jobs = Jobs(ids: [1, 2, 3, 4])
    return (Store(state: Board(), environment: jobs), jobs)
  }

  @Test func anOptionalViewStoreIsNilWhileTheChildIsAbsentAndDropsAfterDismissal() throws {
    let (store, _) = makeStore()
    #expect(store.viewStore(Board.sheet) == nil)
    store.send(.present(id: 1))
    let sheet = try #require(store.viewStore(Board.sheet))
    #expect(sheet.isPresent)
    #expect(sheet.state.id == 1)
    sheet.send(.start)
    #expect(store.runningEffectCount == 1)
    store.send(.sheet(.dismiss))
    #expect(store.state.sheet == nil)
    #expect(store.runningEffectCount == 0)
    #expect(!sheet.isPresent)
    #expect(sheet.state.id == 1)  // the last child seen
    sheet.send(.start)  // dropped
    #expect(store.runningEffectCount == 0)
    store.send(.present(id: 2))
    #expect(sheet.isPresent)
    #expect(sheet.state.id == 2)  // follows the new child
  }

  @Test func aStackHasAViewStorePerScreenAndPoppingEndsTheirEffects() throws {
    let (store, _) = makeStore()
    for id in [1, 2, 3] { store.send(.push(id: id)) }
    let screens = store.viewStores(Board.path)
    #expect(screens.map(\.state.id) == [1, 2, 3])
    for screen in screens { screen.send(.start) }
    #expect(store.runningEffectCount == 3)
    let second = store.state.path.id(at: 1)
    store.send(.path(.popFrom(id: second)))
    // Screens 2 and 3 popped, with their effects.
    #expect(store.state.path.map(\.id) == [1])
    #expect(store.runningEffectCount == 1)
    #expect(screens.map(\.isPresent) == [true, false, false])
    store.send(.popLast)
    #expect(store.runningEffectCount == 0)
    #expect(store.viewStore(Board.path, id: second) == nil)
  }

  @Test func stackIdentifiersAreStableAndNeverReused() {
    var stack = ModelStack<Job>()
    let a = stack.push(Job(id: 1))
    let b = stack.push(Job(id: 2))
    stack.popLast()
    let c = stack.push(Job(id: 3))
    #expect([a, b, c].map(\.rawValue) == [0, 1, 2])
    #expect(stack.elementIDs == [a, c])
    #expect(stack[id: b] == nil)
    #expect(stack[id: c]?.id == 3)
    let poppedTo = stack.pop(to: a)
    #expect(poppedTo)
    #expect(stack.map(\.id) == [1])
    let poppedFrom = stack.pop(from: c)
    #expect(!poppedFrom)
  }

  @Test func aScreenThatAsksToBeDismissedIsPoppedWithItsEffects() async {
    let (store, _) = makeStore()
    store.send(.push(id: 1))
    store.send(.push(id: 2))
    let top = store.state.path.id(at: 1)
    store.send(.path(.element(id: top, action: .start)))
    // `.close` returns `Fx.dismiss`: the stack receives `.popFrom(id:)` as an effect action.
    await store.send(.path(.element(id: top, action: .close))).value
    #expect(store.state.path.map(\.id) == [1])
    #expect(store.runningEffectCount == 0)
  }

  @Test func aPresentedChildThatAsksToBeDismissedIsSetToNil() async {
    let (store, _) = makeStore()
    store.send(.present(id: 1))
    await store.send(.sheet(.presented(.close))).value
    #expect(store.state.sheet == nil)
  }

  #if DEBUG
    @MainActor
    @Test func aDismissThatNothingCanHandleIsReported() async {
      let messages = Log<String>()
      ArborealDiagnostics.droppedActionHandler = { messages.append($0) }
      defer { ArborealDiagnostics.droppedActionHandler = nil }
      let (store, _) = makeStore()
      store.send(.presentPlain(id: 1))
      // A plain optional forward cannot dismiss: `Fx.dismiss` reaches the store.
      store.send(.plain(.close))
      #expect(store.state.plain != nil)
      let reported = messages.all.filter { $0.contains("`Fx.dismiss` reached the store of") }
      #expect(reported.count == 1)
    }
  #endif

  @Test func alertsAreValuesWhoseButtonsSendPresentationActions() {
    enum Choice: Sendable, Equatable { case delete }
    let alert = AlertState<Choice>(
      title: "Delete?", message: "It cannot be undone.",
      buttons: [AlertButton("Delete", role: .destructive, action: .delete), AlertButton("Cancel")])
    #expect(alert.actions(for: alert.buttons[0]) == .presented(.delete))
    #expect(alert.actions(for: alert.buttons[1]) == .dismiss)
    #expect(AlertState<Choice>(title: "Saved").buttons == [AlertButton("OK", role: .cancel)])
    #expect(alert != AlertState(title: "Delete?"))
  }

  @Test func aGrandchildsEffectsEndWhenItsParentScreenIsPopped() async {
    let store = Store(state: Shelf(), environment: Jobs(ids: [1]))
    store.send(.push)
    let id = store.state.screens.id(at: 0)
    store.send(.screens(.element(id: id, action: .job(.start))))
    #expect(store.runningEffectCount == 1)
    #expect(store.childRecordCount == 2)  // the screen and its job
    store.send(.screens(.popFrom(id: id)))
    #expect(store.runningEffectCount == 0)
    #expect(store.childRecordCount == 0)
    #expect(store.childWatchCount == 0)
  }

  @Test func aGrandchildsEffectsEndWhenItIsReplacedAndItsParentScreenStays() async {
    let store = Store(state: Shelf(), environment: Jobs(ids: [1]))
    store.send(.push)
    let id = store.state.screens.id(at: 0)
    store.send(.screens(.element(id: id, action: .job(.start))))
    #expect(store.runningEffectCount == 1)
    store.send(.screens(.element(id: id, action: .replaceJob)))
    #expect(store.runningEffectCount == 0)
    // The screen, idle now, is dropped the next time the stack is read.
    #expect(store.childRecordCount == 1)
  }

  @Test func aGrandchildAsksItsScreenToBeDismissedThroughAPlainForward() async {
    let store = Store(state: Shelf(), environment: Jobs(ids: [1]))
    store.send(.push)
    let id = store.state.screens.id(at: 0)
    await store.send(.screens(.element(id: id, action: .job(.close)))).value
    #expect(store.state.screens.isEmpty)
  }
}

/// A stack of screens, each holding one job: a grandchild.
final class Shelf: ArborealModel {
  final class Screen: ArborealModel {
    enum Action: Sendable, Equatable {
      case job(Job.Action)
      case replaceJob
    }
    let registrar = TrackingRegistrar()
    @Tracked private(set) var job = Job(id: 1)
    static let job = ChildRoute.child(\Screen.job, tag: Action.job)

    func update(action: Action, environment: Jobs) -> Fx<Action> {
      switch action {
      case .job(let action):
        return forward(action, to: Self.job, environment: environment)
      case .replaceJob:
        job = Job(id: 1)
        return .none
      }
    }
  }

  enum Action: Sendable, Equatable {
    case screens(StackAction<Screen.Action>)
    case push
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var screens = ModelStack<Screen>()
  static let screens = ChildRoute.stack(\Shelf.screens, tag: Action.screens)

  func update(action: Action, environment: Jobs) -> Fx<Action> {
    switch action {
    case .screens(let action):
      return forward(action, to: Self.screens, environment: environment)
    case .push:
      screens.push(Screen())
      return .none
    }
  }
}

#if DEBUG
  @Suite actor DismissDiagnosticsTests {
    final class Closer: ArborealModel {
      enum Action: Sendable, Equatable { case close, saved }
      let registrar = TrackingRegistrar()
      func update(action: Action, environment: Void) -> Fx<Action> {
        switch action {
        case .close: return .merge(Fx { .saved }, .dismiss)
        case .saved: return .none
        }
      }
    }

    final class Host: ArborealModel {
      enum Action: Sendable, Equatable { case closer(PresentationAction<Closer.Action>) }
      let registrar = TrackingRegistrar()
      @Tracked private(set) var closer: Closer? = Closer()
      static let closer = ChildRoute.child(\Host.closer, tag: Action.closer)
      func update(action: Action, environment: Void) -> Fx<Action> {
        switch action {
        case .closer(let action):
          return forward(action, to: Self.closer, environment: ())
        }
      }
    }

    @MainActor
    @Test func effectsReturnedWithADismissalAreReported() {
      let messages = Log<String>()
      ArborealDiagnostics.droppedActionHandler = { messages.append($0) }
      defer { ArborealDiagnostics.droppedActionHandler = nil }
      let store = Store(state: Host(), environment: ())
      store.send(.closer(.presented(.close)))
      #expect(store.state.closer == nil)
      #expect(store.runningEffectCount == 0)
      let reported = messages.all.filter { $0.contains("Closer returned effects together with") }
      #expect(reported.count == 1)
    }
  }
#endif
