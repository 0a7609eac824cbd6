import ArborealTestSupport
import Synchronization
import Testing

@testable import Arboreal

/// The guarantee (Docs/Semantics.md, "The store"): effects run off the main actor and their actions
/// come back through `send` on the main actor, after the action that started them; and every form
/// of `Fx` delivers what it says.
@MainActor @Suite struct RunningEffectsTests {
  @Test func effectsRunOffTheMainActor() async {
    let store = Store(state: Script(), environment: ())
    let onMainActor = Log<Bool>()
    await store.send(
      .run(
        .merge(
          Fx {
            onMainActor.append(isOnMainActor())
            return .record("a")
          },
          .run { _ in onMainActor.append(isOnMainActor()) },
          .run { send in
            onMainActor.append(isOnMainActor())
            await send(.record("b"))
          }
        ))
    ).value
    #expect(onMainActor.all == [false, false, false])
  }

  @Test func anEffectRunsWhileTheMainActorIsBlocked() {
    // If effects needed the main actor, this effect could not run until the test returned,
    // and the bounded wait below would fail (it never hangs). The bound only ends a hung run:
    // 10 minutes, longer than the whole suite under a sanitizer with other processes on the
    // cores, since how soon the effect gets a thread depends on the load (it was 10 seconds).
    let store = Store(state: Script(), environment: ())
    let flag = Flag()
    store.send(.run(.run { _ in flag.set() }))
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(600)
    while !flag.isSet && clock.now < deadline {}
    #expect(flag.isSet)
  }

  @Test func effectActionsAreHandledOnTheMainActor() async {
    let store = Store(state: Script(), environment: ())
    await store.send(.run(Fx { .record("from effect") })).value
    #expect(store.state.log == ["from effect"])
    #expect(store.state.onMainActor == [true, true])
  }

  @Test func anEffectsActionArrivesAfterTheActionThatStartedIt() async {
    let store = Store(state: Script(), environment: ())
    let handle = store.send(.then("start", Fx { .record("effect") }))
    store.send(.record("sent right after"))
    await handle.value
    #expect(store.state.log == ["start", "sent right after", "effect"])
  }

  @Test func anEffectThatSendsManyActionsDeliversThemInOrder() async {
    let store = Store(state: Script(), environment: ())
    await store.send(
      .run(
        .run { send in
          for index in 1...5 { await send(.record("\(index)")) }
        })
    ).value
    #expect(store.state.log == ["1", "2", "3", "4", "5"])
  }

  @Test func anAsyncSequenceEffectDeliversEveryElementInOrder() async {
    let store = Store(state: Script(), environment: ())
    let (stream, continuation) = AsyncStream.makeStream(of: Script.Action.self)
    let handle = store.send(
      .run(
        .run { send in
          for await action in stream { await send(action) }
        }))
    for index in 1...3 { continuation.yield(.record("element \(index)")) }
    continuation.finish()
    await handle.value
    #expect(store.state.log == ["element 1", "element 2", "element 3"])
  }

  @Test func aThrowingAsyncSequenceEffectMapsTheErrorThatEndsIt() async {
    struct Broken: Error {}
    let store = Store(state: Script(), environment: ())
    let (stream, continuation) = AsyncThrowingStream.makeStream(of: Script.Action.self)
    let handle = store.send(
      .run(
        .run { send in
          for try await action in stream { await send(action) }
        } catch: { error, send in
          await send(.record("failed: \(error)"))
        }))
    continuation.yield(.record("one"))
    continuation.finish(throwing: Broken())
    await handle.value
    #expect(store.state.log == ["one", "failed: Broken()"])
  }

  @Test func aThrowingEffectMapsItsErrorToAnAction() async {
    struct Offline: Error {}
    let store = Store(state: Script(), environment: ())
    let succeed: @Sendable () async throws -> String = { "ok" }
    let fail: @Sendable () async throws -> String = { throw Offline() }
    await store.send(
      .run(
        Fx {
          .record(try await succeed())
        } catch: { _ in
          .record("unexpected")
        })
    ).value
    await store.send(
      .run(
        Fx {
          .record(try await fail())
        } catch: { error in
          .record("error: \(error)")
        })
    ).value
    #expect(store.state.log == ["ok", "error: Offline()"])
  }

  @Test func anEffectThatSendsNothingRunsAndSendsNothing() async {
    let store = Store(state: Script(), environment: ())
    let done = Log<String>()
    await store.send(.run(.run { _ in done.append("ran") })).value
    struct Ignored: Error {}
    await store.send(
      .run(
        .run { _ in
          throw Ignored()
        } catch: { _, _ in
        })
    ).value
    #expect(done.all == ["ran"])
    #expect(store.state.log.isEmpty)
    #expect(store.state.threads.count == 2)  // only the two sends were handled
  }

  @Test func mergedOperationsRunEachOfThem() async {
    let store = Store(state: Script(), environment: ())
    await store.send(.run(.merge(Fx { .record("a") }, Fx { .record("b") }, Fx { .record("c") })))
      .value
    #expect(store.state.log.sorted() == ["a", "b", "c"])
  }

  @Test func anEffectWorksOnTheValuesCopiedBeforeItWasBuilt() async {
    // The idiom: an effect cannot capture the model, so the update copies what it needs.
    let store = Store(state: Search(), environment: SearchService())
    let gate = Gate()
    let handle = store.send(.search(gate))
    store.send(.setQuery("changed meanwhile"))
    gate.open()
    await handle.value
    #expect(store.state.results == ["results for swift"])
  }
}

/// A flag an effect sets and the main actor polls without suspending.
final class Flag: Sendable {
  private let value = Atomic<Bool>(false)

  func set() { value.store(true, ordering: .releasing) }
  var isSet: Bool { value.load(ordering: .acquiring) }
}

/// A service that effects use through the environment.
struct SearchService: Sendable {
  func search(_ query: String) async -> [String] { ["results for \(query)"] }
}

/// A model whose effect needs a value from the model.
final class Search: ArborealModel {
  enum Action: Sendable {
    case setQuery(String)
    case search(Gate)
    case loaded([String])
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var query = "swift"
  @Tracked private(set) var results: [String] = []

  func update(action: Action, environment: SearchService) -> Fx<Action> {
    switch action {
    case .setQuery(let query):
      self.query = query
      return .none
    case .search(let gate):
      let query = self.query  // copy what the effect needs; never capture `self`
      return Fx {
        await gate.wait()
        return .loaded(await environment.search(query))
      }
    case .loaded(let results):
      self.results = results
      return .none
    }
  }

  @Test @MainActor func anEffectRunsAtThePriorityOfTheTaskThatSentItsAction() async {
    let store = Store(state: Script(), environment: ())
    let recordPriority = Script.Action.run(Fx { .record("\(Task.currentPriority)") })
    let sent = Gate()
    // Not awaited: awaiting the task from this one would raise its priority.
    Task(priority: .low) { @MainActor in
      store.send(recordPriority)
      sent.open()
    }
    await sent.wait()
    await store.finish()
    #expect(store.state.log == ["\(TaskPriority.low)"])
  }
}
