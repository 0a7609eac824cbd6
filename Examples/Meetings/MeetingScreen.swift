import Arboreal

/// A screen on the navigation stack: a meeting's details, or its recording.
///
/// A `ModelStack` holds one model type, so both kinds of screen are this one, which holds
/// either and forwards each action to it.
final class MeetingScreen: ArborealModel {
  enum Action: Sendable, Equatable {
    case detail(MeetingDetail.Action)
    case record(RecordMeeting.Action)
  }

  let registrar = TrackingRegistrar()
  let detail: MeetingDetail?
  let record: RecordMeeting?

  init(detail: MeetingDetail) {
    self.detail = detail
    self.record = nil
  }

  init(record: RecordMeeting) {
    self.detail = nil
    self.record = record
  }

  func update(action: Action, environment: MeetingsEnvironment) -> Fx<Action> {
    switch action {
    case .detail(let action):
      return forward(action, to: \.detail, environment: (), tag: Action.detail)
    case .record(let action):
      return forward(action, to: \.record, environment: environment, tag: Action.record)
    }
  }
}
