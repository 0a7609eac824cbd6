import Arboreal

/// The app's root: the list of meetings, and the navigation stack of screens over it.
final class MeetingList: ArborealModel {
  /// The kinds of screen on the stack, each routed once.
  enum Path: ModelCases {
    case detail(MeetingDetail)
    case record(RecordMeeting)

    enum Action: Codable, Sendable, Equatable {
      case detail(MeetingDetail.Action)
      case record(RecordMeeting.Action)
    }

    typealias Environment = MeetingsEnvironment

    var child: CaseChild<Path> {
      switch self {
      case .detail(let detail): .model(detail, action: Action.detail, environment: { _ in })
      case .record(let record): .model(record, action: Action.record)
      }
    }

    static func child(of action: Action) -> CaseAction<Path> {
      switch action {
      case .detail(let action): .model(action, in: Path.detail)
      case .record(let action): .model(action, in: Path.record)
      }
    }
  }

  enum Action: Codable, Sendable, Equatable {
    case add(title: String)
    /// Pushes the detail screen of a meeting.
    case open(Meeting.ID)
    /// Pushes the recording screen of a meeting.
    case record(Meeting.ID)
    case path(StackAction<Path.Action>)
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var meetings: [Meeting] = []
  @Tracked private(set) var path = ModelStack<Path>()

  /// The stack's route, declared once and followed by the store: a recording screen's timer
  /// starts when it is pushed, however it is pushed, and ends when it is popped.
  static let path = ChildRoute.stack(\MeetingList.path, tag: Action.path)
  static let routes: [ChildRoute<MeetingList>] = [path]
  private var nextID = 1

  func meeting(id: Meeting.ID) -> Meeting? {
    meetings.first { $0.id == id }
  }

  func update(action: Action, environment: MeetingsEnvironment) -> Fx<Action> {
    switch action {
    case .add(let title):
      meetings.append(Meeting(id: nextID, title: title))
      nextID += 1
    case .open(let id):
      guard let meeting = meeting(id: id) else { break }
      path.push(.detail(MeetingDetail(meeting: meeting)))
    case .record(let id):
      guard let meeting = meeting(id: id) else { break }
      path.push(.record(RecordMeeting(meeting: meeting)))
    case .path(let action):
      // Every action of a screen is forwarded, its delegate actions too (the screen ignores
      // them), before the list acts on them.
      let fx = forward(action, to: Self.path, environment: environment)
      guard !fx.isDropped, case .element(let screen, .detail(.delegate(let delegate))) = action
      else { return fx }
      switch delegate {
      case .changed(let meeting):
        guard let index = meetings.firstIndex(where: { $0.id == meeting.id }) else { break }
        meetings[index] = meeting
      case .delete(let id):
        meetings.removeAll { $0.id == id }
        path.pop(from: screen)
      }
      return fx
    }
    return .none
  }
}

// MARK: Snapshots

/// A `ReplayableModel`, for `--record`: the list, its id counter, and the stack with each
/// screen's identifier and the next one (`ModelStack(restoring:nextElementID:)`), so that a
/// replayed session's actions reach the screens they were sent to.
extension MeetingList: ReplayableModel {
  /// A screen of the stack as a value.
  enum ScreenSnapshot: Codable, Equatable, Sendable {
    case detail(MeetingDetail.Snapshot)
    case record(RecordMeeting.Snapshot)
  }

  /// The app as a value.
  struct Snapshot: Codable, Equatable, Sendable {
    struct Screen: Codable, Equatable, Sendable {
      var id: StackElementID
      var screen: ScreenSnapshot
    }

    var meetings: [Meeting]
    var nextID: Int
    var path: [Screen]
    var nextScreenID: StackElementID
  }

  var snapshot: Snapshot {
    let screens = path.indices.map { index in
      let screen: ScreenSnapshot =
        switch path[index] {
        case .detail(let detail): .detail(detail.snapshot)
        case .record(let record): .record(record.snapshot)
        }
      return Snapshot.Screen(id: path.id(at: index), screen: screen)
    }
    return Snapshot(
      meetings: meetings, nextID: nextID, path: screens, nextScreenID: path.nextElementID)
  }

  convenience init(snapshot: Snapshot) {
    self.init()
    meetings = snapshot.meetings
    nextID = snapshot.nextID
    path = ModelStack(
      restoring: snapshot.path.map { screen in
        switch screen.screen {
        case .detail(let detail): (screen.id, Path.detail(MeetingDetail(snapshot: detail)))
        case .record(let record): (screen.id, Path.record(RecordMeeting(snapshot: record)))
        }
      },
      nextElementID: snapshot.nextScreenID)
  }
}
