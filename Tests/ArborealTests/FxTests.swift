import Testing

@testable import Arboreal

/// `Fx` as a value: what each constructor and combinator holds, without a store.
@Suite struct FxTests {
  /// Runs every effect of `fx` in order and returns the actions they sent.
  private func actions<Action: Sendable>(of fx: Fx<Action>) async -> [Action] {
    let sent = Log<Action>()
    for effect in fx.effects {
      if case .run(let work) = effect { await work.operation { sent.append($0) } }
    }
    return sent.all
  }

  /// The cancellation identifiers of each entry: `nil` for a `cancel` entry.
  private func cancelIDs<Action>(of fx: Fx<Action>) -> [[CancelID]?] {
    fx.effects.map { effect in
      if case .run(let work) = effect { return work.cancelIDs }
      return nil
    }
  }

  @Test func noneHoldsNothing() {
    #expect(Fx<Int>.none.isNone)
    #expect(Fx<Int>.merge(.none, .none).isNone)
    #expect(!Fx<Int> { 1 }.isNone)
  }

  @Test func mergeKeepsTheOrderOfItsEffects() async {
    let fx = Fx<Int> { 1 }.merge(Fx([{ 2 }, { 3 }])).merge(.none)
    #expect(await actions(of: fx) == [1, 2, 3])
    #expect(await actions(of: Fx.merge([Fx { 4 }, .none, Fx { 5 }])) == [4, 5])
  }

  @Test func tagTransformsEveryActionAndKeepsCancellation() async {
    let fx = Fx<Int>.merge(Fx { 1 }, .run { send in await send(2) }, .cancel(id: "x"))
      .cancellable(id: "child")
      .tag { "tagged \($0)" }
    #expect(await actions(of: fx) == ["tagged 1", "tagged 2"])
    #expect(cancelIDs(of: fx) == [[CancelID("child")], [CancelID("child")], nil])
  }

  @Test func cancellableTagsEveryEffectAndRemembersWhichIDsCancelInFlight() {
    let fx = Fx<Int> { 1 }.cancellable(id: "a", cancelInFlight: true).cancellable(id: 2)
    guard case .run(let work) = fx.effects[0] else {
      Issue.record("expected an effect")
      return
    }
    #expect(work.cancelIDs == [CancelID("a"), CancelID(2)])
    #expect(work.cancelInFlightIDs == [CancelID("a")])
  }

  @Test func cancelIsAnEntryOfItsOwn() {
    let fx = Fx<Int>.cancel(id: "timer")
    guard case .cancel(let id) = fx.effects[0] else {
      Issue.record("expected a cancellation")
      return
    }
    #expect(id == CancelID("timer"))
  }

  @Test func theThrowingFormSendsTheResultOrTheMappedError() async {
    struct Failure: Error {}
    let success = Fx<String> {
      "ok"
    } catch: { _ in
      "error"
    }
    let failure = Fx<String> {
      throw Failure()
    } catch: { _ in
      "error"
    }
    #expect(await actions(of: success) == ["ok"])
    #expect(await actions(of: failure) == ["error"])
  }

  @Test func fireAndForgetSendsNothing() async {
    let ran = Log<Bool>()
    #expect(await actions(of: Fx<Int>.fireAndForget { ran.append(true) }).isEmpty)
    #expect(ran.all == [true])
  }

  @Test @MainActor func updateActionsAppliesInOrderAndMergesTheEffects() async {
    let script = Script()
    let fx = script.update(
      actions: [.record("a"), .then("b", Fx { .record("b effect") }), .run(Fx { .record("c") })],
      environment: ())
    #expect(script.log == ["a", "b"])
    #expect(fx.effects.count == 2)
    let sent = await actions(of: fx).map { action -> String in
      if case .record(let text) = action { return text }
      return "?"
    }
    #expect(sent == ["b effect", "c"])
  }
}
