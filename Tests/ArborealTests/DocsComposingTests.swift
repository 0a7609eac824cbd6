import Arboreal
import Testing

// The code of the "Composing features" article (Arboreal.docc/ComposingFeatures.md), verbatim
// between the `article begins` and `article ends` markers, so that it keeps compiling and doing
// what the article says. `.ci/check-article-code.py` checks that the article still shows it.

enum DocsComposing {
  // article begins: children
  /// A child feature: one to-do, with its own actions and update.
  final class Todo: ArborealModel {
    enum Action: Sendable, Equatable {
      case toggle
      case rename(String)
    }

    let registrar = TrackingRegistrar()
    let id: Int
    @Tracked private(set) var title: String
    @Tracked private(set) var isDone = false

    init(id: Int, title: String) {
      self.id = id
      self.title = title
    }

    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .toggle:
        isDone.toggle()
        return .none
      case .rename(let title):
        self.title = title
        return .none
      }
    }
  }

  /// Another child: the text field where a new to-do is typed.
  final class Editor: ArborealModel {
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

  /// The parent: one editor, a list of to-dos, and what to do with them.
  final class TodoList: ArborealModel {
    enum Action: Sendable, Equatable {
      case editor(Editor.Action)
      case todo(id: Int, action: Todo.Action)
      case addTapped
      case remove(id: Int)
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var editor = Editor()
    @Tracked private(set) var todos: [Todo] = []
    private var nextID = 1

    func todo(id: Int) -> Todo? { todos.first { $0.id == id } }

    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .editor(let action):
        // Delegate to the child, and tag its effects' actions as the parent's.
        return editor.update(action: action, environment: ()).tag(Action.editor)
      case .todo(let id, let action):
        // The row may be gone: an action can be queued before its removal.
        guard let todo = todo(id: id) else { return .none }
        return todo.update(action: action, environment: ()).tag { Action.todo(id: id, action: $0) }
      case .addTapped:
        todos.append(Todo(id: nextID, title: editor.text))
        nextID += 1
        // A parent may drive its child through the child's own update.
        return editor.update(action: .setText(""), environment: ()).tag(Action.editor)
      case .remove(let id):
        todos.removeAll { $0.id == id }
        return .none
      }
    }
  }
  // article ends: children
}

/// Renders a to-do: works on the root store's child, a view store, or any store of a `Todo`.
// article begins: render
@MainActor func render(_ store: some ArborealStore<DocsComposing.Todo>) -> String {
  "[\(store.state.isDone ? "x" : " ")] \(store.state.title)"
}
// article ends: render

@MainActor
@Suite struct DocsComposingTests {
  typealias TodoList = DocsComposing.TodoList

  @Test func viewStoresBindingsAndKeyedChildren() {
    let lines = Log<String>()
    func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }

    // article begins: scope
    let store = Store(state: TodoList(), environment: ())

    // A view store scoped to the editor, and a binding to its text.
    let editor = store.viewStore(get: \.editor, tag: TodoList.Action.editor)
    let text = editor.binding(get: \.text, tag: DocsComposing.Editor.Action.setText)

    text.wrappedValue = "buy milk"  // sends .editor(.setText("buy milk")) to the store
    print(store.state.editor.text)  // buy milk
    store.send(.addTapped)
    print(text.wrappedValue.isEmpty)  // true: adding cleared the editor

    // A keyed view store for one row; nil for a key that is not there.
    let row = store.viewStore(key: 1, get: { $0.todo(id: $1) }, tag: TodoList.Action.todo)
    print(store.viewStore(key: 7, get: { $0.todo(id: $1) }, tag: TodoList.Action.todo) == nil)
    // true

    row?.send(.toggle)  // sends .todo(id: 1, action: .toggle)
    print(render(row!))  // [x] buy milk

    store.send(.remove(id: 1))
    print(row!.isPresent)  // false: its state keeps the last to-do, its sends are dropped
    // article ends: scope

    #expect(lines.all == ["buy milk", "true", "true", "[x] buy milk", "false"])
    #expect(store.state.todos.isEmpty)
  }

  @Test func observingThroughAViewStoreTracksTheChild() {
    let lines = Log<String>()
    func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }

    // article begins: observe
    let store = Store(state: TodoList(), environment: ())
    let editor = store.viewStore(get: \.editor, tag: TodoList.Action.editor)

    let token = observe { changes in
      print("editor:", editor.state.text, changes)  // reads store.state.editor, then its text
    }  // editor:

    editor.send(.setText("call Ada"))  // editor: call Ada text
    token.cancel()
    // article ends: observe

    #expect(lines.all == ["editor:  ", "editor: call Ada text"])
  }
}
