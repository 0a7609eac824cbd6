import Arboreal

/// One to-do: a child model with its own `update`, held by ``TodoList``.
///
/// The parent forwards a ``Action`` to it through its route `TodoList.items`, tagged with the
/// to-do's ``id`` (`TodoList.Action.todo(id:_:)`); the command line reaches a single to-do
/// through the same route (`viewStore(TodoList.items, id:)`). `Identifiable`, so that logs and
/// recordings name it by its id (`Todo#3.isDone`), the same in every run.
final class Todo: ArborealModel, Identifiable {
  /// What a single to-do can be asked to do.
  enum Action: Codable, Sendable, Equatable {
    /// Replaces the text.
    case setText(String)
    /// Marks the to-do done (`true`) or not done (`false`).
    case setDone(Bool)
  }

  let registrar = TrackingRegistrar()
  let id: Int
  @Tracked private(set) var text: String
  @Tracked private(set) var isDone: Bool

  init(_ record: TodoRecord) {
    id = record.id
    text = record.text
    isDone = record.done
  }

  /// The to-do as plain data, for saving and for the undo history.
  var record: TodoRecord { TodoRecord(id: id, text: text, done: isDone) }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .setText(let text):
      self.text = text
    case .setDone(let done):
      isDone = done
    }
    return .none
  }
}

extension Todo.Action: CustomDebugStringConvertible {
  /// `setDone(true)`: how the action prints inside a list action in `history` and `why`.
  var debugDescription: String {
    switch self {
    case .setText(let text): "setText(\(String(reflecting: text)))"
    case .setDone(let done): "setDone(\(done))"
    }
  }
}
