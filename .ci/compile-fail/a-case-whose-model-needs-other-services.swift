// expect: requires the types 'Void' and 'Services' be equivalent
// A case whose model needs other services than the enumeration's (whose `Environment` is
// `Void` unless it says otherwise) does not compile; the fix is `typealias Environment =
// Services` in the enumeration, or `.model(record, action: Action.record, environment: { … })`.
import Arboreal

struct Services: Sendable { var name = "" }

final class Recorder: ArborealModel {
  enum Action: Sendable { case tick }
  let registrar = TrackingRegistrar()
  func update(action: Action, environment: Services) -> Fx<Action> { .none }
}

enum Path: ModelCases {
  case record(Recorder)
  enum Action: Sendable { case record(Recorder.Action) }

  var child: CaseChild<Path> {
    switch self {
    case .record(let record): .model(record, action: Action.record)
    }
  }

  static func child(of action: Action) -> CaseAction<Path> {
    switch action {
    case .record(let action): .model(action, in: Path.record)
    }
  }
}
