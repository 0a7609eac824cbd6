import Arboreal
import ArborealTestSupport
import Foundation
import Testing

/// Property-based determinism: random action sequences (plain changes, re-entrant sends from an
/// update and from an observer, effects returning actions, effects sending several actions,
/// cancellation by id, cancel-in-flight), each run twice on fresh stores with effects that
/// complete in an order the test chooses, must give the same final state, the same
/// notification log and the same store log.
///
/// Scale: `ARBOREAL_PROPERTY_SCALE` (default 1) multiplies the number of sequences (200 at 1).
/// `ARBOREAL_PROPERTY_SEED` replays one sequence: a failure prints its seed.
@Suite struct DeterminismTests {
  static let baseSequences = 200

  static var scale: Int {
    ProcessInfo.processInfo.environment["ARBOREAL_PROPERTY_SCALE"].flatMap(Int.init).map {
      max($0, 1)
    } ?? 1
  }

  static var seeds: [UInt64] {
    if let text = ProcessInfo.processInfo.environment["ARBOREAL_PROPERTY_SEED"],
      let seed = UInt64(text)
    {
      return [seed]
    }
    var generator = SeededRandom(seed: 0xA7B0_2EA1)
    return (0..<(baseSequences * scale)).map { _ in generator.next() }
  }

  /// With an observer registered nonisolated (delivered synchronously on the mutating thread,
  /// always the main actor's here), everything must be identical.
  @MainActor
  @Test(.enabled(if: reliabilitySuiteEnabled))
  func theSameActionsGiveTheSameStateAndNotifications() async {
    var failures = 0
    for seed in Self.seeds {
      let script = DeterminismScript.random(seed: seed)
      let first = await script.run(observer: .nonisolated)
      let second = await script.run(observer: .nonisolated)
      #expect(first.pendingEffects == 0, "seed \(seed): effects left running")
      if first != second {
        Issue.record(
          "seed \(seed) diverged (replay with ARBOREAL_PROPERTY_SEED=\(seed)):\nfirst: \(first)\nsecond: \(second)"
        )
        failures += 1
        if failures > 3 { break }
      }
    }
  }

  /// The same with the observer on the main actor, as an app registers it: its runs happen
  /// synchronously after each action even when the main actor's jobs run on a thread other
  /// than the process's main thread (as under `swift test` on Linux).
  @MainActor
  @Test(.enabled(if: reliabilitySuiteEnabled))
  func aMainActorObserverSeesTheSameNotifications() async {
    var stateFailures = 0
    var notificationFailures: [UInt64] = []
    for seed in Self.seeds {
      let script = DeterminismScript.random(seed: seed)
      let first = await script.run(observer: .mainActor)
      let second = await script.run(observer: .mainActor)
      if first.state != second.state {
        Issue.record(
          "seed \(seed): state or store log diverged (ARBOREAL_PROPERTY_SEED=\(seed)):\nfirst: \(first)\nsecond: \(second)"
        )
        stateFailures += 1
        if stateFailures > 3 { break }
      } else if first.notifications != second.notifications {
        notificationFailures.append(seed)
      }
    }
    #expect(
      notificationFailures.isEmpty,
      "notification logs diverged for seeds \(notificationFailures.prefix(10))")
  }

  @MainActor
  @Test func theGeneratorCoversEveryKindOfStep() {
    var kinds = Set<String>()
    for seed in Self.seeds.prefix(50) {
      for step in DeterminismScript.random(seed: seed).steps {
        kinds.insert(step.kind)
      }
    }
    #expect(kinds == Set(DeterminismScript.Step.allKinds))
  }

  @MainActor
  @Test func theGeneratorIsSeeded() {
    var a = SeededRandom(seed: 42)
    var b = SeededRandom(seed: 42)
    let first = (0..<8).map { _ in a.next() }
    #expect(first == (0..<8).map { _ in b.next() })
    #expect(Set(first).count == 8)
  }
}

// MARK: - The model

