/// What the screens' effects use: the clock the recording timer ticks on, and how long a tick
/// is.
struct MeetingsEnvironment: Sendable {
  var clock: any Clock<Duration> = ContinuousClock()
  /// The time between two ticks of the timer: a second, or less for tests (`--tick-ms`).
  var tick: Duration = .seconds(1)
}
