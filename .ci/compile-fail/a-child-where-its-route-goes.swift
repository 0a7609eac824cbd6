// expect: forward takes the child's route, not the child
// A route shares its property's name: in an update, `child` is the property. The compiler says
// what to write instead of "static member cannot be used on instance".
import Arboreal

final class Child: ArborealModel {
  enum Action: Sendable { case tap }
  let registrar = TrackingRegistrar()
  func update(action: Action, environment: Void) -> Fx<Action> { .none }
}

final class Parent: ArborealModel {
  enum Action: Sendable { case child(Child.Action) }
  static let child = ChildRoute.child(\Parent.child, tag: Action.child)
  let registrar = TrackingRegistrar()
  @Tracked var child = Child()
  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .child(let action): forward(action, to: child, environment: ())
    }
  }
}
