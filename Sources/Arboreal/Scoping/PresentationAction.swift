/// The actions of a presented child (a sheet, an editor, an alert): the child's own actions,
/// and its dismissal.
///
/// A parent holds the child in an optional tracked property and gives it one action case:
///
/// ```swift
/// enum Action: Sendable {
///   case editor(PresentationAction<Editor.Action>)
///   case editTapped
/// }
///
/// case .editTapped:
///   editor = Editor(title: title)
///   return .none
/// case .editor(let action):
///   return forward(action, to: Self.editor, environment: environment)
/// ```
///
/// `forward(_:to:environment:)` (a method of ``ArborealModel``), given a presentation action,
/// sends ``presented(_:)`` actions to the child, and handles ``dismiss`` by setting the
/// property to nil, which ends the child's effects. The child asks to be dismissed by returning
/// ``Fx/dismiss``. An ``AlertState``, a value and not a model, has a route of its own,
/// ``ChildRoute/alert(_:tag:)``, whose `forward` closes it on any button.
public enum PresentationAction<Action: Sendable>: Sendable {
  /// An action of the presented child.
  case presented(Action)
  /// Dismiss the child: the parent sets it to nil.
  case dismiss
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}

/// Encoded as Swift encodes enumerations (`{"presented":{"_0":…}}`, `{"dismiss":{}}`), so that
/// an app with a presented child can be recorded and replayed.
extension PresentationAction: Codable where Action: Codable {}