/// A model whose actions exercise every path of the store that can affect ordering.
final class Ledger: ArborealModel {
  enum Action: Sendable, Equatable {
    /// Adds to `total`.
    case add(Int)
    /// Appends to `entries`.
    case note(String)
    /// Sends `.note` (queued) from inside the update, then adds.
    case reenter(Int)
    /// Sets `trigger`: the test's observer sends `.note("observer …")` when it changes.
    case trigger(Int)
    /// Starts an effect that waits for gate `gate`, then returns `.arrived(gate)`.
    case spawn(gate: Int, id: Int, cancelInFlight: Bool)
    /// Starts an effect that sends several actions at once.
    case immediate(Int)
    /// Cancels the effects with `id`.
    case cancel(id: Int)
    /// An effect's result.
    case arrived(Int)
  }

  struct Environment: Sendable {
    let gates: GateBank
    let sender: ReentrySender
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var total = 0
  @Tracked private(set) var entries: [String] = []
  @Tracked private(set) var trigger = 0

  func update(action: Action, environment: Environment) -> Fx<Action> {
    switch action {
    case .add(let value):
      total += value
      return .none
    case .note(let text):
      entries.append(text)
      return .none
    case .reenter(let value):
      environment.sender.send(.note("reentered \(value)"))
      total += value
      environment.sender.send(.add(-1))
      return .none
    case .trigger(let value):
      trigger = value
      return .none
    case .spawn(let gate, let id, let cancelInFlight):
      entries.append("spawn \(gate)")
      let gates = environment.gates
      return Fx {
        try await gates[gate].waitCancellably()
        return .arrived(gate)
      } catch: { _ in
        .note("cancelled \(gate) delivered")  // never: a cancelled effect delivers nothing
      }
      .cancellable(id: id, cancelInFlight: cancelInFlight)
    case .immediate(let value):
      // One effect sending several actions: they arrive in the order it sends them. (Two
      // effects of one action run concurrently and deliver in whichever order they finish,
      // which the test does not control, so they are not used here.)
      return .run { send in
        await send(.add(value))
        await send(.note("stream \(value) a"))
        await send(.note("stream \(value) b"))
      }
    case .cancel(let id):
      entries.append("cancel \(id)")
      return .cancel(id: id)
    case .arrived(let gate):
      entries.append("arrived \(gate)")
      total += gate
      // An effect's action that starts an effect of its own, which completes by itself.
      return gate % 3 == 0 ? Fx { .note("after \(gate)") } : .none
    }
  }
}

/// Gates shared by the effects of one run.
final class GateBank: Sendable {
  private let gates: [Gate]

  init(count: Int) { gates = (0..<count).map { _ in Gate() } }

  subscript(index: Int) -> Gate { gates[index] }
}

/// Lets an update (or an observer) send an action back into its own store.
///
/// Invariant (why `@unchecked Sendable` holds): set and used only in the store's isolation (the
/// tests' main actor), from its update or its observers.
final class ReentrySender: @unchecked Sendable {
  weak var store: Store<Ledger>?

  nonisolated init() {}

  func send(_ action: Ledger.Action) {
    store?.send(action)
  }
}

// MARK: - The script

/// A random sequence of steps, run on a fresh store each time.
struct DeterminismScript {
  enum Step: CustomStringConvertible {
    /// Sends an action; waits for its effects only if they complete by themselves.
    case send(Ledger.Action)
    /// Opens the gate of the `index`th spawned effect and waits for that send's effects.
    case complete(spawn: Int)

    static let allKinds = [
      "add", "note", "reenter", "trigger", "spawn", "immediate", "cancel", "complete",
    ]

    var kind: String {
      switch self {
      case .complete: "complete"
      case .send(let action):
        switch action {
        case .add: "add"
        case .note: "note"
        case .reenter: "reenter"
        case .trigger: "trigger"
        case .spawn: "spawn"
        case .immediate: "immediate"
        case .cancel: "cancel"
        case .arrived: "arrived"
        }
      }
    }

    var description: String {
      switch self {
      case .send(let action): "send(\(action))"
      case .complete(let index): "complete(\(index))"
      }
    }
  }

  var steps: [Step]
  var gateCount: Int

