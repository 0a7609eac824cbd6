// expect: forward takes a route: declare it once
// The spelled-out `forward` (a key path and a tag) is gone: a port from an earlier version, or a
// habit from another library, gets the way to write it instead of a list of candidates.
import Arboreal

final class Child: ArborealModel {
  enum Action: Sendable { case tap }
  let registrar = TrackingRegistrar()
  func update(action: Action, environment: Void) -> Fx<Action> { .none }
}

final class Parent: ArborealModel {
  enum Action: Sendable { case child(Child.Action) }
  let registrar = TrackingRegistrar()
  @Tracked var child = Child()
  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .child(let action): forward(action, to: \.child, environment: (), tag: Action.child)
    }
  }
}
