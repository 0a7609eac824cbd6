import Arboreal

/// The detail screen of one meeting: shows it, presents the edit sheet, and asks before
/// deleting it.
///
/// The meeting is a copy; the list learns of a saved edit or a confirmed deletion through
/// delegate actions.
final class MeetingDetail: ArborealModel {
  enum Action: Sendable, Equatable {
    case editTapped
    case editor(PresentationAction<MeetingEditor.Action>)
    case deleteTapped
    case alert(PresentationAction<Alert>)
    /// What the screen tells the list.
    case delegate(Delegate)

    enum Alert: Sendable, Equatable {
      case confirmDelete
    }

    enum Delegate: Sendable, Equatable {
      case changed(Meeting)
      case delete(Meeting.ID)
    }
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var meeting: Meeting
  @Tracked private(set) var editor: MeetingEditor?
  @Tracked private(set) var alert: AlertState<Action.Alert>?

  init(meeting: Meeting) {
    self.meeting = meeting
  }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .editTapped:
      editor = MeetingEditor(draft: meeting)
      return .none
    case .editor(let action):
      // Every action of the editor is forwarded, its delegate actions too (it ignores them),
      // before this screen acts on them.
      let fx = forward(action, to: \.editor, environment: (), tag: Action.editor)
      guard case .presented(.delegate(.save(let draft))) = action else { return fx }
      meeting = draft
      editor = nil
      return .merge(fx, Fx { .delegate(.changed(draft)) })
    case .deleteTapped:
      alert = AlertState(
        title: "Delete “\(meeting.title)”?", message: "It cannot be undone.",
        buttons: [
          AlertButton("Delete", role: .destructive, action: .confirmDelete),
          AlertButton("Cancel", role: .cancel),
        ])
      return .none
    case .alert(.presented(.confirmDelete)):
      alert = nil
      let id = meeting.id
      return Fx { .delegate(.delete(id)) }
    case .alert(.dismiss):
      alert = nil
      return .none
    case .delegate:
      return .none
    }
  }
}
