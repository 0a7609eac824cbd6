import Arboreal
import ArborealDevtools
import ExampleSupport

/// The app's model: the to-dos, the filter, the undo history and the state of saving.
///
/// Every change to the list pushes the previous list on the undo history and returns a save
/// effect, which writes the file off the main actor and reports back with
/// ``Action/saveFinished(problem:)``.
///
/// A ``ReplayableModel``: its ``Snapshot`` holds everything `update` depends on, the id and
/// revision counters too, so that `--record` and `--replay` reproduce a session exactly.
final class TodoList: ReplayableModel {
  /// Everything that can happen to the list. `Codable`, so that a session can be recorded.
  enum Action: Codable, Sendable {
    /// Appends a to-do (blank text is ignored).
    case add(String)
    /// Removes the to-do with this id.
    case remove(id: Int)
    /// Forwards an action to the to-do with this id.
    case todo(id: Int, Todo.Action)
    case setFilter(TodoFilter)
    /// Restores the list as it was before the last change.
    case undo
    /// A save finished: `problem` is nil on success, else what went wrong.
    case saveFinished(problem: String?)
  }

  /// The services the effects use: the real program writes a file, a test could record.
  struct Environment: Sendable {
    var save: @Sendable (_ records: [TodoRecord], _ revision: Int) async throws -> Void
  }

  /// How many changes `undo` can take back.
  static let undoLimit = 100

  let registrar = TrackingRegistrar()
  @Tracked private(set) var items: [Todo]
  @Tracked private(set) var filter = TodoFilter.all
  @Tracked private(set) var undoHistory: [[TodoRecord]] = []
  /// Why the last save failed, or nil if it succeeded (or none ran yet).
  @Tracked private(set) var saveProblem: String?

  /// The to-dos the filter shows, with the numbers the user types: derived, so `list` reuses
  /// it until a to-do or the filter changes.
  @Derived({ (list: TodoList) in
    list.items.enumerated().compactMap { offset, todo in
      list.filter.includes(isDone: todo.isDone) ? VisibleTodo(number: offset + 1, todo: todo) : nil
    }
  })
  var visible: [VisibleTodo]

  /// The counts and the filter. Derived: the status line's observer depends on this value
  /// alone, so it runs only when the line would change (not when a to-do's text does).
  @Derived({ (list: TodoList) in
    TodoStatus(total: list.items.count, done: list.items.count { $0.isDone }, filter: list.filter)
  })
  var status: TodoStatus
  private var nextID: Int
  private var revision = 0

  init(records: [TodoRecord]) {
    // Ids are only keys for this run: renumber if a hand-edited file repeats one.
    let ids = Set(records.map(\.id))
    var records = records
    if ids.count != records.count {
      for index in records.indices { records[index].id = index + 1 }
    }
    items = records.map(Todo.init)
    nextID = (records.map(\.id).max() ?? 0) + 1
  }

  /// The list as plain data: what a recording starts from.
  struct Snapshot: Codable, Equatable, Sendable {
    var items: [TodoRecord]
    var filter: TodoFilter
    var undoHistory: [[TodoRecord]]
    var saveProblem: String?
    var nextID: Int
    var revision: Int
  }

  var snapshot: Snapshot {
    Snapshot(
      items: items.map(\.record), filter: filter, undoHistory: undoHistory,
      saveProblem: saveProblem, nextID: nextID, revision: revision)
  }

  init(snapshot: Snapshot) {
    items = snapshot.items.map(Todo.init)
    filter = snapshot.filter
    undoHistory = snapshot.undoHistory
    saveProblem = snapshot.saveProblem
    nextID = snapshot.nextID
    revision = snapshot.revision
  }

  func update(action: Action, environment: Environment) -> Fx<Action> {
    switch action {
    case .add(let text):
      let text = text.trimmingWhitespace
      guard !text.isEmpty else { return .none }
      remember(items.map(\.record))
      // A new to-do is not a changed one: the recording names `items`, not its fields.
      items.append(Todo(TodoRecord(id: nextID, text: text, done: false)))
      nextID += 1
      return save(environment)
    case .remove(let id):
      guard let index = items.firstIndex(where: { $0.id == id }) else { return .none }
      remember(items.map(\.record))
      items.remove(at: index)
      return Fx.cancel(child: Todo.self, key: id).merge(save(environment))
    case .todo(let id, let action):
      guard let todo = item(id: id) else { return .none }
      let before = items.map(\.record)
      // Keyed: the to-do's effects are its own, and `remove` cancels them.
      let fx = todo.update(action: action, environment: ()).tag(key: id) { Action.todo(id: id, $0) }
      guard items.map(\.record) != before else { return fx }
      remember(before)
      return fx.merge(save(environment))
    case .setFilter(let filter):
      self.filter = filter
      return .none
    case .undo:
      guard let previous = undoHistory.popLast() else { return .none }
      // Each to-do still in the list is put back through its own update, so that the
      // recording names the fields the undo changed (`Todo#2.isDone`) and `why` can point at
      // it. A to-do the undo brings back is new: its fields are not changes.
      items = previous.map { record in
        guard let todo = item(id: record.id) else { return Todo(record) }
        _ = todo.update(action: .setText(record.text), environment: ())
        _ = todo.update(action: .setDone(record.done), environment: ())
        return todo
      }
      return save(environment)
    case .saveFinished(let problem):
      saveProblem = problem
      return .none
    }
  }

  private func remember(_ records: [TodoRecord]) {
    undoHistory.append(records)
    if undoHistory.count > Self.undoLimit { undoHistory.removeFirst() }
  }

  private func save(_ environment: Environment) -> Fx<Action> {
    revision += 1
    // An effect cannot capture the model: copy what it needs.
    let records = items.map(\.record)
    let revision = revision
    return Fx {
      try await environment.save(records, revision)
      return .saveFinished(problem: nil)
    } catch: { error in
      .saveFinished(problem: "\(error)")
    }
  }
}

// MARK: Queries

extension TodoList {
  /// The to-do with this id, if it is still in the list.
  func item(id: Int) -> Todo? {
    items.first { $0.id == id }
  }

  /// The to-do the user calls `number` (1-based, as `list` shows it), if there is one.
  func item(number: Int) -> Todo? {
    items.indices.contains(number - 1) ? items[number - 1] : nil
  }

  var canUndo: Bool { !undoHistory.isEmpty }
}
