// expect: cannot convert value of type
// A line that pairs a case with the actions of another case's model does not compile.
import Arboreal

final class Editor: ArborealModel {
  enum Action: Sendable { case save }
  let registrar = TrackingRegistrar()
  func update(action: Action, environment: Void) -> Fx<Action> { .none }
}

final class Viewer: ArborealModel {
  enum Action: Sendable { case close }
  let registrar = TrackingRegistrar()
  func update(action: Action, environment: Void) -> Fx<Action> { .none }
}

enum Destination: ModelCases {
  case editor(Editor)
  case viewer(Viewer)

  enum Action: Sendable {
    case editor(Editor.Action)
    case viewer(Viewer.Action)
  }

  var child: CaseChild<Destination> {
    switch self {
    case .editor(let editor): .model(editor, action: Action.viewer)
    case .viewer(let viewer): .model(viewer, action: Action.viewer)
    }
  }

  static func child(of action: Action) -> CaseAction<Destination> {
    switch action {
    case .editor(let action): .model(action, in: Destination.editor)
    case .viewer(let action): .model(action, in: Destination.viewer)
    }
  }
}
