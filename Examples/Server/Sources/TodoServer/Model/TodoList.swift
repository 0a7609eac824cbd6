import Arboreal
import Foundation

/// A session's to-do list: the items, a revision that counts the changes, and what the last
/// save reported.
///
/// Every change to the items goes through ``update(action:environment:)``, in the isolation of
/// the store that owns the list (a session's actor, or the main actor). `save` is the one
/// action with an effect: the effect saves a snapshot of the list off that isolation and
/// delivers `saved(revision:bytes:)` back to the store.
///
/// ## Data
/// - `items`: the to-dos, in the order they were added.
/// - `revision`: one more for every action that changed `items`; 0 for a new list.
/// - `lastSave`: the receipt of the newest save that finished, nil before the first.
/// - `nextID`: the id the next `add` gives. Not tracked (no observer shows it), but in the
///   ``Snapshot``, since `update` depends on it: a recording replays to the same list.
///
/// ## Invariants
/// - The ids in `items` are distinct, and all below `nextID`.
/// - `lastSave?.revision` is at most `revision`.
final class TodoList: ReplayableModel {
  /// Everything that can happen to the list. `Codable`: a client sends one as the JSON body
  /// of `POST /sessions/{id}/actions` (`{"add":{"title":"milk"}}`), and recordings keep them.
  enum Action: Codable, Equatable, Sendable {
    /// Appends a to-do; a blank title is ignored.
    case add(title: String)
    /// Marks the to-do done, or not done again.
    case toggle(id: Int)
    /// Changes a to-do's title; a blank title is ignored.
    case rename(id: Int, title: String)
    /// Removes the to-do.
    case remove(id: Int)
    /// Removes every done to-do.
    case clearCompleted
    /// Saves the list: an effect, which delivers ``saved(revision:bytes:)`` when it is done.
    case save
    /// Delivered by the save effect: the list as of `revision` was saved in `bytes` bytes.
    case saved(revision: Int, bytes: Int)
  }

  /// The services the list's effects use.
  struct Environment: Sendable {
    /// Saves a snapshot of the list and returns the number of bytes it took. The default
    /// keeps nothing: it encodes the list as JSON and counts the bytes, which is the work a
    /// real save would do before writing.
    var save: @Sendable (Snapshot) async -> Int = { snapshot in
      (try? JSONEncoder().encode(snapshot).count) ?? 0
    }
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var items: [TodoItem]
  @Tracked private(set) var revision: Int
  @Tracked private(set) var lastSave: SaveReceipt?
  private(set) var nextID: Int

  /// The list as plain data: what `GET /sessions/{id}` and every action's response return,
  /// what a recording starts from, and what replaying one compares.
  ///
  /// ```json
  /// {"items":[{"done":false,"id":1,"title":"milk"}],"nextID":2,"revision":1}
  /// ```
  struct Snapshot: Codable, Equatable, Sendable {
    var items: [TodoItem] = []
    var revision = 0
    var lastSave: SaveReceipt?
    var nextID = 1
  }

  /// An empty list.
  convenience init() {
    self.init(snapshot: Snapshot())
  }

  init(snapshot: Snapshot) {
    items = snapshot.items
    revision = snapshot.revision
    lastSave = snapshot.lastSave
    nextID = snapshot.nextID
  }

  var snapshot: Snapshot {
    Snapshot(items: items, revision: revision, lastSave: lastSave, nextID: nextID)
  }

  func update(action: Action, environment: Environment) -> Fx<Action> {
    switch action {
    case .add(let title): add(title)
    case .toggle(let id): edit(id) { $0.done.toggle() }
    case .rename(let id, let title): rename(id, to: title)
    case .remove(let id): remove(id)
    case .clearCompleted: clearCompleted()
    case .save: return save(environment)
    case .saved(let revision, let bytes): saved(SaveReceipt(revision: revision, bytes: bytes))
    }
    return .none
  }

  // MARK: The actions

  private func add(_ title: String) {
    let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !title.isEmpty else { return }
    items.append(TodoItem(id: nextID, title: title, done: false))
    nextID += 1
    revision += 1
  }

  private func rename(_ id: Int, to title: String) {
    let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !title.isEmpty else { return }
    edit(id) { $0.title = title }
  }

  /// Applies `change` to the to-do with this id, if there is one; a change that leaves it as
  /// it was is no change (the revision stays).
  private func edit(_ id: Int, _ change: (inout TodoItem) -> Void) {
    guard let index = items.firstIndex(where: { $0.id == id }) else { return }
    var item = items[index]
    change(&item)
    guard item != items[index] else { return }
    items[index] = item
    revision += 1
  }

  private func remove(_ id: Int) {
    guard let index = items.firstIndex(where: { $0.id == id }) else { return }
    items.remove(at: index)
    revision += 1
  }

  private func clearCompleted() {
    guard items.contains(where: \.done) else { return }
    items.removeAll(where: \.done)
    revision += 1
  }

  /// The save effect: the snapshot is taken now, in the store's isolation, and saved off it.
  private func save(_ environment: Environment) -> Fx<Action> {
    let snapshot = self.snapshot
    let save = environment.save
    return Fx { .saved(revision: snapshot.revision, bytes: await save(snapshot)) }
  }

  /// Keeps the receipt of the newest save: two saves may finish in either order.
  private func saved(_ receipt: SaveReceipt) {
    guard receipt.revision <= revision, receipt.revision >= (lastSave?.revision ?? 0) else {
      return
    }
    lastSave = receipt
  }
}

extension TodoList.Action {
  /// Whether a client may send the action: `saved` is the save effect's answer, and a client
  /// that sent it would claim a save that never happened.
  var isSentByClients: Bool {
    if case .saved = self { return false }
    return true
  }
}
