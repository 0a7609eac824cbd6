import Arboreal
import Synchronization

/// Counts the models alive that were made with it, from any thread (a model's `deinit` runs
/// on whichever thread released it).
final class Census: Sendable {
  private let count = Atomic(0)

  /// The models made with this census and not yet deinitialised.
  var live: Int { count.load(ordering: .acquiring) }

  func born() { count.add(1, ordering: .relaxed) }
  func died() { count.subtract(1, ordering: .releasing) }
}

/// A reference that does not keep its object alive, for checking that a release freed it.
struct Watched {
  weak var object: AnyObject?
  let name: String

  init(_ object: AnyObject, _ name: String) {
    self.object = object
    self.name = name
  }
}

/// A child whose `start` effect runs until it is cancelled.
final class Leaf: ArborealModel, Identifiable {
  /// What the effect waits on: a gate nobody opens, so that a cancelled effect leaves nothing
  /// behind (a long sleep would leave its timer booked).
  private static let closed = Gate()

  enum Action: Sendable, Equatable {
    case start
    case stopped
    case grow
    case close
  }

  let registrar = TrackingRegistrar()
  let id: Int
  private let census: Census
  @Tracked private(set) var size = 0

  init(id: Int, census: Census) {
    self.id = id
    self.census = census
    census.born()
  }

  deinit { census.died() }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .start:
      return Fx {
        try await Leaf.closed.waitCancellably()
        return .stopped
      } catch: { _ in
        .stopped
      }
    case .stopped:
      return .none
    case .grow:
      size += 1
      return .none
    case .close:
      return .dismiss
    }
  }
}

/// A parent with a child in every kind of place: one it always holds, an optional one, a
/// collection of identifiable ones, a presented one and a stack; and a derived value over
/// them.
final class Grove: ArborealModel {
  enum Action: Sendable, Equatable {
    case always(Leaf.Action)
    case optional(Leaf.Action)
    case row(id: Int, Leaf.Action)
    case sheet(PresentationAction<Leaf.Action>)
    case path(StackAction<Leaf.Action>)
    /// Fills every place but the always-held one, which is filled from the start.
    case plant
    /// Starts the effect of every child.
    case startAll
  }

  /// The identifiers of the rows `plant` makes.
  static let rowIDs = [2, 3, 4]

  static let always = ChildRoute.child(\Grove.always, tag: Action.always)
  static let optional = ChildRoute.child(\Grove.optional, tag: Action.optional)
  static let rows = ChildRoute.children(\Grove.rows, tag: Action.row)
  static let sheet = ChildRoute.child(\Grove.sheet, tag: Action.sheet)
  static let path = ChildRoute.stack(\Grove.path, tag: Action.path)

  let registrar = TrackingRegistrar()
  private let census: Census
  @Tracked private(set) var always: Leaf
  @Tracked private(set) var optional: Leaf?
  @Tracked private(set) var rows: [Leaf] = []
  @Tracked private(set) var sheet: Leaf?
  @Tracked private(set) var path = ModelStack<Leaf>()
  @Derived({ (grove: Grove) -> Int in grove.rows.count + grove.path.count }) var count: Int

  init(census: Census) {
    self.census = census
    always = Leaf(id: 0, census: census)
    census.born()
  }

  deinit { census.died() }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .always(let action):
      return forward(action, to: Self.always, environment: ())
    case .optional(let action):
      return forward(action, to: Self.optional, environment: ())
    case .row(let id, let action):
      return forward(action, to: Self.rows, id: id, environment: ())
    case .sheet(let action):
      return forward(action, to: Self.sheet, environment: ())
    case .path(let action):
      return forward(action, to: Self.path, environment: ())
    case .plant:
      optional = Leaf(id: 1, census: census)
      rows = Self.rowIDs.map { Leaf(id: $0, census: census) }
      path.push(Leaf(id: 6, census: census))
      return present(Leaf(id: 5, census: census), at: Self.sheet, environment: ())
    case .startAll:
      var started = [
        forward(.start, to: Self.always, environment: ()),
        forward(.start, to: Self.optional, environment: ()),
        forward(.presented(.start), to: Self.sheet, environment: ()),
      ]
      for id in Self.rowIDs {
        started.append(forward(.start, to: Self.rows, id: id, environment: ()))
      }
      if let id = path.elementIDs.first {
        started.append(forward(.element(id: id, action: .start), to: Self.path, environment: ()))
      }
      return .merge(started)
    }
  }
}
