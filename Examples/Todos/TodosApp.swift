import Arboreal
import ArborealDevtools
import ArborealPersistence
import ExampleSupport

/// The command line around the store: runs one typed line at a time and prints the results.
///
/// The status line is printed by an observer (`observe`), so it appears exactly when what it
/// reads changes, and save problems by the persister when they come and go; the status line and
/// the filtered list are derived values of the model (`@Derived`), cached until a to-do or the
/// filter changes. A single to-do is reached through its route
/// (`viewStore(TodoList.items, id:)`), and `edit` reads and writes its text through a binding.
@MainActor
final class TodosApp {
  let store: Store<TodoList>
  let console: Console
  let path: String
  let history: TodoHistory
  /// Keeps the list in its file; nil when the list lives in memory only (`--replay`).
  let persister: StorePersister<TodoList>?
  private var observers: [TrackingToken] = []
  /// Set by `edit <n>`: the next line is the new text, written through this binding.
  private var pendingEdit: (number: Int, text: StoreBinding<String>)?

  init(
    store: Store<TodoList>, path: String, console: Console, history: TodoHistory,
    persister: StorePersister<TodoList>?
  ) {
    self.store = store
    self.path = path
    self.console = console
    self.history = history
    self.persister = persister
  }

  /// Says that a save failed, or that saving works again.
  static func report(_ problem: PersistenceError?, path: String, console: Console) {
    if let problem {
      console.error(
        "could not save to \(path): \(reason(problem))",
        hint: "your list is kept in memory; fix that, or quit and use --file PATH")
    } else {
      console.say("Saved to \(path) again.")
    }
  }

  /// What went wrong, without the path the messages already name.
  static func reason(_ problem: PersistenceError) -> String {
    if case .file(let reason) = problem.kind { return reason }
    return problem.reason
  }

  private var model: TodoList { store.state }

  /// Prints the status line and starts the observers.
  func start() {
    let model = model
    let console = console
    console.say(model.status.line)
    observers.append(observe({ model.status }, onChange: { _, status in console.say(status.line) }))
    showPrompt()
  }

  /// Handles one line of input; returns false when the user asked to quit.
  func handle(_ line: String) async -> Bool {
    if let edit = pendingEdit {
      pendingEdit = nil
      await finishEdit(number: edit.number, text: edit.text, with: line)
    } else {
      do {
        let command = try TodoCommand.parse(line)
        if command == .quit { return false }
        if let command { await run(command) }
      } catch {
        console.error(error)
      }
    }
    showPrompt()
    return true
  }

  /// Writes the last changes and says whether the list on disk is up to date.
  ///
  /// - Returns: The exit status: 0, or 1 if the last changes could not be saved.
  func finish() async -> Int32 {
    await store.finish()
    // Cancelled, not just released: the session is over on purpose (a released token that
    // never saw a change would be reported as a mistake in debug builds).
    for observer in observers { observer.cancel() }
    observers.removeAll()
    await persister?.finish()
    guard let problem = persister?.problem else { return 0 }
    console.error("your last changes were not saved to \(path): \(Self.reason(problem))")
    return 1
  }

  private func run(_ command: TodoCommand) async {
    switch command {
    case .add(let text):
      console.say("Added \(model.items.count + 1). \(text.trimmingWhitespace)")
      store.send(.add(text))
    case .edit(let number, let text):
      guard let todo = todoStore(number) else { return }
      let binding = todo.binding(get: \.text, tag: Todo.Action.setText)
      guard let text else {
        pendingEdit = (number, binding)
        console.prompt("New text for \(number) (now “\(binding.wrappedValue)”): ")
        return
      }
      await finishEdit(number: number, text: binding, with: text)
    case .done(let number), .undone(let number):
      guard let todo = todoStore(number) else { return }
      let done = command == .done(number)
      if todo.state.isDone == done {
        console.say("\(number). \(todo.state.text) is already \(done ? "done" : "not done").")
        return
      }
      console.say("\(done ? "Done" : "Not done"): \(number). \(todo.state.text)")
      todo.send(.setDone(done))
    case .remove(let number):
      guard let todo = todoStore(number) else { return }
      console.say("Removed \(number). \(todo.state.text)")
      store.send(.remove(id: todo.state.id))
    case .list:
      printList()
    case .filter(let filter):
      store.send(.setFilter(filter))
      printList()
    case .undo:
      guard model.canUndo else {
        console.say("Nothing to undo.")
        return
      }
      console.say("Undid the last change.")
      store.send(.undo)
    case .history:
      for line in await history.lines() { console.say(line) }
    case .why(let number):
      guard let todo = todoStore(number)?.state else { return }
      console.say("\(number). [\(todo.isDone ? "x" : " ")] \(todo.text)")
      for line in await history.explain(todo) { console.say(line) }
    case .help:
      console.say(TodoCommand.helpText)
    case .quit:
      break
    }
    await store.finish()
  }

  private func finishEdit(number: Int, text: StoreBinding<String>, with line: String) async {
    let newText = line.trimmingWhitespace
    guard !newText.isEmpty else {
      console.error(.emptyText(example: "edit \(number) buy oat milk"))
      return
    }
    console.say("Edited \(number). \(newText)")
    // The setter sends `Todo.Action.setText`, tagged for the list by the view store.
    text.wrappedValue = newText
    await store.finish()
  }

  /// A view store for to-do `number`, or nil (and an error printed) if there is none.
  private func todoStore(_ number: Int) -> ViewStore<Todo>? {
    let count = model.items.count
    guard let id = model.item(number: number)?.id,
      let todo = store.viewStore(TodoList.items, id: id)
    else {
      console.error(
        count == 0
          ? "there is no to-do \(number): the list is empty"
          : "there is no to-do \(number): the numbers go from 1 to \(count)",
        hint: count == 0 ? "add one with 'add <text>'" : "type 'list' to see the numbers")
      return nil
    }
    return todo
  }

  private func printList() {
    let visible = model.visible
    guard !visible.isEmpty else {
      console.say(
        model.items.isEmpty ? "(no to-dos yet)" : "(no \(model.filter.rawValue) to-dos)")
      return
    }
    for shown in visible {
      let (number, todo) = (shown.number, shown.todo)
      console.say("\(number < 10 ? " " : "")\(number). [\(todo.isDone ? "x" : " ")] \(todo.text)")
    }
  }

  private func showPrompt() {
    if pendingEdit == nil { console.prompt("todos> ") }
  }
}
