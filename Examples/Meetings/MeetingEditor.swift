import Arboreal

/// The edit sheet: a draft of the meeting, changed field by field, then saved or thrown away.
///
/// Saving hands the draft to the presenting screen as a delegate action; that screen keeps it
/// and dismisses the sheet. Cancelling asks to be dismissed (`Fx.dismiss`).
final class MeetingEditor: ArborealModel {
  enum Action: Codable, Sendable, Equatable {
    case setTitle(String)
    case setAttendees([String])
    case setMinutes(Int)
    case save
    case cancel
    /// What the sheet tells the screen that presents it.
    case delegate(Delegate)

    enum Delegate: Codable, Sendable, Equatable {
      case save(Meeting)
    }
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var draft: Meeting

  init(draft: Meeting) {
    self.draft = draft
  }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .setTitle(let title):
      draft.title = title
    case .setAttendees(let attendees):
      draft.attendees = attendees
    case .setMinutes(let minutes):
      draft.minutes = minutes
    case .save:
      let draft = self.draft
      return Fx { .delegate(.save(draft)) }
    case .cancel:
      return .dismiss
    case .delegate:
      break
    }
    return .none
  }
}
