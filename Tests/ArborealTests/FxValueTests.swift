import ArborealTestSupport
import Testing

@testable import Arboreal

/// `Fx` as a value: what each constructor and combinator holds, without a store.
@Suite struct FxValueTests {
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
    let fx = Fx<Int>.merge(Fx { 1 }, .merge(Fx { 2 }, Fx { 3 }), .none)
    #expect(await actions(of: fx) == [1, 2, 3])
    #expect(await actions(of: Fx.merge([Fx { 4 }, .none, Fx { 5 }])) == [4, 5])
  }

  /// `fx`'s entries as the parent of the child `scope` sees them: what `forward` does to a
  /// child's effects (`FxEntry.tag`), without the instance's lifetime link.
  private func sentUp<Action: Sendable, Parent: Sendable>(
    _ fx: Fx<Action>, from scope: EffectScope, _ transform: @escaping @Sendable (Action) -> Parent
  ) -> Fx<Parent> {
    Fx(effects: fx.effects.map { $0.tag(transform, scope: scope) })
  }

  @Test func aChildsEffectsSentUpTransformEveryActionAndScopeCancellationToTheChild() async {
    let child = EffectScope(Int.self)
    let fx = sentUp(
      Fx<Int>.merge(Fx { 1 }, .run { send in await send(2) }, .cancel(id: "x"))
        .cancellable(id: "child"),
      from: child
    ) { "tagged \($0)" }
    #expect(await actions(of: fx) == ["tagged 1", "tagged 2"])
    let scoped = [CancelID("child").scoped(in: child), CancelID(member: child)]
    #expect(cancelIDs(of: fx) == [scoped, scoped, nil])
    #expect(cancelledIDs(of: fx) == [nil, nil, CancelID("x").scoped(in: child)])
    #expect(CancelID("child").scoped(in: child) != CancelID("child"))
  }

  @Test func aKeyedChildsScopeNestsOutermostFirst() {
    let row = EffectScope(Int.self, key: 7)
    let list = EffectScope(String.self, key: "list")
    let fx = sentUp(
      sentUp(Fx<Int> { 1 }.cancellable(id: "upload"), from: row) { "\($0)" }, from: list
    ) {
      $0
    }
    #expect(
      cancelIDs(of: fx) == [
        [
          CancelID("upload").scoped(in: row).scoped(in: list),
          CancelID(member: row).scoped(in: list),
          CancelID(member: list),
        ]
      ])
    #expect(
      CancelID("upload").scoped(in: row)
        != CancelID("upload").scoped(in: EffectScope(Int.self, key: 8)))
  }

  @Test func mergingASequenceKeepsTheOrderAndAnEmptyOneIsNone() async {
    let fx = Fx.merge([Fx<Int> { 1 }, .none, Fx { 2 }])
    #expect(await actions(of: fx) == [1, 2])
    #expect(Fx<Int>.merge([]).isNone)
  }

  @Test func aThrowingRunHandsItsErrorToCatchWhichMaySend() async {
    struct Offline: Error {}
    let fx = Fx<String>.run { send in
      await send("before")
      throw Offline()
    } catch: { error, send in
      await send("caught \(error)")
    }
    #expect(await actions(of: fx) == ["before", "caught Offline()"])
    let quiet = Fx<String>.run { send in
      await send("fine")
    } catch: { _, send in
      await send("unexpected")
    }
    #expect(await actions(of: quiet) == ["fine"])
  }

  /// The identifier of each `cancel` entry: `nil` for a `run` entry.
  private func cancelledIDs<Action>(of fx: Fx<Action>) -> [CancelID?] {
    fx.effects.map { effect in
      if case .cancel(let id) = effect { return id }
      return nil
    }
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

  @Test func aRunThatNeverSendsSendsNothing() async {
    let ran = Log<Bool>()
    #expect(await actions(of: Fx<Int>.run { _ in ran.append(true) }).isEmpty)
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
