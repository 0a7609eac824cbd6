import Testing

@testable import Arboreal

/// Effect queues: how many of a queue's effects run at once, and what happens to one more.
@Suite actor EffectQueueTests {
  /// An effect that waits for `gate`, then records `name`, in queue "q" with `policy`.
  private func job(_ name: String, _ gate: Gate, _ policy: EffectQueuePolicy) -> Script.Action {
    .run(
      Fx {
        await gate.wait()
        return .record(name)
      }
      .queue("q", policy))
  }

  @Test func newestCancelsTheOldestWhenFull() async {
    let store = Store(state: Script(), environment: ())
    let (a, b, c) = (Gate(), Gate(), Gate())
    store.send(job("a", a, .newest(2)))
    store.send(job("b", b, .newest(2)))
    store.send(job("c", c, .newest(2)))  // cancels "a"
    #expect(store.runningEffectCount == 2)
    for gate in [a, b, c] { gate.open() }
    await store.finish()
    #expect(store.state.log.sorted() == ["b", "c"])
  }

  @Test func oldestDropsWhatArrivesWhenFull() async {
    let store = Store(state: Script(), environment: ())
    let (a, b) = (Gate(), Gate())
    store.send(job("a", a, .oldest(1, whenFull: .drop)))
    let dropped = store.send(job("b", b, .oldest(1, whenFull: .drop)))
    #expect(dropped.isFinished)
    #expect(store.runningEffectCount == 1)
    a.open()
    b.open()
    await store.finish()
    #expect(store.state.log == ["a"])
  }

  @Test func oldestSuspendsWhatArrivesWhenFullAndStartsItInOrder() async {
    let store = Store(state: Script(), environment: ())
    let (a, b, c) = (Gate(), Gate(), Gate())
    let first = store.send(job("a", a, .oldest(1, whenFull: .suspend)))
    let second = store.send(job("b", b, .oldest(1, whenFull: .suspend)))
    let third = store.send(job("c", c, .oldest(1, whenFull: .suspend)))
    #expect(store.runningEffectCount == 1)
    #expect(!second.isFinished)  // its handle waits for the suspended effect
    c.open()
    b.open()
    a.open()  // the order the gates open in does not matter: one runs at a time
    await first.value
    await second.value
    await third.value
    #expect(store.state.log == ["a", "b", "c"])
  }

  @Test func cancellingASuspendedEffectTakesItOutOfTheQueue() async {
    let store = Store(state: Script(), environment: ())
    let (a, b, c) = (Gate(), Gate(), Gate())
    store.send(job("a", a, .oldest(1, whenFull: .suspend)))
    store.send(
      .run(
        Fx {
          await b.wait()
          return .record("b")
        }
        .queue("q", .oldest(1, whenFull: .suspend)).cancellable(id: "b")))
    let third = store.send(job("c", c, .oldest(1, whenFull: .suspend)))
    store.send(.run(.cancel(id: "b")))
    third.cancel()
    #expect(third.isFinished)
    for gate in [a, b, c] { gate.open() }
    await store.finish()
    #expect(store.state.log == ["a"])
  }

  @Test func siblingsQueuesAreTheirOwn() async {
    let store = Store(state: QueuedRows(), environment: ())
    let (a, b) = (Gate(), Gate())
    // The same queue identifier in two sibling rows: two queues.
    store.send(.row(id: 1, .start(a)))
    store.send(.row(id: 2, .start(b)))
    #expect(store.runningEffectCount == 2)
    a.open()
    b.open()
    await store.finish()
    #expect(store.state.rows.map(\.isFinished) == [true, true])
  }

  @Test func aRunningEffectNamesItsQueue() async {
    let store = Store(state: Script(), environment: ())
    let gate = Gate()
    store.send(job("a", gate, .newest(1)))
    #expect(store.runningEffectDescriptions.count == 1)
    #expect(
      store.runningEffectDescriptions.first?.hasSuffix("(cancellable by queue \"q\")") == true)
    gate.open()
    await store.finish()
    #expect(store.state.log == ["a"])
  }
}

/// A row whose effect runs in queue "q", one at a time, dropping one more.
private final class QueuedRow: ArborealModel, Identifiable {
  enum Action: Sendable {
    case start(Gate)
    case finished
  }

  let registrar = TrackingRegistrar()
  let id: Int
  @Tracked private(set) var isFinished = false

  init(id: Int) {
    self.id = id
  }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .start(let gate):
      return Fx {
        await gate.wait()
        return .finished
      }
      .queue("q", .oldest(1, whenFull: .drop))
    case .finished:
      isFinished = true
      return .none
    }
  }
}

/// Two rows forwarded to by id.
private final class QueuedRows: ArborealModel {
  enum Action: Sendable {
    case row(id: Int, QueuedRow.Action)
  }

  let registrar = TrackingRegistrar()
  let rows = [QueuedRow(id: 1), QueuedRow(id: 2)]

  static let rows = ChildRoute.children(\QueuedRows.rows, tag: Action.row)

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .row(let id, let action):
      return forward(action, to: Self.rows, id: id, environment: ())
    }
  }
}
