/// The actions of a navigation stack (a ``ModelStack``): an action of one screen, and popping.
///
/// A parent gives its stack one action case and forwards it in one line:
///
/// ```swift
/// enum Action: Sendable {
///   case path(StackAction<Screen.Action>)
/// }
///
/// case .path(let action):
///   return forward(action, to: Self.path, environment: environment)
/// ```
///
/// Pushing is the parent's own business (`path.push(Screen(...))` in response to one of its
/// actions): a model is not `Sendable`, so it cannot travel in an action.
public enum StackAction<Action: Sendable>: Sendable {
  /// An action of the screen with `id`.
  case element(id: StackElementID, action: Action)
  /// Pops the screen with `id` and every screen above it (a back button, a swipe).
  case popFrom(id: StackElementID)
}

extension StackAction: Equatable where Action: Equatable {}
extension StackAction: Hashable where Action: Hashable {}

/// Encoded as Swift encodes enumerations (`{"element":{"id":2,"action":…}}`,
/// `{"popFrom":{"id":2}}`), so that an app with a stack can be recorded and replayed.
extension StackAction: Codable where Action: Codable {}
