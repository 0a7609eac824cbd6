/// An alert or a confirmation dialog as state: a title, a message and buttons that send
/// actions, with no UI framework in sight.
///
/// A parent holds it in an optional tracked property, whose presentation is its dismissal's
/// opposite; a command-line prompt, a test or a SwiftUI `.alert` modifier shows it, and sends
/// the action of the button chosen:
///
/// ```swift
/// enum Action: Sendable, Equatable {
///   case deleteTapped
///   case alert(PresentationAction<AlertAction>)
///   enum AlertAction: Sendable, Equatable { case confirmDelete }
/// }
///
/// @Tracked private(set) var alert: AlertState<Action.AlertAction>?
///
/// case .deleteTapped:
///   alert = AlertState(
///     title: "Delete this meeting?",
///     buttons: [
///       AlertButton("Delete", role: .destructive, action: .confirmDelete),
///       AlertButton("Cancel", role: .cancel),
///     ])
///   return .none
/// case .alert(.presented(.confirmDelete)):
///   alert = nil
///   return delete()
/// case .alert(.dismiss):
///   alert = nil
///   return .none
/// ```
///
/// Choosing a button sends `.presented(action)` for a button with an action and `.dismiss`
/// for one without (a cancel button); ``actions(for:)`` says which. It is `Equatable` when its
/// actions are, so a test store compares it as a whole.
public struct AlertState<Action: Sendable>: Sendable {
  /// Whether it is shown as an alert or as a confirmation dialog (a list of choices).
  public enum Style: Sendable, Hashable {
    /// A dialog that interrupts: a title, a message, a few buttons.
    case alert
    /// A list of choices about something the user just did.
    case confirmationDialog
  }

  /// The title.
  public var title: String
  /// The text under the title, if any.
  public var message: String?
  /// The buttons, in the order shown.
  public var buttons: [AlertButton<Action>]
  /// How it is shown.
  public var style: Style

  /// An alert or a confirmation dialog.
  ///
  /// - Parameters:
  ///   - title: The title.
  ///   - message: The text under the title, if any.
  ///   - buttons: The buttons, in the order shown; one "OK" button that dismisses when empty.
  ///   - style: How it is shown; an alert by default.
  public init(
    title: String, message: String? = nil, buttons: [AlertButton<Action>] = [],
    style: Style = .alert
  ) {
    self.title = title
    self.message = message
    self.buttons = buttons.isEmpty ? [AlertButton("OK", role: .cancel)] : buttons
    self.style = style
  }

  /// What choosing `button` sends to the presenting parent: `.presented(action)` for a button
  /// with an action, `.dismiss` for one without.
  ///
  /// ```swift
  /// store.send(.alert(alert.actions(for: alert.buttons[choice])))
  /// ```
  ///
  /// - Parameter button: One of ``buttons``.
  /// - Returns: The presentation action.
  public func actions(for button: AlertButton<Action>) -> PresentationAction<Action> {
    button.action.map { .presented($0) } ?? .dismiss
  }
}

extension AlertState: Equatable where Action: Equatable {}
extension AlertState: Hashable where Action: Hashable {}

// Declared in the same shape as `AlertState` (a nested kind, then plain documented
// properties): two value types alike by design, not code to share.

/// A button of an ``AlertState``: its title, its role and the action it sends.
public struct AlertButton<Action: Sendable>: Sendable {
  /// What a button is for, which a UI may show (a red destructive button, a bold cancel one).
  public enum Role: Sendable, Hashable {
    /// Destroys something: a delete.
    case destructive
    /// Dismisses without doing anything.
    case cancel
  }

  /// The title.
  public var title: String
  /// Its role, if any.
  public var role: Role?
  /// The action it sends, or nil for a button that only dismisses.
  public var action: Action?

  /// A button.
  ///
  /// - Parameters:
  ///   - title: The title.
  ///   - role: Its role, if any.
  ///   - action: The action it sends; nil for a button that only dismisses.
  public init(_ title: String, role: Role? = nil, action: Action? = nil) {
    self.title = title
    self.role = role
    self.action = action
  }
}

extension AlertButton: Equatable where Action: Equatable {}
extension AlertButton: Hashable where Action: Hashable {}
