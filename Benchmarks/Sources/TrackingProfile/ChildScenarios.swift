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

/// The same rows, whose effects the parent runs and cancels by hand, by the row's id: the
/// anchors of the two scenarios above.
final class ProfileTaggedRows: ArborealModel {
  enum Action: Sendable {
    case startAll
    case removeAll
    case push
    case start(id: Int)
    case pop
  }

  /// Identifies one row's effect among the parent's.
  struct RowEffectID: Hashable, Sendable { let id: Int }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var rows: [ProfileRow]
  private var nextID = 0

  init(count: Int) { rows = (0..<count).map(ProfileRow.init) }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .startAll:
      return .merge(rows.map { Self.rowEffect(id: $0.id) })
    case .removeAll:
      let ids = rows.map(\.id)
      rows.removeAll()
      return .merge(ids.map { .cancel(id: RowEffectID(id: $0)) })
    case .push:
      nextID += 1
      rows.append(ProfileRow(id: nextID))
      return .none
    case .start(let id):
      guard rows.last(where: { $0.id == id }) != nil else { return .none }
      return Self.rowEffect(id: id)
    case .pop:
      guard let row = rows.popLast() else { return .none }
      return .cancel(id: RowEffectID(id: row.id))
    }
  }

  private static func rowEffect(id: Int) -> Fx<Action> {
    Fx<Action>.run { _ in try? await Task.sleep(for: .seconds(3_600)) }
      .cancellable(id: RowEffectID(id: id))
  }
}

/// The anchors, by name.
let taggedChildScenarios: [String: @Sendable (Int) -> Void] = [
  "children/remove-with-effects-tagged": { count in
    MainActor.assumeIsolated {
      let store = Store(state: ProfileTaggedRows(count: count), environment: ())
      store.send(.startAll)
      store.send(.removeAll)
      precondition(store.state.rows.isEmpty)
    }
  },
  "children/push-pop-tagged": { count in
    MainActor.assumeIsolated {
      let store = Store(state: ProfileTaggedRows(count: 0), environment: ())
      for _ in 0..<count {
        store.send(.push)
        let id = store.state.rows[0].id
        store.send(.start(id: id))
        store.send(.pop)
      }
      precondition(store.state.rows.isEmpty)
    }
  },
]
