import Arboreal
import ArborealTestSupport
import ArborealTesting
import Testing

/// A screen shown on a stack or in a sheet.
final class Page: ArborealModel {
  enum Action: Sendable, Equatable { case noop }
  let registrar = TrackingRegistrar()
  func update(action: Action, environment: Void) -> Fx<Action> { .none }
}

/// A model with an optional child, a sheet and a stack: each can be emptied twice.
final class Pages: ArborealModel {
  enum Action: Sendable, Equatable {
    case clearDetail
    case sheet(PresentationAction<Page.Action>)
    case path(StackAction<Page.Action>)
    case push
  }

  let registrar = TrackingRegistrar()
  @Tracked var detail: Page? = Page()
  @Tracked var sheet: Page? = Page()
  static let sheet = ChildRoute.child(\Pages.sheet, tag: Action.sheet)
  @Tracked var path = ModelStack<Page>()
  static let path = ChildRoute.stack(\Pages.path, tag: Action.path)

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .clearDetail:
      detail = nil
      return .none
    case .sheet(let action):
      return forward(action, to: Self.sheet, environment: ())
    case .path(let action):
      return forward(action, to: Self.path, environment: ())
    case .push:
      path.push(Page())
      return .none
    }
  }
}

/// No change is no change for optional children, presented children and stacks: nil over nil,
/// a second dismissal and a pop of a screen that is gone notify nobody, log nothing and need
/// no assertion in a test store.
@MainActor
@Suite struct NoChangeIsNoChangeTests {
  @Test func nilOverNilASecondDismissAndAPopOfAGoneScreenNeedNoAssertion() async {
    let store = TestStore(state: Pages())
    await store.send(.clearDetail) { #expect($0.detail == nil) }
    await store.send(.clearDetail)
    await store.send(.sheet(.dismiss)) { #expect($0.sheet == nil) }
    await store.send(.sheet(.dismiss))
    await store.send(.push) { #expect($0.path.count == 1) }
    let id = store.state.path.elementIDs[0]
    await store.send(.path(.popFrom(id: id))) { #expect($0.path.isEmpty) }
    // A pop of a gone screen changes nothing; it is an action for a child that is not there,
    // which the test store fails on (debug builds report it).
    await withKnownIssue {
      await store.send(.path(.popFrom(id: id)))
    } matching: {
      $0.description.contains("dropped popFrom(id: #0) sent to Pages.path[id: 0]")
    }
    await store.finish()
  }

  @Test func nilOverNilASecondDismissAndAPopOfAGoneScreenNotifyAndLogNothing() {
    let store = Store(state: Pages(), environment: ())
    store.send(.clearDetail)
    store.send(.sheet(.dismiss))
    store.send(.push)
    let id = store.state.path.elementIDs[0]
    store.send(.path(.popFrom(id: id)))
    let logged = Log<[String]>()
    store.addLogHandler { logged.append($0.changes.names) }
    let runs = Log<String>()
    let model = store.state
    let token = observe { _ in
      _ = (model.detail, model.sheet, model.path.count)
      runs.append("run")
    }
    store.send(.clearDetail)
    store.send(.sheet(.dismiss))
    store.send(.path(.popFrom(id: id)))
    #expect(runs.all == ["run"])
    #expect(logged.all == [[], [], []])
    token.cancel()
  }

  @Test func writingTheSameChildAgainIsNoChange() {
    let model = Pages()
    let child = model.sheet
    let runs = Log<String>()
    let token = observe { _ in
      _ = model.sheet
      runs.append("run")
    }
    model.sheet = child
    #expect(runs.all == ["run"])
    model.sheet = Page()
    #expect(runs.all == ["run", "run"])
    token.cancel()
  }
}
