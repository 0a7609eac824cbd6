import Arboreal

/// The detail screen of one meeting: shows it, presents the edit sheet, and asks before
/// deleting it.
///
/// The meeting is a copy; the list learns of a saved edit or a confirmed deletion through
/// delegate actions.
final class MeetingDetail: ArborealModel {
  /// What the screen presents, one at a time, each routed once.
  enum Destination: ModelCases {
    case editor(MeetingEditor)
    case alert(AlertState<Alert>)

    enum Action: Codable, Sendable, Equatable {
      case editor(MeetingEditor.Action)
      case alert(Alert)
    }

    enum Alert: Codable, Sendable, Equatable {
      case confirmDelete
    }

    var child: CaseChild<Destination> {
      switch self {
      case .editor(let editor): .model(editor, action: Action.editor)
      case .alert(let alert): .alert(alert, action: Action.alert)
      }
    }

    static func child(of action: Action) -> CaseAction<Destination> {
      switch action {
      case .editor(let action): .model(action, in: Destination.editor)
      case .alert(let action): .alert(action, in: Destination.alert)
      }
    }
  }

  enum Action: Codable, Sendable, Equatable {
    case editTapped
    case deleteTapped
    case destination(PresentationAction<Destination.Action>)
    /// What the screen tells the list.
    case delegate(Delegate)

    enum Delegate: Codable, Sendable, Equatable {
      case changed(Meeting)
      case delete(Meeting.ID)
    }
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var meeting: Meeting
  @Tracked private(set) var destination: Destination?

  /// The destination's route, declared once: the update forwards through it, the command line
  /// scopes view stores through it, and the store lists its children by it
  /// (`Store.children`).
  static let destination = ChildRoute.destination(
    \MeetingDetail.destination, tag: Action.destination)
  static let routes: [ChildRoute<MeetingDetail>] = [destination]

  init(meeting: Meeting) {
    self.meeting = meeting
  }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .editTapped:
      destination = .editor(MeetingEditor(draft: meeting))
      return .none
    case .deleteTapped:
      destination = .alert(Self.deleteQuestion(for: meeting))
      return .none
    case .destination(let action):
      // Every action of the destination is forwarded (the alert closes there), the editor's
      // delegate actions too, before this screen acts on them.
      let fx = forward(action, to: Self.destination, environment: ())
      // A button of an alert that is not up, or a save of an editor that is gone, did not
      // happen: the screen does not act on it.
      guard !fx.isDropped else { return fx }
      switch action {
      case .presented(.editor(.delegate(.save(let draft)))):
        meeting = draft
        destination = nil
        return .merge(fx, Fx { .delegate(.changed(draft)) })
      case .presented(.alert(.confirmDelete)):
        let id = meeting.id
        return .merge(fx, Fx { .delegate(.delete(id)) })
      default:
        return fx
      }
    case .delegate:
      return .none
    }
  }
}

// MARK: Snapshots

extension MeetingDetail {
  /// The question asked before deleting a meeting.
  static func deleteQuestion(for meeting: Meeting) -> AlertState<Destination.Alert> {
    AlertState(
      title: "Delete “\(meeting.title)”?", message: "It cannot be undone.",
      buttons: [
        AlertButton("Delete", role: .destructive, action: .confirmDelete),
        AlertButton("Cancel", role: .cancel),
      ])
  }

  /// What the screen shows over itself, as a value: the alert is made again from the meeting
  /// (an `AlertState` is not `Codable`).
  enum DestinationSnapshot: Codable, Equatable, Sendable {
    case editor(draft: Meeting)
    case deleteQuestion
  }

  /// The screen as a value, for `--record`.
  struct Snapshot: Codable, Equatable, Sendable {
    var meeting: Meeting
    var destination: DestinationSnapshot?
  }

  var snapshot: Snapshot {
    let shown: DestinationSnapshot? =
      switch destination {
      case .editor(let editor): .editor(draft: editor.draft)
      case .alert: .deleteQuestion
      case nil: nil
      }
    return Snapshot(meeting: meeting, destination: shown)
  }

  convenience init(snapshot: Snapshot) {
    self.init(meeting: snapshot.meeting)
    switch snapshot.destination {
    case .editor(let draft): destination = .editor(MeetingEditor(draft: draft))
    case .deleteQuestion: destination = .alert(Self.deleteQuestion(for: snapshot.meeting))
    case nil: break
    }
  }
}
