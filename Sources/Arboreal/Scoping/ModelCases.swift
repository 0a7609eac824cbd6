/// An enumeration whose cases hold what a model presents or pushes (child models, alerts,
/// confirmation dialogs).
///
/// A parent holds one optional value of it (everything a screen can present, of which one
/// shows at a time) or a ``ModelStack`` of it (a stack of several kinds of screen), and
/// forwards its actions in one line. The enumeration says, in two switches of one line per
/// case, what each case holds and which case each action is for:
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
///   var child: CaseChild<Self> {
///     switch self {
///     case .editor(let editor): .model(editor, action: Action.editor)
///     case .alert(let alert): .alert(alert, action: Action.alert)
///     }
///   }
///
///   static func child(of action: Action) -> CaseAction<Self> {
///     switch action {
///     case .editor(let action): .model(action, in: Destination.editor)
///     case .alert(let action): .alert(action, in: Destination.alert)
///     }
///   }
/// }
///
/// @Tracked private(set) var destination: Destination?
///
/// case .destination(let action):
///   return forward(action, to: Self.destination, environment: ())
/// ```
///
/// The compiler checks what the lines say: both switches cover every case (a case added
/// without its lines does not compile, in any build), a model's case pairs with its model's
/// actions and a case's action with the same model's case (an editor's case with an alert's
/// actions does not compile), and a case with several payloads names the one that is its
/// model (`case .detail(let detail, _): .model(detail, action: Action.detail)`). A case that
/// holds no model says `.none`.
///
/// Nothing is found by reflection on the way of an action: a forward runs the two switches,
/// compares the cases' kinds, and checks that the action's case is the case held by putting
/// the child's action in the held case's action and asking which line of ``child(of:)``
/// answers (so that two cases holding the same type of model are never confused). Leave the
/// `line` and `column` arguments of the factories to their defaults: they tell the lines
/// apart.
public protocol ModelCases: StackScreen {
  /// The actions of every case, one case each: `.editor(Editor.Action)`.
  associatedtype Action: Sendable
  /// The services the cases' models need, handed to `forward`; `Void` by default. A case
  /// whose model needs other services says how to get them from these (see
  /// ``CaseChild/model(_:action:environment:line:column:)``).
  associatedtype Environment: Sendable = Void

  /// What this value holds, one line per case: `.model(editor, action: Action.editor)`,
  /// `.alert(alert, action: Action.alert)`, or `.none`.
  var child: CaseChild<Self> { get }

  /// Which case `action` is for, one line per case: `.model(action, in: Destination.editor)`
  /// or `.alert(action, in: Destination.alert)`.
  ///
  /// - Parameter action: An action of the cases.
  /// - Returns: The child's action and its case.
  static func child(of action: Action) -> CaseAction<Self>
}

extension ModelCases {
  /// The value this case holds when `self` is that case, nil when it is another.
  ///
  /// ```swift
  /// if let editor = model.destination?[case: Destination.editor] { … }
  /// ```
  ///
  /// - Parameter embed: The case: `Destination.editor`.
  /// - Returns: Its model or alert, or nil.
  /// - Complexity: O(1): two runs of ``child``, no reflection.
  public subscript<Value>(case embed: (Value) -> Self) -> Value? {
    let held = child
    let payload: Any? = held.object ?? held.payload
    guard let value = payload as? Value, embed(value).child.site == held.site else {
      return nil
    }
    return value
  }

  /// The model this case holds, if any.
  var heldObject: AnyObject? { child.object }

  /// Whether `other` is the same case as `self`, holding the same model instance: a stack's
  /// screen written again is no change.
  func isSameCase(as other: Any) -> Bool {
    guard let other = other as? Self else { return false }
    let (lhs, rhs) = (child, other.child)
    guard let object = lhs.object else { return false }
    return lhs.site == rhs.site && object === rhs.object
  }

  /// The name of this value's case (`editor`), for places: read by reflection, never on the
  /// way of an action.
  var caseName: String {
    Mirror(reflecting: self).children.first?.label ?? "\(self)"
  }

  /// How to embed the actions of the model `value` holds, when it is a `Child`; nil
  /// otherwise.
  static func embedding<Child: ArborealModel>(
    actionsOf child: Child.Type, heldIn value: Self
  ) -> (@Sendable (Child.Action) -> Action)? {
    let held = value.child
    guard held.object is Child else { return nil }
    return held.embed as? @Sendable (Child.Action) -> Action
  }
}

/// Where a line of a ``ModelCases/child`` or ``ModelCases/child(of:)`` switch is: what tells
/// two cases apart.
@usableFromInline
struct CaseSite: Equatable {
  @usableFromInline let line: UInt
  @usableFromInline let column: UInt

  @inlinable
  init(line: UInt, column: UInt) {
    self.line = line
    self.column = column
  }
}

