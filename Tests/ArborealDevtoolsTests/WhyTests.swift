import Arboreal
import ArborealDevtools
import Testing

/// Which action last changed a property, and the actions and effects that led to it.
@Suite actor WhyTests {
  @Test func theChainFollowsEffectsBackToTheSentAction() async throws {
    let store = Store(state: Board(), environment: ())
    let recorder = try StoreRecorder(store, to: nil)
    store.send(.rename("x"))
    await store.send(.load(2)).value
    store.send(.add("milk"))
    await recorder.finish()

    let total = RecordedProperty(owner: "Board#board", name: "total")
    let why = try #require(recorder.recording.explain(total))
    // load(2) is #2; loaded(2) #3 adds 2; loaded(1) #4 adds 1; loaded(0) #5 adds nothing.
    #expect(why.step.sequence == 4)
    #expect(why.chain.map(\.sequence) == [4, 3, 2])
    #expect(why.chain.last?.cause == .sent)
    #expect(
      why.description == """
        Board#board.total was last changed by #4 loaded(1)
          #4 loaded(1) ← effect of #3
          #3 loaded(2) ← effect of #2
          #2 load(2)
        """)
  }

  @Test func aPropertyOfAChildIsNamedByItsOwner() async throws {
    let store = Store(state: Board(), environment: ())
    let recorder = try StoreRecorder(store, to: nil)
    store.send(.add("milk"))
    store.send(.add("eggs"))
    store.send(.card(id: 2, .toggle))
    store.send(.card(id: 1, .setText("oat milk")))
    await recorder.finish()
    let recording = recorder.recording

    #expect(recording.explain(RecordedProperty(owner: "Card#2", name: "done"))?.step.sequence == 3)
    #expect(recording.explain(RecordedProperty(owner: "Card#1", name: "text"))?.step.sequence == 4)
    // Card 2's text is the one it was made with in step 2: a new model has no changes.
    #expect(recording.explain(RecordedProperty(owner: "Card#2", name: "text")) == nil)
    #expect(recording.explain(RecordedProperty(owner: "Card#1", name: "done")) == nil)
    #expect(recording.explain(RecordedProperty(owner: "Card#9", name: "text")) == nil)
  }

  @Test func upToAStepLooksNoFurther() async throws {
    let store = Store(state: Board(), environment: ())
    let recorder = try StoreRecorder(store, to: nil)
    store.send(.rename("a"))
    store.send(.noop)
    store.send(.rename("b"))
    await recorder.finish()
    let title = RecordedProperty(owner: "Board#board", name: "title")
    #expect(recorder.recording.explain(title, upTo: 2)?.step.sequence == 1)
    #expect(recorder.recording.explain(title)?.step.sequence == 3)
    #expect(recorder.recording.explain(title, upTo: 0) == nil)

    let timeline = Timeline(recorder.recording, environment: ())
    timeline.jump(to: 2)
    #expect(timeline.explain(title)?.step.action == .rename("a"))
  }

  @Test func aChainStopsAtAnEffectStartedBeforeTheRecording() {
    let steps = [
      RecordedStep<Board.Action>(
        sequence: 1, action: .loaded(3), cause: .effect(startedBy: nil),
        changes: [RecordedProperty(owner: "Board#board", name: "total")])
    ]
    let why = ChangeExplanation(RecordedProperty(owner: "Board#board", name: "total"), in: steps)
    #expect(why?.chain.count == 1)
  }
}
