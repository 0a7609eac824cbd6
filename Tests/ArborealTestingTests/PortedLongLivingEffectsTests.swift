import Arboreal
import ArborealTesting
import Testing

/// TCA's "Long-living effects" case study, ported as a user would: while the screen is shown,
/// every screenshot the system reports bumps a count. TCA ties the effect to the view's
/// `.task`; here the screen's appearing starts it and its disappearing cancels it by id.
final class ScreenshotCounter: ArborealModel {
  enum Action: Sendable, Equatable {
    case appeared
    case disappeared
    case screenshotTaken
  }

  struct Environment: Sendable {
    /// The system's screenshot notifications.
    var screenshots: @Sendable () -> AsyncStream<Void>
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var screenshotCount = 0

  func update(action: Action, environment: Environment) -> Fx<Action> {
    switch action {
    case .appeared:
      return .run { send in
        for await _ in environment.screenshots() { await send(.screenshotTaken) }
      }
      .cancellable(id: "screenshots")
    case .disappeared:
      return .cancel(id: "screenshots")
    case .screenshotTaken:
      screenshotCount += 1
      return .none
    }
  }
}

@Suite actor PortedLongLivingEffectsTests {
  @Test func countsScreenshotsWhileShownAndStopsListeningWhenGone() async {
    let (screenshots, system) = AsyncStream.makeStream(of: Void.self)
    let store = TestStore(
      state: ScreenshotCounter(), environment: .init(screenshots: { screenshots }))
    await store.send(.appeared)
    system.yield()
    await store.receive(.screenshotTaken) { #expect($0.screenshotCount == 1) }
    system.yield()
    await store.receive(.screenshotTaken) { #expect($0.screenshotCount == 2) }
    await store.send(.disappeared)
    // The listening effect is cancelled: a screenshot now reaches nobody, and nothing runs.
    system.yield()
    await store.finish()
  }
}
