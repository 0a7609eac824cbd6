import ArborealTestSupport
import Testing

@testable import Arboreal

/// A subscribing model that declares `subscriptionReader` itself, answering nil: its
/// subscriptions would never start. Debug builds say so, once per type.
private final class ReaderlessTimer: SubscribingModel {
  enum Action: Sendable { case tick }
  let registrar = TrackingRegistrar()
  @Tracked private(set) var ticks = 0

  static var subscriptionReader: SubscriptionReader<ReaderlessTimer>? { nil }

  func update(action: Action, environment: Void) -> Fx<Action> {
    ticks += 1
    return .none
  }

  func subscriptions(environment: Void) -> [Subscription<Action>] {
    [Subscription(id: "tick", .none)]
  }
}

/// The same mistake in a child, reached through `forward`.
private final class ReaderlessChild: SubscribingModel {
  enum Action: Sendable { case tick }
  let registrar = TrackingRegistrar()

  static var subscriptionReader: SubscriptionReader<ReaderlessChild>? { nil }

  func update(action: Action, environment: Void) -> Fx<Action> { .none }

  func subscriptions(environment: Void) -> [Subscription<Action>] {
    [Subscription(id: "tick", .none)]
  }
}

private final class ReaderlessParent: ArborealModel {
  enum Action: Sendable { case child(ReaderlessChild.Action) }
  let registrar = TrackingRegistrar()
  let child = ReaderlessChild()
  static let child = ChildRoute.child(\ReaderlessParent.child, tag: Action.child)

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .child(let action):
      return forward(action, to: Self.child, environment: ())
    }
  }
}

@Suite actor SubscriptionReaderTests {
  #if DEBUG
    @MainActor
    @Test func aSubscribingModelWhoseReaderAnswersNilIsReportedOnce() {
      let messages = Log<String>()
      ArborealDiagnostics.droppedActionHandler = { messages.append($0) }
      defer { ArborealDiagnostics.droppedActionHandler = nil }
      _ = Store(state: ReaderlessTimer(), environment: ())
      _ = Store(state: ReaderlessTimer(), environment: ())
      let reports = messages.all.filter { $0.contains("ReaderlessTimer is a SubscribingModel") }
      #expect(reports.count == 1)
      #expect(reports.first?.contains("subscriptionReader") == true)
    }

    @MainActor
    @Test func aForwardedChildWhoseReaderAnswersNilIsReported() {
      let messages = Log<String>()
      ArborealDiagnostics.droppedActionHandler = { messages.append($0) }
      defer { ArborealDiagnostics.droppedActionHandler = nil }
      let store = Store(state: ReaderlessParent(), environment: ())
      store.send(.child(.tick))
      store.send(.child(.tick))
      let reports = messages.all.filter { $0.contains("ReaderlessChild is a SubscribingModel") }
      #expect(reports.count == 1)
    }
  #endif

  @Test func aSubscribingModelWithTheDefaultReaderSubscribes() {
    #expect(ReaderlessTimer.subscriptionReader == nil)
    #expect(Ticker.subscriptionReader != nil)
    let store = Store(state: Ticker(), environment: ())
    #expect(store.runningEffectCount == 1)
  }
}

/// A subscribing model as users write it: no `subscriptionReader` of its own.
private final class Ticker: SubscribingModel {
  enum Action: Sendable { case tick }
  let registrar = TrackingRegistrar()

  func update(action: Action, environment: Void) -> Fx<Action> { .none }

  func subscriptions(environment: Void) -> [Subscription<Action>] {
    [Subscription(id: "tick", .run { _ in try? await Task.sleep(for: .seconds(3600)) })]
  }
}
