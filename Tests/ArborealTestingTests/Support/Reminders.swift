import Arboreal

/// Reminders delayed on a clock, to check the order in which a clock runs what falls due.
final class Reminders: ArborealModel {
  enum Action: Sendable, Equatable {
    case remind(String, after: Duration)
    /// A reminder that sends `.reminded(text)` then, `then` later, `.reminded(text + " again")`.
    case remindTwice(String, after: Duration, then: Duration)
    case reminded(String)
    case cancel(String)
  }

  struct Environment: Sendable {
    var clock: any Clock<Duration>
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var log: [String] = []

  func update(action: Action, environment: Environment) -> Fx<Action> {
    switch action {
    case .remind(let text, let delay):
      return Fx { .reminded(text) }.delay(for: delay, clock: environment.clock)
        .cancellable(id: text)
    case .remindTwice(let text, let delay, let then):
      return Fx.merge(
        Fx { .reminded(text) },
        Fx { .reminded(text + " again") }.delay(for: then, clock: environment.clock)
      )
      .delay(for: delay, clock: environment.clock)
    case .reminded(let text):
      log.append(text)
      return .none
    case .cancel(let text):
      return .cancel(id: text)
    }
  }
}