  static func random(seed: UInt64) -> DeterminismScript {
    var random = SeededRandom(seed: seed)
    var steps: [Step] = []
    var spawned = 0
    var open: [Int] = []
    for _ in 0..<(10 + random.next(below: 40)) {
      switch random.next(below: 9) {
      case 0: steps.append(.send(.add(random.next(below: 100) - 50)))
      case 1: steps.append(.send(.note("n\(random.next(below: 1000))")))
      case 2: steps.append(.send(.reenter(random.next(below: 10))))
      case 3: steps.append(.send(.trigger(random.next(below: 4))))
      case 4, 5:
        steps.append(
          .send(
            .spawn(
              gate: spawned, id: random.next(below: 3), cancelInFlight: random.next(below: 3) == 0))
        )
        open.append(spawned)
        spawned += 1
      case 6: steps.append(.send(.immediate(random.next(below: 10))))
      case 7: steps.append(.send(.cancel(id: random.next(below: 3))))
      default:
        if !open.isEmpty {
          steps.append(.complete(spawn: open.remove(at: random.next(below: open.count))))
        }
      }
    }
    // Complete the rest in a random order.
    while !open.isEmpty {
      steps.append(.complete(spawn: open.remove(at: random.next(below: open.count))))
    }
    return DeterminismScript(steps: steps, gateCount: spawned)
  }

  /// What one run observed.
  struct Outcome: Equatable, CustomStringConvertible {
    var total: Int
    var entries: [String]
    var trigger: Int
    var notifications: [String]
    var storeLog: [String]
    var pendingEffects: Int

    /// Everything but the notifications.
    var state: [String] {
      ["\(total)", "\(trigger)", "\(pendingEffects)"] + entries + ["--"] + storeLog
    }

    var description: String {
      "total \(total), trigger \(trigger), pending \(pendingEffects)\n  entries \(entries)\n"
        + "  notifications \(notifications)\n  log \(storeLog)"
    }
  }

  enum ObserverMode {
    case mainActor
    case nonisolated
  }

  /// The observer's record; main-actor state that a nonisolated observer reaches through
  /// `MainActor.assumeIsolated` (it runs on the mutating thread, the main actor's).
  @MainActor
  final class Recorder {
    var notifications: [String] = []
    var lastTrigger = 0

    func record(_ changes: TrackingChanges, model: Ledger, store: Store<Ledger>) {
      notifications.append("\(model.total) \(model.entries.count) \(model.trigger) [\(changes)]")
      if model.trigger != lastTrigger {
        lastTrigger = model.trigger
        // A re-entrant send from an observer: queued behind the current action.
        store.send(.note("observer \(model.trigger)"))
      }
    }
  }

  @MainActor
  func run(observer mode: ObserverMode) async -> Outcome {
    let gates = GateBank(count: gateCount)
    let sender = ReentrySender()
    let store = Store(state: Ledger(), environment: .init(gates: gates, sender: sender))
    sender.store = store
    var storeLog: [String] = []
    // Property names without owners: the two runs being compared use different model
    // instances, which the owners' serial numbers tell apart.
    store.addLogHandler { entry in storeLog.append("\(entry.action) → \(entry.changes)") }
    let model = store.state
    let recorder = Recorder()
    let token: TrackingToken
    switch mode {
    case .mainActor:
      token = observe { changes in recorder.record(changes, model: model, store: store) }
    case .nonisolated:
      token = observe(isolation: nil) { changes in
        MainActor.assumeIsolated { recorder.record(changes, model: model, store: store) }
      }
    }
    var handles: [Int: SendHandle] = [:]
    for step in steps {
      switch step {
      case .send(let action):
        let handle = store.send(action)
        if case .spawn(let gate, _, _) = action {
          handles[gate] = handle
        } else {
          await handle.value
        }
      case .complete(let index):
        gates[index].open()
        await handles[index]?.value
      }
    }
    token.cancel()
    return Outcome(
      total: model.total, entries: model.entries, trigger: model.trigger,
      notifications: recorder.notifications, storeLog: storeLog,
      pendingEffects: handles.values.filter { !$0.isFinished }.count)
  }
}