/// What a case of a ``ModelCases`` enumeration holds: a child model, an alert, or nothing.
///
/// Made by the enumeration's ``ModelCases/child`` switch, one line per case, and read by the
/// parent's `forward`, view stores, cancellations and the store's following of routes.
public struct CaseChild<Cases: ModelCases> {
  /// How this kind of case is handled (``CaseKind`` itself for a case that holds nothing).
  @usableFromInline let kind: CaseKind.Type
  /// The alert of a case that holds one; the services' mapping (`(Cases.Environment) ->
  /// Child.Environment`) of a case whose model has other services than the cases'; nil
  /// otherwise. One field for both, so that the value stays small: it is made twice per
  /// forwarded action.
  @usableFromInline let extra: Any?
  /// The model, when the case holds one.
  @usableFromInline let object: AnyObject?
  /// Embeds the child's actions in the cases' (`(Child.Action) -> Cases.Action`).
  @usableFromInline let embed: Any
  /// The line of the switch that made it.
  @usableFromInline let site: CaseSite
  /// Sends a ``CaseAction`` of this kind to the model held, when the action's case is this
  /// one. Made in the factories, which are inlined where the enumeration is compiled: there
  /// its types are known and what it captures (the case's action, a constant) is folded in,
  /// so making a `CaseChild` allocates nothing in an optimised build, and a forward that the
  /// child answers with no effect runs specialised code only, with one cast (the action out
  /// of its box).
  @usableFromInline let deliver:
    (CaseAction<Cases>, CaseChild<Cases>, Cases.Environment) -> CaseDelivery

  @usableFromInline
  init(
    kind: CaseKind.Type, payload: Any?, object: AnyObject?, embed: Any, environment: Any?,
    site: CaseSite,
    deliver: @escaping (CaseAction<Cases>, CaseChild<Cases>, Cases.Environment) -> CaseDelivery
  ) {
    self.kind = kind
    self.extra = object == nil ? payload : environment
    self.object = object
    self.embed = embed
    self.site = site
    self.deliver = deliver
  }

  /// The alert, for a case that holds one (a model is in `object`).
  @inlinable
  var payload: Any? { object == nil ? extra : nil }

  /// The child's services from the cases' (`(Cases.Environment) -> Child.Environment`); nil
  /// when they are the same services.
  @inlinable
  var environment: Any? { object == nil ? nil : extra }

  /// Sends `routed` to the `Child` that `held` holds with `environment`, when `routed`'s case
  /// is `held`'s, whose actions `embed` makes.
  @inlinable
  static func deliver<Child: ArborealModel>(
    _ routed: CaseAction<Cases>, to held: CaseChild<Cases>, as child: Child.Type,
    embed: (Child.Action) -> Cases.Action, environment: Child.Environment
  ) -> CaseDelivery {
    // Both are of this kind (the caller compared them): the casts hold.
    let child = unsafeDowncast(held.object.unsafelyUnwrapped, to: Child.self)
    let action = routed.action as! Child.Action
    // The action put in the held case's action answers from the action's own line of
    // `child(of:)` only when the held case is the action's.
    guard Cases.child(of: embed(action)).site == routed.site else { return .otherCase }
    guard let fx = childEffects(of: child, action, environment) else {
      return .delivered
    }
    return .effects(fx, environment)
  }

  /// A case that holds a child model whose services are the enumeration's.
  ///
  /// ```swift
  /// case .editor(let editor): .model(editor, action: Action.editor)
  /// ```
  ///
  /// - Parameters:
  ///   - child: The model the case holds.
  ///   - action: The case of ``ModelCases/Action`` that carries its actions: `Action.editor`.
  ///   - line: Leave the default: it tells the cases apart.
  ///   - column: Leave the default.
  /// - Returns: What the case holds.
  @inlinable
  public static func model<Child: ArborealModel>(
    _ child: Child, action: @escaping @Sendable (Child.Action) -> Cases.Action,
    line: UInt = #line, column: UInt = #column
  ) -> CaseChild where Child.Environment == Cases.Environment {
    return CaseChild(
      kind: ModelCase<Child>.self, payload: nil, object: child, embed: action,
      environment: nil, site: CaseSite(line: line, column: column),
      deliver: { routed, held, environment in
        deliver(routed, to: held, as: Child.self, embed: action, environment: environment)
      })
  }

