import Arboreal

/// The recording screen: a timer that counts the meeting's seconds while the screen is shown.
///
/// The timer is a subscription for the screen's whole life on the stack: the list pushes it
/// with `push(_:on:environment:tag:)`, which starts it at once, with no action sent by
/// whoever shows the screen. Nothing in this screen or in its parent stops it: it belongs to
/// the screen, and ends when the screen is popped.
final class RecordMeeting: SubscribingModel {
  enum Action: Codable, Sendable, Equatable {
    case tick
  }

  let registrar = TrackingRegistrar()
  let meeting: Meeting
  @Tracked private(set) var secondsElapsed = 0

  init(meeting: Meeting) {
    self.meeting = meeting
  }

  func update(action: Action, environment: MeetingsEnvironment) -> Fx<Action> {
    switch action {
    case .tick:
      secondsElapsed += 1
      return .none
    }
  }

  func subscriptions(environment: MeetingsEnvironment) -> [Subscription<Action>] {
    [.every(environment.tick, clock: environment.clock, id: "timer") { .tick }]
  }
}

// MARK: Snapshots

extension RecordMeeting {
  /// The screen as a value, for `--record`.
  struct Snapshot: Codable, Equatable, Sendable {
    var meeting: Meeting
    var secondsElapsed: Int
  }

  var snapshot: Snapshot { Snapshot(meeting: meeting, secondsElapsed: secondsElapsed) }

  convenience init(snapshot: Snapshot) {
    self.init(meeting: snapshot.meeting)
    secondsElapsed = snapshot.secondsElapsed
  }
}
