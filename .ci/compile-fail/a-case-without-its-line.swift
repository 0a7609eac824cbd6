// expect: switch must be exhaustive
// A case added to an enumeration of destinations without its line in `child` (what each case
// holds) does not compile: it could not be forwarded to, and nothing would say so.
import Arboreal

final class Editor: ArborealModel {
  enum Action: Sendable { case save }
  let registrar = TrackingRegistrar()
  func update(action: Action, environment: Void) -> Fx<Action> { .none }
}

enum Destination: ModelCases {
  case editor(Editor)
  case viewer(Editor)

  enum Action: Sendable {
    case editor(Editor.Action)
    case viewer(Editor.Action)
  }

  var child: CaseChild<Destination> {
    switch self {
    case .editor(let editor): .model(editor, action: Action.editor)
    }
  }

  static func child(of action: Action) -> CaseAction<Destination> {
    switch action {
    case .editor(let action): .model(action, in: Destination.editor)
    case .viewer(let action): .model(action, in: Destination.viewer)
    }
  }
}
