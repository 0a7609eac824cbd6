import Arboreal
import ArborealDevtools

/// The actions of the session, for `history` and `why`: those replayed from `--replay`, then
/// those the recorder has seen since, numbered on from the replayed ones.
@MainActor
struct TodoHistory {
  let replayed: [RecordedStep<TodoList.Action>]
  let recorder: StoreRecorder<TodoList>

  /// Every step so far, once the recorder has caught up.
  func steps() async -> [RecordedStep<TodoList.Action>] {
    await recorder.flush()
    let offset = replayed.count
    guard offset > 0 else { return recorder.steps }
    return replayed
      + recorder.steps.map { step in
        let cause: StoreLogEntry<TodoList.Action>.Cause =
          switch step.cause {
          case .sent: .sent
          case .effect(let startedBy): .effect(startedBy: startedBy.map { $0 + offset })
          }
        return RecordedStep(
          sequence: step.sequence + offset, action: step.action, cause: cause,
          changes: step.changes)
      }
  }

  /// One line per step: `#1 add("milk") → Todo#1.text, TodoList#1.items`.
  func lines() async -> [String] {
    let steps = await steps()
    guard !steps.isEmpty else { return ["(no actions yet)"] }
    return steps.map { step in
      let changes = step.changes.map(\.description).joined(separator: ", ")
      return "\(step.summary) → \(changes.isEmpty ? "(no change)" : changes)"
    }
  }

  /// Why each field of `todo` has its value: the action that last set it (and what started
  /// that action, for an effect's), or that it is as it was when the to-do was added or the
  /// session started.
  func explain(_ todo: Todo) async -> [String] {
    let steps = await steps()
    let owner = "Todo#\(todo.id)"
    let added = steps.first { $0.changes.contains { $0.owner == owner } }
    return [("text", String(reflecting: todo.text)), ("isDone", "\(todo.isDone)")].map {
      name, value in
      if let why = ChangeExplanation(RecordedProperty(owner: owner, name: name), in: steps) {
        let causes = why.chain.dropFirst().map { "\n    started by \($0.summary)" }.joined()
        return "  \(name) = \(value): set by \(why.step.summary)\(causes)"
      }
      if let added {
        return "  \(name) = \(value): unchanged since the to-do was added by \(added.summary)"
      }
      return "  \(name) = \(value): as it was when the session started"
    }
  }
}
