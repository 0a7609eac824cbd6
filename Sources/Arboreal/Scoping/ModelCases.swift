import Synchronization

/// An enumeration whose cases hold what a model presents or pushes (child models, alerts,
/// confirmation dialogs), each case's route declared once, in ``cases``.
///
/// A parent holds one optional value of it (everything a screen can present, of which one
/// shows at a time) or a ``ModelStack`` of it (a stack of several kinds of screen), and
/// forwards its actions in one line:
///
/// ```swift
/// enum Destination: ModelCases {
///   case editor(Editor)
///   case alert(AlertState<AlertAction>)
///
///   enum Action: Sendable, Equatable {
///     case editor(Editor.Action)
///     case alert(AlertAction)
///   }
///   enum AlertAction: Sendable, Equatable { case confirmDelete }
///
///   static let cases: [CaseRoute<Destination>] = [
///     .model(Destination.editor, action: Action.editor),
///     .alert(Destination.alert, action: Action.alert),
///   ]
/// }
///
/// @Tracked private(set) var destination: Destination?
///
/// case .destination(let action):
///   return forward(action, to: \.destination, environment: (), tag: Action.destination)
/// ```
///
/// A route pairs a case of the enumeration with the case of ``Action`` that carries its
/// actions; a pair whose types disagree (an editor's case with an alert's actions) does not
/// compile. The cases are found by reflection (`Mirror`): the enumeration must not customise
/// its reflection (`CustomReflectable`), and each case holds one value.
public protocol ModelCases: StackScreen {
  /// The actions of every case, one case each: `.editor(Editor.Action)`.
  associatedtype Action: Sendable
  /// The services the cases' models need, handed to `forward`; `Void` by default. A case
  /// whose model needs other services says how to get them from these (see
  /// ``CaseRoute/model(_:action:environment:)``).
  associatedtype Environment: Sendable = Void

  /// One route per case: how to find its child and how its actions embed.
  static var cases: [CaseRoute<Self>] { get }
}

extension ModelCases {
  /// The value this case holds when `self` is that case, nil when it is another.
  ///
  /// ```swift
  /// if let editor = model.destination?[case: Destination.editor] { … }
  /// ```
  ///
  /// - Parameter embed: The case: `Destination.editor`.
  /// - Returns: Its value, or nil.
  /// - Complexity: Two reflections of the value (`Mirror`).
  public subscript<Value>(case embed: (Value) -> Self) -> Value? {
    CasePayload.extract(self, embed: embed)
  }
}

/// The route of one case of a ``ModelCases`` enumeration: a child model's, or an alert's.
///
/// Build it with ``model(_:action:)``, ``model(_:action:environment:)`` or
/// ``alert(_:action:)``, in the enumeration's ``ModelCases/cases``.
public struct CaseRoute<Cases: ModelCases>: Sendable {
  let route: any CaseRouting<Cases>

  /// A case that holds a child model whose services are the enumeration's.
  ///
  /// ```swift
  /// .model(Destination.editor, action: Action.editor)
  /// ```
  ///
  /// - Parameters:
  ///   - embed: The case that holds the child: `Destination.editor`.
  ///   - action: The case of ``ModelCases/Action`` that carries its actions: `Action.editor`.
  /// - Returns: The route.
  public static func model<Child: ArborealModel>(
    _ embed: @escaping @Sendable (Child) -> Cases,
    action: @escaping @Sendable (Child.Action) -> Cases.Action
  ) -> CaseRoute where Child.Environment == Cases.Environment {
    CaseRoute(route: ModelCaseRoute(embed: embed, embedAction: action, environment: { $0 }))
  }

  /// A case that holds a child model, with how to get its services from the enumeration's.
  ///
  /// ```swift
  /// .model(Path.record, action: Action.record, environment: \.recording)
  /// .model(Path.detail, action: Action.detail, environment: { _ in })
  /// ```
  ///
  /// - Parameters:
  ///   - embed: The case that holds the child.
  ///   - action: The case of ``ModelCases/Action`` that carries its actions.
  ///   - environment: The child's services, from the enumeration's.
  /// - Returns: The route.
  public static func model<Child: ArborealModel>(
    _ embed: @escaping @Sendable (Child) -> Cases,
    action: @escaping @Sendable (Child.Action) -> Cases.Action,
    environment: @escaping @Sendable (Cases.Environment) -> Child.Environment
  ) -> CaseRoute {
    CaseRoute(route: ModelCaseRoute(embed: embed, embedAction: action, environment: environment))
  }

