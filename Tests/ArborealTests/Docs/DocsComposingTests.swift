import Arboreal
import ArborealTestSupport
import Testing

// The code of the "Composing features" article (Arboreal.docc/ComposingFeatures.md), verbatim
// between the `article begins` and `article ends` markers, so that it keeps compiling and doing
// what the article says. `.ci/check-article-code.py` checks that the article still shows it.

enum DocsComposing {
  // article begins: children
  /// A child feature: one to-do, with its own actions and update.
  final class Todo: ArborealModel, Identifiable {
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

    // Where the children are, each declared once: `forward` and view stores take these.
    static let editor = ChildRoute.child(\TodoList.editor, tag: Action.editor)
    static let todos = ChildRoute.children(\TodoList.todos, tag: Action.todo)

    let registrar = TrackingRegistrar()
    @Tracked private(set) var editor = Editor()
    @Tracked private(set) var todos: [Todo] = []
    private var nextID = 1

    func todo(id: Int) -> Todo? { todos.first { $0.id == id } }

    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .editor(let action):
        // Forward to the child: its effects' actions come back as the parent's.
        return forward(action, to: Self.editor, environment: ())
      case .todo(let id, let action):
        // The row may be gone (an action can be queued before its removal): then the action
        // is dropped, and reported in debug builds.
        return forward(action, to: Self.todos, id: id, environment: ())
      case .addTapped:
        todos.append(Todo(id: nextID, title: editor.text))
        nextID += 1
        // A parent may drive its child with the child's own actions.
        return forward(.setText(""), to: Self.editor, environment: ())
      case .remove(let id):
        todos.removeAll { $0.id == id }
        return .none
      }
    }
  }
  // article ends: children

  // article begins: helpers
  /// A board of to-dos whose update hands its work to helpers.
  final class Board: ArborealModel {
    enum Action: Sendable, Equatable {
      case todo(id: Int, action: Todo.Action)
      case completeAll
      case clearCompleted
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var todos: [Todo]

    static let todos = ChildRoute.children(\Board.todos, tag: Action.todo)

    init(todos: [Todo]) {
      self.todos = todos
    }

    func update(action: Action, environment: Void) -> Fx<Action> {
      // A function nested in `update` works as well as a method.
      func completeAll() -> Fx<Action> {
        .merge(todos.filter { !$0.isDone }.map { toggle($0) })
      }

      switch action {
      case .todo(let id, let action):
        return forward(action, to: Self.todos, id: id, environment: ())
      case .completeAll:
        return completeAll()
      case .clearCompleted:
        removeCompleted()
        return .none
      }
    }

    /// Forwards to a to-do: a plain method, run wherever `update` runs.
    private func toggle(_ todo: Todo) -> Fx<Action> {
      forward(.toggle, to: Self.todos, child: todo, environment: ())
    }

    /// Only reads and writes the model's properties.
    private func removeCompleted() {
      todos.removeAll { $0.isDone }
    }
  }
  // article ends: helpers
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
    let editor = store.viewStore(TodoList.editor)
    let text = editor.binding(get: \.text, tag: DocsComposing.Editor.Action.setText)

    text.wrappedValue = "buy milk"  // sends .editor(.setText("buy milk")) to the store
    print(store.state.editor.text)  // buy milk
    store.send(.addTapped)
    print(text.wrappedValue.isEmpty)  // true: adding cleared the editor

    // A keyed view store for one row; nil for a key that is not there.
    let row = store.viewStore(TodoList.todos, id: 1)
    print(store.viewStore(TodoList.todos, id: 7) == nil)  // true

    row?.send(.toggle)  // sends .todo(id: 1, action: .toggle)
    print(render(row!))  // [x] buy milk

    store.send(.remove(id: 1))
    print(row!.isPresent)  // false: its state keeps the last to-do, its sends are dropped
    // article ends: scope

    #expect(lines.all == ["buy milk", "true", "true", "[x] buy milk", "false"])
    #expect(store.state.todos.isEmpty)
  }

  @Test func helpersOfUpdateCompileAndRunOnTheMainActor() {
    let store = Store(
      state: DocsComposing.Board(todos: [
        DocsComposing.Todo(id: 1, title: "buy milk"), DocsComposing.Todo(id: 2, title: "call Ada"),
        DocsComposing.Todo(id: 3, title: "walk"),
      ]),
      environment: ())
    store.send(.todo(id: 2, action: .toggle))
    store.send(.todo(id: 9, action: .toggle))  // no such to-do: dropped
    #expect(store.state.todos.map(\.isDone) == [false, true, false])
    store.send(.clearCompleted)
    #expect(store.state.todos.map(\.id) == [1, 3])
    store.send(.completeAll)
    #expect(store.state.todos.map(\.isDone) == [true, true])
    store.send(.clearCompleted)
    #expect(store.state.todos.isEmpty)
  }

  @Test func observingThroughAViewStoreTracksTheChild() {
    let lines = Log<String>()
    func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }

    // article begins: observe
    let store = Store(state: TodoList(), environment: ())
    let editor = store.viewStore(TodoList.editor)

    let token = observe { changes in
      print("editor:", editor.state.text, changes)  // reads store.state.editor, then its text
    }  // editor:

    editor.send(.setText("call Ada"))  // editor: call Ada text
    token.cancel()
    // article ends: observe

    #expect(lines.all == ["editor:  ", "editor: call Ada text"])
  }
}
