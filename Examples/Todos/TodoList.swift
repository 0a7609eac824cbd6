import Arboreal
import ArborealDevtools
import ArborealPersistence
import ExampleSupport
import Foundation

/// The app's model: the to-dos, the filter and the undo history.
///
/// Every change to the list pushes the previous list on the undo history. Saving is not the
/// model's business: `TodosMain` keeps the list in its file with a `StorePersister`, which
/// hears each change through tracking and writes the snapshot off the main actor.
///
/// A ``ReplayableModel``: its ``Snapshot`` holds everything `update` depends on, the id
/// counter too, so that `--record` and `--replay` reproduce a session exactly, and it is what
/// the list file holds.
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
  }

  /// The services the list uses: the clock its file is saved on.
  struct Environment: Sendable {
    var clock: any Clock<Duration> = ContinuousClock()
  }

  /// How many changes `undo` can take back.
  static let undoLimit = 100

  let registrar = TrackingRegistrar()
  @Tracked private(set) var items: [Todo]
  /// The to-dos' route, declared once: the update forwards through it and the command line
  /// scopes a to-do's view store through it. A to-do needs no services.
  static let items = ChildRoute.children(
    \TodoList.items, environment: { _ in () }, tag: Action.todo)
  @Tracked private(set) var filter = TodoFilter.all
  @Tracked private(set) var undoHistory: [[TodoRecord]] = []

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

  init(records: [TodoRecord]) {
    let snapshot = Self.snapshot(of: records)
    items = snapshot.items.map(Todo.init)
    nextID = snapshot.nextID
  }

  /// A new list of `records`: ids are only keys, so a hand-edited file that repeats one is
  /// renumbered, and the next id is one past the largest.
  nonisolated static func snapshot(of records: [TodoRecord]) -> Snapshot {
    var records = records
    if Set(records.map(\.id)).count != records.count {
      for index in records.indices { records[index].id = index + 1 }
    }
    return Snapshot(
      items: records, filter: .all, undoHistory: [], nextID: (records.map(\.id).max() ?? 0) + 1)
  }

  /// The list as plain data: what a recording starts from, and what the list file holds.
  struct Snapshot: Codable, Equatable, Sendable {
    var items: [TodoRecord]
    var filter: TodoFilter
    var undoHistory: [[TodoRecord]]
    var nextID: Int
  }

  var snapshot: Snapshot {
    Snapshot(items: items.map(\.record), filter: filter, undoHistory: undoHistory, nextID: nextID)
  }

  init(snapshot: Snapshot) {
    items = snapshot.items.map(Todo.init)
    filter = snapshot.filter
    undoHistory = snapshot.undoHistory
    nextID = snapshot.nextID
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
      return .none
    case .remove(let id):
      guard let index = items.firstIndex(where: { $0.id == id }) else { return .none }
      remember(items.map(\.record))
      // `forward` ends the removed to-do's effects: nothing to cancel here.
      items.remove(at: index)
      return .none
    case .todo(let id, let action):
      let before = items.map(\.record)
      // The to-do's effects are its own; a missing id is dropped (and reported in debug builds).
      let fx = forward(action, to: Self.items, id: id, environment: environment)
      guard items.map(\.record) != before else { return fx }
      remember(before)
      return fx
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
      return .none
    }
  }

  private func remember(_ records: [TodoRecord]) {
    undoHistory.append(records)
    if undoHistory.count > Self.undoLimit { undoHistory.removeFirst() }
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

// MARK: The list file

extension TodoList {
  /// The list file's format version: 1, the snapshot in an envelope.
  nonisolated static let fileVersion = 1

  /// The list file at `path`. Files from before the envelope (`{"todos": [...]}`, version 0)
  /// are read through ``migrate(_:)`` and written back in the current version.
  nonisolated static func file(at path: String) -> PersistedFile<TodoList> {
    PersistedFile(path: path, version: fileVersion, migrate: migrate)
  }

  /// Reads a list file of an older version: version 0 is the plain list of records.
  @Sendable nonisolated static func migrate(_ old: PersistedFile<TodoList>.OldContents) throws
    -> Snapshot
  {
    guard old.version == 0 else { throw MigrationFailure(version: old.version) }
    return snapshot(of: try JSONDecoder().decode(TodoFileContents.self, from: old.data).todos)
  }

  /// A file version this program never wrote.
  struct MigrationFailure: Error, CustomStringConvertible {
    var version: Int
    var description: String { "no to-do list was ever written in version \(version)" }
  }
}
