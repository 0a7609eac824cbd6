import Arboreal

// Children that come and go, for instruction counts (`remove-child-with-effects` and
// `push-pop` in TrackingBenchmarks, without package-benchmark): the effects never run (the
// main thread never yields), so what is counted is starting them, the children's lifetime
// bookkeeping and their cancellation.

/// A row or a screen whose one effect waits until it is cancelled.
final class ProfileRow: ArborealModel, Identifiable {
  enum Action: Sendable { case start }

  let registrar = TrackingRegistrar()
  let id: Int

  init(id: Int) { self.id = id }

  func update(action: Action, environment: Void) -> Fx<Action> {
    .run { _ in try? await Task.sleep(for: .seconds(3_600)) }
  }
}

/// Rows and a stack of screens, forwarded through routes.
final class ProfileRows: ArborealModel {
  enum Action: Sendable {
    case row(id: Int, ProfileRow.Action)
    case startAll
    case removeAll
    case path(StackAction<ProfileRow.Action>)
    case push
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var rows: [ProfileRow]
  @Tracked private(set) var path = ModelStack<ProfileRow>()

  static let rows = ChildRoute.children(\ProfileRows.rows, tag: Action.row)
  static let path = ChildRoute.stack(\ProfileRows.path, tag: Action.path)

  init(count: Int) { rows = (0..<count).map(ProfileRow.init) }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .row(let id, let action):
      return forward(action, to: Self.rows, id: id, environment: ())
    case .startAll:
      return .merge(rows.map { forward(.start, to: Self.rows, child: $0, environment: ()) })
    case .removeAll:
      rows.removeAll()
      return .none
    case .path(let action):
      return forward(action, to: Self.path, environment: ())
    case .push:
      path.push(ProfileRow(id: 0))
      return .none
    }
  }
}

/// The scenarios of children that come and go, by name.
let childScenarios: [String: @Sendable (Int) -> Void] = [
  "children/remove-with-effects": { count in
    MainActor.assumeIsolated {
      let store = Store(state: ProfileRows(count: count), environment: ())
      store.send(.startAll)
      store.send(.removeAll)
      precondition(store.state.rows.isEmpty)
    }
  },
  "children/push-pop": { count in
    MainActor.assumeIsolated {
      let store = Store(state: ProfileRows(count: 0), environment: ())
      for _ in 0..<count {
        store.send(.push)
        let id = store.state.path.id(at: 0)
        store.send(.path(.element(id: id, action: .start)))
        store.send(.path(.popFrom(id: id)))
      }
      precondition(store.state.path.isEmpty)
    }
  },
]
