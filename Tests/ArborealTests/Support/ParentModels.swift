import Arboreal

/// A child component: a counter with a title and an effect.
final class Child: ArborealModel, Identifiable {
  enum Action: Sendable, Equatable {
    case increment
    case rename(String)
    /// An effect that delivers `.rename(title)`.
    case renameLater(String)
  }

  let registrar = TrackingRegistrar()
  let id: Int
  @Tracked private(set) var count = 0
  @Tracked private(set) var title = ""

  init(id: Int = 0, count: Int = 0) {
    self.id = id
    self.count = count
  }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .increment:
      count += 1
      return .none
    case .rename(let title):
      self.title = title
      return .none
    case .renameLater(let title):
      return Fx { .rename(title) }
    }
  }
}

/// A parent holding one child, a replaceable slot, a keyed list of children and a log of the
/// child actions it saw.
final class Parent: ArborealModel {
  enum Action: Sendable, Equatable {
    case child(Child.Action)
    case replaceChild(count: Int)
    case row(id: Int, action: Child.Action)
    case addRow(id: Int)
    case removeRow(id: Int)
    case setName(String)
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var child = Child()
  @Tracked private(set) var rows: [Child] = []
  @Tracked private(set) var name = ""
  @Tracked private(set) var seen: [String] = []

  static let child = ChildRoute.child(\Parent.child, tag: Action.child)
  static let rows = ChildRoute.children(\Parent.rows, tag: Action.row)

  func row(id: Int) -> Child? { rows.first { $0.id == id } }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .child(let action):
      seen.append("child \(action)")
      return forward(action, to: Self.child, environment: ())
    case .replaceChild(let count):
      child = Child(count: count)
      return .none
    case .row(let id, let action):
      // An action for a row that is gone (queued before its removal) is ignored.
      guard let row = row(id: id) else { return .none }
      seen.append("row \(id) \(action)")
      return forward(action, to: Self.rows, id: row.id, environment: ())
    case .addRow(let id):
      rows.append(Child(id: id))
      return .none
    case .removeRow(let id):
      rows.removeAll { $0.id == id }
      return .none
    case .setName(let name):
      self.name = name
      return .none
    }
  }
}

/// Three levels: a grandparent holding a parent.
final class Grandparent: ArborealModel {
  enum Action: Sendable, Equatable {
    case parent(Parent.Action)
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var parent = Parent()

  static let parent = ChildRoute.child(\Grandparent.parent, tag: Action.parent)

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .parent(let action):
      return forward(action, to: Self.parent, environment: ())
    }
  }
}