  /// A case that holds a child model, with how to get its services from the enumeration's.
  ///
  /// ```swift
  /// case .record(let record): .model(record, action: Action.record, environment: \.recording)
  /// case .detail(let detail): .model(detail, action: Action.detail, environment: { _ in })
  /// ```
  ///
  /// - Parameters:
  ///   - child: The model the case holds.
  ///   - action: The case of ``ModelCases/Action`` that carries its actions.
  ///   - environment: The child's services, from the enumeration's.
  ///   - line: Leave the default: it tells the cases apart.
  ///   - column: Leave the default.
  /// - Returns: What the case holds.
  @inlinable
  public static func model<Child: ArborealModel>(
    _ child: Child, action: @escaping @Sendable (Child.Action) -> Cases.Action,
    environment: @escaping @Sendable (Cases.Environment) -> Child.Environment,
    line: UInt = #line, column: UInt = #column
  ) -> CaseChild {
    CaseChild(
      kind: ModelCase<Child>.self, payload: nil, object: child, embed: action,
      environment: environment, site: CaseSite(line: line, column: column),
      deliver: { routed, held, environment in
        let map =
          held.environment.unsafelyUnwrapped as! @Sendable (Cases.Environment) -> Child.Environment
        return deliver(
          routed, to: held, as: Child.self, embed: action, environment: map(environment))
      })
  }

  /// A case that holds an alert or a confirmation dialog: any of its actions closes it (the
  /// parent's `forward` sets the destination to nil, or pops the screen), and reaches the
  /// parent's update as `.presented(.alert(action))` for the parent to act on.
  ///
  /// ```swift
  /// case .alert(let alert): .alert(alert, action: Action.alert)
  /// ```
  ///
  /// - Parameters:
  ///   - alert: The alert the case holds.
  ///   - action: The case of ``ModelCases/Action`` that carries its buttons' actions.
  ///   - line: Leave the default: it tells the cases apart.
  ///   - column: Leave the default.
  /// - Returns: What the case holds.
  @inlinable
  public static func alert<AlertAction: Sendable>(
    _ alert: AlertState<AlertAction>, action: @escaping @Sendable (AlertAction) -> Cases.Action,
    line: UInt = #line, column: UInt = #column
  ) -> CaseChild {
    CaseChild(
      kind: AlertCase<AlertAction>.self, payload: alert, object: nil, embed: action,
      environment: nil, site: CaseSite(line: line, column: column),
      deliver: { routed, held, _ in
        // Both are of this kind (the caller compared them): the casts hold.
        let alertAction = routed.action as! AlertAction
        return Cases.child(of: action(alertAction)).site == routed.site
          ? .closeAlert : .otherCase
      })
  }

  /// A case that holds neither a model nor an alert (`case loading`): no action is for it.
  ///
  /// ```swift
  /// case .loading: .none
  /// ```
  public static var none: CaseChild {
    CaseChild(
      kind: CaseKind.self, payload: nil, object: nil, embed: (), environment: nil,
      site: CaseSite(line: 0, column: 0), deliver: { _, _, _ in .otherCase })
  }
}

/// Which case of a ``ModelCases`` enumeration an action is for, and the child's action.
///
/// Made by the enumeration's ``ModelCases/child(of:)`` switch, one line per case.
public struct CaseAction<Cases: ModelCases> {
  /// How this kind of case is handled.
  @usableFromInline let kind: CaseKind.Type
  /// The child's action (`Child.Action`), or the alert's.
  @usableFromInline let action: Any
  /// The line of the ``ModelCases/child(of:)`` switch that made it: what tells the action's
  /// case from another case holding the same type.
  @usableFromInline let site: CaseSite

  @usableFromInline
  init(kind: CaseKind.Type, action: Any, site: CaseSite) {
    self.kind = kind
    self.action = action
    self.site = site
  }

  /// An action of the model a case holds.
  ///
  /// ```swift
  /// case .editor(let action): .model(action, in: Destination.editor)
  /// ```
  ///
  /// - Parameters:
  ///   - action: The model's action.
  ///   - embed: The case that holds the model: `Destination.editor`. It pairs the action with
  ///     its model's type, for the compiler; it is not called.
  ///   - line: Leave the default: it tells the cases apart.
  ///   - column: Leave the default.
  /// - Returns: The action's case.
  @inlinable
  public static func model<Child: ArborealModel>(
    _ action: Child.Action, in embed: (Child) -> Cases,
    line: UInt = #line, column: UInt = #column
  ) -> CaseAction {
    CaseAction(
      kind: ModelCase<Child>.self, action: action, site: CaseSite(line: line, column: column))
  }

  /// The action of a button of the alert a case holds.
  ///
  /// ```swift
  /// case .alert(let action): .alert(action, in: Destination.alert)
  /// ```
  ///
  /// - Parameters:
  ///   - action: The button's action.
  ///   - embed: The case that holds the alert: `Destination.alert`. It pairs the action with
  ///     the alert's type, for the compiler; it is not called.
  ///   - line: Leave the default: it tells the cases apart.
  ///   - column: Leave the default.
  /// - Returns: The action's case.
  @inlinable
  public static func alert<AlertAction: Sendable>(
    _ action: AlertAction, in embed: (AlertState<AlertAction>) -> Cases,
    line: UInt = #line, column: UInt = #column
  ) -> CaseAction {
    CaseAction(
      kind: AlertCase<AlertAction>.self, action: action,
      site: CaseSite(line: line, column: column))
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
