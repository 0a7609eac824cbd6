import Arboreal
import ArborealTesting
import Testing

/// A model whose effect's action sends another with `Fx.send`: the order in which the actions
/// are handled is what both stores must agree on.
final class Relay: ArborealModel {
  enum Action: Sendable, Equatable {
    case start
    case tick
    case done
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var handled: [Action] = []

  func update(action: Action, environment: Void) -> Fx<Action> {
    handled.append(action)
    switch action {
    case .start: return Fx { .tick }
    case .tick: return .send(.done)
    case .done: return .none
    }
  }
}

/// A presented child that dismisses itself and starts an effect in the same update: the
/// dismissal removes it, which ends the effect before it delivers.
final class Closing: ArborealModel {
  enum Action: Sendable, Equatable {
    case close
    case loaded
  }

  let registrar = TrackingRegistrar()

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .close: return .merge(Fx { .loaded }, .dismiss)
    case .loaded: return .none
    }
  }
}

/// Presents a `Closing`, and keeps the actions it handled.
final class ClosingHost: ArborealModel {
  enum Action: Sendable, Equatable {
    case sheet(PresentationAction<Closing.Action>)
  }

  let registrar = TrackingRegistrar()
  @Tracked var sheet: Closing? = Closing()
  static let sheet = ChildRoute.child(\ClosingHost.sheet, tag: Action.sheet)
  @Tracked private(set) var handled: [Action] = []

  func update(action: Action, environment: Void) -> Fx<Action> {
    handled.append(action)
    switch action {
    case .sheet(let action):
      return forward(action, to: Self.sheet, environment: ())
    }
  }
}

/// The test store is the live store, stepped: the same actions arrive in the same order, and
/// the effects a dismissal ends deliver nothing in either. Each test runs once against `Store`
/// and once against `TestStore`.
@Suite actor LiveAndTestStoreAgreeTests {
  @Test func anActionSentByAnEffectsActionComesAfterItInTheLiveStore() async {
    let store = Store(state: Relay(), environment: ())
    await store.send(.start).value
    #expect(store.state.handled == [.start, .tick, .done])
  }

  @Test(arguments: [Exhaustivity.on, .off])
  func anActionSentByAnEffectsActionComesAfterItInTheTestStore(
    exhaustivity: Exhaustivity
  ) async {
    let store = TestStore(state: Relay(), exhaustivity: exhaustivity)
    // Exhaustively each step applies one action. Otherwise `send` asserts before its effects
    // run, and then applies what they deliver as it arrives.
    let all: [Relay.Action] = [.start, .tick, .done]
    func upTo(_ count: Int) -> [Relay.Action] {
      exhaustivity == .on || count == 1 ? Array(all.prefix(count)) : all
    }
    await store.send(.start) { #expect($0.handled == upTo(1)) }
    await store.receive(.tick) { #expect($0.handled == upTo(2)) }
    await store.receive(.done) { #expect($0.handled == upTo(3)) }
    await store.finish()
  }

  @Test func anEffectReturnedWithDismissDeliversNothingInTheLiveStore() async {
    let store = Store(state: ClosingHost(), environment: ())
    await store.send(.sheet(.presented(.close))).value
    #expect(store.state.sheet == nil)
    #expect(store.state.handled == [.sheet(.presented(.close)), .sheet(.dismiss)])
  }

  @Test(arguments: [Exhaustivity.on, .off])
  func anEffectReturnedWithDismissDeliversNothingInTheTestStore(
    exhaustivity: Exhaustivity
  ) async {
    let store = TestStore(state: ClosingHost(), exhaustivity: exhaustivity)
    let all: [ClosingHost.Action] = [.sheet(.presented(.close)), .sheet(.dismiss)]
    // The effects returned with the dismissal are a mistake the test store fails on (debug
    // builds report it).
    await withKnownIssue {
      _ = self  // on the suite's actor, where the test store lives
      await store.send(.sheet(.presented(.close))) {
        #expect($0.handled == (exhaustivity == .on ? [all[0]] : all))
      }
    } matching: {
      $0.description.contains("returned effects together with `Fx.dismiss`")
    }
    await store.receive(.sheet(.dismiss)) {
      #expect($0.sheet == nil)
      #expect($0.handled == all)
    }
    await store.finish()
    #expect(store.state.handled == all)
  }
}
