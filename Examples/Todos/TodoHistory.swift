import Arboreal
import ArborealDevtools

/// The actions of the session, for `history` and `why`: those replayed from `--replay`, then
/// those the recorder has seen since, numbered on from the replayed ones.
@MainActor
struct TodoHistory {
  /// The list the session's first step started from: the replayed recording's start, or the
  /// recorder's.
  let start: TodoList.Snapshot
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

  /// One line per step: `#1 add("milk") → TodoList#1.undoHistory, TodoList#1.items`.
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
    let added = step(adding: todo.id, in: steps)
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

  /// The step that added the to-do with this id, or nil if it was there when the session
  /// started. A new to-do is not a changed one (its step names `items`, not the to-do's
  /// fields), so the step is found from the ids: each `add` that added a to-do took the next
  /// one, from the start's `nextID` on.
  ///
  /// - Complexity: O(*n*) for *n* steps.
  private func step(
    adding id: Int, in steps: [RecordedStep<TodoList.Action>]
  ) -> RecordedStep<TodoList.Action>? {
    var nextID = start.nextID
    for step in steps {
      // A blank `add` is ignored and changes nothing.
      guard case .add = step.action, !step.changes.isEmpty else { continue }
      if nextID == id { return step }
      nextID += 1
    }
    return nil
  }
}