  /// A case that holds an alert or a confirmation dialog: any of its actions closes it (the
  /// parent's `forward` sets the destination to nil), and reaches the parent's update as
  /// `.presented(.alert(action))` for the parent to act on.
  ///
  /// ```swift
  /// .alert(Destination.alert, action: Action.alert)
  /// ```
  ///
  /// - Parameters:
  ///   - embed: The case that holds the alert.
  ///   - action: The case of ``ModelCases/Action`` that carries its buttons' actions.
  /// - Returns: The route.
  public static func alert<AlertAction: Sendable>(
    _ embed: @escaping @Sendable (AlertState<AlertAction>) -> Cases,
    action: @escaping @Sendable (AlertAction) -> Cases.Action
  ) -> CaseRoute {
    CaseRoute(route: AlertCaseRoute(embed: embed, embedAction: action))
  }
}

extension ModelCases {
  /// How to embed the actions of the model `value` holds, when ``cases`` routes its case as a
  /// `Child`; nil when it lists no such route.
  static func embedding<Child: ArborealModel>(
    actionsOf child: Child.Type, heldIn value: Self
  ) -> (@Sendable (Child.Action) -> Action)? {
    for route in cases {
      if let route = route.route as? ModelCaseRoute<Self, Child>, route.child(in: value) != nil {
        return route.embedAction
      }
    }
    return nil
  }

  /// The model this case holds, for the presence of a route's children.
  var heldObject: AnyObject? {
    guard let (_, payload) = CasePayload.split(self), type(of: payload) is AnyObject.Type else {
      return nil
    }
    return payload as AnyObject
  }
}

extension PresentationAction {
  /// The same presentation action, its presented action transformed: to send an alert's
  /// button as the action of an enumeration of destinations.
  ///
  /// ```swift
  /// store.send(.destination(alert.actions(for: button).map(Destination.Action.alert)))
  /// ```
  ///
  /// - Parameter transform: Makes the new presented action.
  /// - Returns: `.presented(transform(action))`, or `.dismiss`.
  public func map<Other: Sendable>(_ transform: (Action) -> Other) -> PresentationAction<Other> {
    switch self {
    case .presented(let action): .presented(transform(action))
    case .dismiss: .dismiss
    }
  }
}

/// The payload of an enumeration's case, by reflection: what saves writing a case accessor
/// for each case.
enum CasePayload {
  /// The case's name and its value, or nil for a case without one.
  static func split<Enum>(_ value: Enum) -> (label: String?, payload: Any)? {
    Mirror(reflecting: value).children.first.map { ($0.label, $0.value) }
  }

  /// The value of `value`'s case when that case is `embed`, nil otherwise: the payload has
  /// the case's type, and embedding it again gives the same case.
  static func extract<Enum, Payload>(_ value: Enum, embed: (Payload) -> Enum) -> Payload? {
    guard let (label, payload) = split(value) else { return nil }
    return cast(payload, label: label, embed: embed)
  }

  /// `payload`, found under the case `label`, as the value of the case `embed`, or nil when
  /// it is another case's.
  static func cast<Enum, Payload>(
    _ payload: Any, label: String?, embed: (Payload) -> Enum
  ) -> Payload? {
    guard let typed = payload as? Payload, split(embed(typed))?.label == label else {
      return nil
    }
    return typed
  }

  /// ``cast(_:label:embed:)`` that learns the name of the case `embed` makes once, in `name`,
  /// and compares names afterwards: a reflection less per call.
  static func cast<Enum, Payload>(
    _ payload: Any, label: String?, embed: (Payload) -> Enum, name: CaseName
  ) -> Payload? {
    guard let typed = payload as? Payload else { return nil }
    if let known = name.value { return known == label ? typed : nil }
    guard let embedded = split(embed(typed))?.label else { return nil }
    name.value = embedded
    return embedded == label ? typed : nil
  }

  /// ``extract(_:embed:)`` with the name of the case `embed` learnt once, in `name`.
  static func extract<Enum, Payload>(
    _ value: Enum, embed: (Payload) -> Enum, name: CaseName
  ) -> Payload? {
    guard let (label, payload) = split(value) else { return nil }
    return cast(payload, label: label, embed: embed, name: name)
  }
}

/// The name of one case of an enumeration, learnt the first time a value of it is embedded.
/// Once set it never changes (a case's name is fixed), so a racing second write stores the
/// same name.
final class CaseName: Sendable {
  private let lock = Locked<String?>.make(nil)

  /// The name, once learnt.
  var value: String? {
    get { lock.withLock { $0 } }
    set { lock.withLock { $0 = newValue } }
  }
}
