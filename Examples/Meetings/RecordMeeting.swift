import Arboreal

/// The recording screen: a timer that counts the meeting's seconds while the screen is shown.
///
/// The timer is a subscription, asked for once the screen has appeared (`task`, sent by
/// whoever shows it, as a SwiftUI view's `.task` would). Nothing in this screen or in its
/// parent stops it: it belongs to the screen, and ends when the screen is popped.
final class RecordMeeting: SubscribingModel {
  enum Action: Sendable, Equatable {
    /// The screen appeared: start the timer.
    case task
    case tick
  }

  let registrar = TrackingRegistrar()
  let meeting: Meeting
  @Tracked private(set) var isRunning = false
  @Tracked private(set) var secondsElapsed = 0

  init(meeting: Meeting) {
    self.meeting = meeting
  }

  func update(action: Action, environment: MeetingsEnvironment) -> Fx<Action> {
    switch action {
    case .task:
      isRunning = true
    case .tick:
      secondsElapsed += 1
    }
    return .none
  }

  func subscriptions(environment: MeetingsEnvironment) -> [Subscription<Action>] {
    guard isRunning else { return [] }
    return [.every(environment.tick, clock: environment.clock, id: "timer") { .tick }]
  }
}
