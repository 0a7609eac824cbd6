import Arboreal
import Testing

// The scenarios of the original Arboreal README (a SwiftUI library), rewritten without a UI
// framework: a counter, a child component scoped with `tag`, bindings, and merged effects in
// `update(actions:)`.

enum Scenario {
  /// "A minimal example of Store used to increment a count with a button."
  final class AppModel: ArborealModel {
    enum Action: Sendable {
      case increment
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var count = 0

    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .increment:
        count = count + 1
        return .none
      }
    }
  }

  /// The "scoped child components" section: a child with its own actions and update.
  final class ChildModel: ArborealModel {
    enum Action: Sendable, Equatable {
      case setText(String)
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var text = ""

    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .setText(let text):
        self.text = text
        return .none
      }
    }
  }

  /// A parent that integrates the child and intercepts one of its actions.
  final class ParentModel: ArborealModel {
    enum Action: Sendable, Equatable {
      case child(ChildModel.Action)
      case setText(String)

      /// Child actions the parent wants to see first go to `setText`.
      static func tag(_ action: ChildModel.Action) -> Action {
        switch action {
        case .setText(let text): return .setText(text)
        }
      }
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var child = ChildModel()
    @Tracked private(set) var edits = 0

    static let child = ChildRoute.child(\ParentModel.child, tag: Action.child)
    /// The same child, for a view store whose sends the parent sees first.
    static let interceptedChild = ChildRoute.child(\ParentModel.child, tag: Action.tag)

    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .child(let action):
        return forward(action, to: Self.child, environment: ())
      case .setText(let text):
        edits = edits + 1
        return forward(.setText(text), to: Self.child, environment: ())
      }
    }
  }

  /// The "bindings" section: a username field.
  final class FormModel: ArborealModel {
    enum Action: Sendable, Equatable {
      case setUsername(String)
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var username = ""

    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .setUsername(let username):
        self.username = username
        return .none
      }
    }
  }

  /// The `update(actions:)` test: several actions, two of them with effects, in one.
  final class ComboModel: ArborealModel {
    enum Action: Sendable {
      case increment
      case setText(String)
      case delayedText(String, Gate)
      case delayedIncrement(Gate)
      case combo(Gate, Gate)
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var count = 0
    @Tracked private(set) var text = ""

    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .increment:
        count = count + 1
        return .none
      case .setText(let text):
        self.text = text
        return .none
      case .delayedText(let text, let gate):
        return Fx {
          await gate.wait()
          return .setText(text)
        }
      case .delayedIncrement(let gate):
        return Fx {
          await gate.wait()
          return .increment
        }
      case .combo(let first, let second):
        return update(
          actions: [
            .increment,
            .increment,
            .delayedIncrement(second),
            .delayedText("Test", first),
            .increment,
          ],
          environment: environment
        )
      }
    }
  }
}

@Suite actor ArborealScenarioTests {
  @Test func theCounterIncrements() {
    let store = Store(state: Scenario.AppModel(), environment: ())
    store.send(.increment)
    store.send(.increment)
    #expect(store.state.count == 2)
  }

  @Test func aChildComponentIsScopedWithTag() {
    let store = Store(state: Scenario.ParentModel(), environment: ())
    let viewStore = store.viewStore(Scenario.ParentModel.interceptedChild)
    viewStore.send(.setText("Foo"))
    #expect(store.state.child.text == "Foo")
    #expect(store.state.edits == 1)
    // The plain tag reaches the child without the parent's interception.
    let plain = store.viewStore(Scenario.ParentModel.child)
    plain.send(.setText("Bar"))
    #expect(plain.state.text == "Bar")
    #expect(store.state.edits == 1)
  }

  @Test func aBindingSetsStateThroughAnAction() {
    let store = Store(state: Scenario.FormModel(), environment: ())
    let username = store.binding(
      get: { state in state.username },
      tag: { username in .setUsername(username) }
    )
    username.wrappedValue = "ada"
    #expect(store.state.username == "ada")
    #expect(username.wrappedValue == "ada")
  }

  @Test func updateActionsRunsEveryActionAndMergesTheirEffects() async {
    let store = Store(state: Scenario.ComboModel(), environment: ())
    let (first, second) = (Gate(), Gate())
    let handle = store.send(.combo(first, second))
    #expect(store.state.count == 3)  // the synchronous increments, at once
    #expect(store.state.text == "")
    second.open()
    first.open()
    await handle.value  // both merged effects delivered
    #expect(store.state.count == 4)
    #expect(store.state.text == "Test")
  }
}
