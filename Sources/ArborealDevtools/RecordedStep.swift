import Arboreal

/// One action of a recording: its number, the action, where it came from, and the
/// properties it changed.
///
/// Steps are numbered from 1 in the order the store handled them. An action an effect
/// delivered names the step whose update started that effect, so a change can be followed
/// back to the action that set it off (see ``ChangeExplanation``).
public struct RecordedStep<Action: Sendable>: Sendable {
  /// The step's number, from 1.
  public let sequence: Int
  /// The action.
  public let action: Action
  /// Whether the program sent the action or an effect delivered it; for an effect, the
  /// ``sequence`` of the step that started it (nil if that step is not in the recording).
  public let cause: StoreLogEntry<Action>.Cause
  /// The properties the action changed, in the order they first changed.
  public let changes: [RecordedProperty]

  /// Creates a step.
  ///
  /// - Parameters:
  ///   - sequence: The step's number, from 1.
  ///   - action: The action.
  ///   - cause: Where it came from.
  ///   - changes: The properties it changed.
  public init(
    sequence: Int, action: Action, cause: StoreLogEntry<Action>.Cause,
    changes: [RecordedProperty]
  ) {
    self.sequence = sequence
    self.action = action
    self.cause = cause
    self.changes = changes
  }

  /// The step's number, the action and where it came from:
  /// `#4 saveFinished(problem: nil) ← effect of #3`.
  public var summary: String {
    switch cause {
    case .sent: "#\(sequence) \(action)"
    case .effect(let startedBy?): "#\(sequence) \(action) ← effect of #\(startedBy)"
    case .effect(nil): "#\(sequence) \(action) ← effect started before the recording"
    }
  }
}
