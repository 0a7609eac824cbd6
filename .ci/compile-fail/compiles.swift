// expect: nothing: this file compiles
// What the files beside it reject, written as it should be: each store stays in its isolation.
import Arboreal
import ArborealPersistence

final class Counter: ReplayableModel {
  enum Action: Sendable { case increment }
  let registrar = TrackingRegistrar()
  @Tracked private(set) var count = 0
  init() {}
  init(snapshot: Int) { count = snapshot }
  var snapshot: Int { count }
  func update(action: Action, environment: Void) -> Fx<Action> {
    count += 1
    return .none
  }
}

actor Session {
  let store: Store<Counter>
  init() async { store = Store(state: Counter(), environment: ()) }
  func increment() async -> Int {
    await store.send(.increment).value
    return store.state.count
  }
}

@MainActor func onTheMainActor() async -> Int {
  let store = Store(state: Counter(), environment: ())
  let handle = store.send(.increment)
  await Task { await handle.value }.value
  return store.state.count + (await Session().increment())
}

/// A persister made and finished in an actor's method, beside its store.
actor SavedSession {
  func run(_ file: PersistedFile<Counter>) async throws -> Int {
    let store = Store(state: Counter(), environment: ())
    let persister = try StorePersister(store, to: file)
    store.send(.increment)
    await persister.finish()
    return store.state.count
  }
}

/// An enumeration of destinations whose two switches cover every case, each case with its own
/// model's actions (what `a-case-without-its-line.swift` and
/// `a-case-paired-with-another-models-actions.swift` get wrong).
enum Destination: ModelCases {
  case counter(Counter)
  case other(Counter)
  case loading

  enum Action: Sendable {
    case counter(Counter.Action)
    case other(Counter.Action)
  }

  var child: CaseChild<Destination> {
    switch self {
    case .counter(let counter): .model(counter, action: Action.counter)
    case .other(let counter): .model(counter, action: Action.other)
    case .loading: .none
    }
  }

  static func child(of action: Action) -> CaseAction<Destination> {
    switch action {
    case .counter(let action): .model(action, in: Destination.counter)
    case .other(let action): .model(action, in: Destination.other)
    }
  }
}

/// A parent that forwards through its child's route (what `a-child-where-its-route-goes.swift`
/// gets wrong).
final class Parent: ArborealModel {
  enum Action: Sendable { case counter(Counter.Action) }
  static let counter = ChildRoute.child(\Parent.counter, tag: Action.counter)
  let registrar = TrackingRegistrar()
  @Tracked var counter = Counter()
  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .counter(let action): forward(action, to: Self.counter, environment: ())
    }
  }
}

struct Services: Sendable { var name = "" }

/// A model with services of its own, and an enumeration whose case maps them (what
/// `a-case-whose-model-needs-other-services.swift` gets wrong).
final class Recorder: ArborealModel {
  enum Action: Sendable { case tick }
  let registrar = TrackingRegistrar()
  func update(action: Action, environment: Services) -> Fx<Action> { .none }
}

enum Path: ModelCases {
  case record(Recorder)
  enum Action: Sendable { case record(Recorder.Action) }

  var child: CaseChild<Path> {
    switch self {
    case .record(let record): .model(record, action: Action.record, environment: { _ in Services() })
    }
  }

  static func child(of action: Action) -> CaseAction<Path> {
    switch action {
    case .record(let action): .model(action, in: Path.record)
    }
  }
}
