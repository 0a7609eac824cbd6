import Arboreal
import ArborealTesting
import Testing

/// A model tested alone can be seen dismissing itself (`isDismissed`, as in TCA's test store),
/// and a screen is named by an integer literal.
@Suite actor DismissedTestStoreTests {
  /// An edit sheet: saves by telling its parent, then dismisses itself.
  final class EditSheet: ArborealModel {
    enum Action: Sendable, Equatable {
      case rename(String)
      case saveTapped
      case cancelTapped
      case delegate(Delegate)
      enum Delegate: Sendable, Equatable { case saved(String) }
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var title = ""

    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .rename(let title):
        self.title = title
        return .none
      case .saveTapped:
        return .merge(.send(.delegate(.saved(title))), .dismiss)
      case .cancelTapped:
        return .dismiss
      case .delegate:
        return .none
      }
    }
  }

  @Test func aModelThatDismissesItselfIsDismissed() async {
    let store = TestStore(state: EditSheet())
    await store.send(.rename("Standup")) { #expect($0.title == "Standup") }
    #expect(!store.isDismissed)
    await store.send(.saveTapped)
    await store.receive(.delegate(.saved("Standup")))
    #expect(store.isDismissed)
    await store.finish()
  }

  @Test func aDismissalWithNothingElseIsDismissedAtOnce() async {
    let store = TestStore(state: EditSheet())
    await store.send(.cancelTapped)
    #expect(store.isDismissed)
    await store.finish()
  }

  @MainActor
  @Test func aSendAfterTheDismissalFails() async {
    let store = TestStore(state: EditSheet())
    await store.send(.cancelTapped)
    await withKnownIssue {
      await store.send(.rename("late")) { #expect($0.title == "late") }
    } matching: { issue in
      issue.description.contains(
        "send(rename(\"late\")) was sent after EditSheet dismissed itself (`Fx.dismiss`)")
    }
    await store.finish()
  }

  @Test func aScreenIsNamedByAnIntegerLiteral() {
    let id: StackElementID = 2
    #expect(id == StackElementID(rawValue: 2))
    var stack = ModelStack<EditSheet>()
    stack.push(EditSheet())
    stack.push(EditSheet())
    #expect(stack[id: 1] === stack.last)
    let popped = stack.pop(from: 0)
    #expect(popped)
    #expect(stack.isEmpty)
  }
}
