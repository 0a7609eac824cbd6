// The `forward` of an enumeration of destinations (or screens) is a deliberate twin of the
// `forward` of one presented child (or stack) in ArborealModel+Forward.swift: the same
// dismissal and the same dropped-action report, finding the child by its case instead.
extension ArborealModel {
  /// Handles the actions of an enumeration of destinations (TCA's `ifLet` over a
  /// `@Reducer enum Destination`): sends each action to the child of its case, closes an alert
  /// when one of its buttons is chosen, and sets the destination to nil on
  /// ``PresentationAction/dismiss``.
  ///
  /// ```swift
  /// case .destination(let action):
  ///   let fx = forward(action, to: \.destination, environment: (), tag: Action.destination)
  ///   guard case .presented(.alert(.confirmDelete)) = action else { return fx }
  ///   return .merge(fx, delete())
  /// ```
  ///
  /// Forward every action of the destination, then act on the ones this model cares about
  /// (an alert's button, a child's delegate action), as above: the alert closes here. A
  /// child's effects belong to it and end within the action that sets the destination to nil
  /// or to another case; when the child returns ``Fx/dismiss``, this model receives
  /// `tag(.dismiss)`. An action for a case that is not the one presented is dropped, and
  /// reported in debug builds, as is an action whose case ``ModelCases/cases`` does not route.
  ///
  /// - Parameters:
  ///   - action: The presentation action.
  ///   - destination: Where this model holds the destination; writable, to dismiss it.
  ///   - environment: The services the cases' models use.
  ///   - tag: Makes this model's action of a presentation action.
  /// - Returns: The child's effects, tagged.
  /// - Complexity: O(*c*) for *c* cases and two reflections (`Mirror`: the action's case and
  ///   the destination's), plus O(*e*) for *e* effects and the child's update.
  public func forward<Cases: ModelCases>(
    _ action: PresentationAction<Cases.Action>,
    to destination: ReferenceWritableKeyPath<Self, Cases?>,
    environment: Cases.Environment,
    tag: @escaping @Sendable (PresentationAction<Cases.Action>) -> Action
  ) -> Fx<Action> {
    switch action {
    case .dismiss:
      // A second dismissal writes nothing: no change, no notification.
      if self[keyPath: destination] != nil { self[keyPath: destination] = nil }
      return .none
    case .presented(let action):
      return forwardCase(
        action, at: .destination(destination, tag: tag), environment: environment)
    }
  }

  /// Handles the actions of a stack of several kinds of screen (TCA's `forEach` over a
  /// `@Reducer enum Path`): sends each screen its actions, and pops on
  /// ``StackAction/popFrom(id:)``.
  ///
  /// ```swift
  /// case .path(let action):
  ///   return forward(action, in: \.path, environment: environment, tag: Action.path)
  /// ```
  ///
  /// The same as ``forward(_:in:environment:tag:)-(StackAction<Element.Action>,_,_,_)`` for a
  /// stack of one kind of screen, each screen found through its case.
  ///
  /// - Parameters:
  ///   - action: The stack action.
  ///   - stack: Where this model holds the stack; writable, to pop.
  ///   - environment: The services the screens' models use.
  ///   - tag: Makes this model's action of a stack action.
  /// - Returns: The screen's effects, tagged.
  /// - Complexity: O(*n* + *c*) for *n* screens and *c* cases, two reflections (the action's
  ///   case and the screen's), plus O(*e*) for *e* effects and the screen's update.
  public func forward<Cases: ModelCases>(
    _ action: StackAction<Cases.Action>,
    in stack: ReferenceWritableKeyPath<Self, ModelStack<Cases>>,
    environment: Cases.Environment,
    tag: @escaping @Sendable (StackAction<Cases.Action>) -> Action
  ) -> Fx<Action> {
    switch action {
    case .popFrom(let id):
      popForwarded(action, from: id, in: stack)
      return .none
    case .element(let id, let action):
      return forwardCase(action, at: .screen(id, of: stack, tag: tag), environment: environment)
    }
  }

  /// Pushes a screen of one of several kinds and starts its subscriptions at once, when its
  /// model is a ``SubscribingModel``: a recording screen's timer runs from the push, with no
  /// action sent to it, and ends when it is popped.
  ///
  /// ```swift
  /// case .recordTapped:
  ///   return push(.record(Recorder()), on: \.path, environment: environment, tag: Action.path)
  /// ```
  ///
  /// The same as `path.push(screen)` for a screen whose model does not subscribe. One pushed
  /// with ``ModelStack/push(_:)`` has its subscriptions evaluated after the action when the
  /// stack is one of this model's ``ArborealModel/routes``, and otherwise only after the first
  /// action forwarded to it.
  ///
  /// - Parameters:
  ///   - screen: The screen.
  ///   - stack: Where this model holds the stack.
  ///   - environment: The services the screens' models use.
  ///   - tag: Makes this model's action of a stack action.
  /// - Returns: The screen's subscriptions, tagged; ``Fx/none`` for a screen without any.
  public func push<Cases: ModelCases>(
    _ screen: Cases,
    on stack: ReferenceWritableKeyPath<Self, ModelStack<Cases>>,
    environment: Cases.Environment,
    tag: @escaping @Sendable (StackAction<Cases.Action>) -> Action
  ) -> Fx<Action> {
    let id = self[keyPath: stack].push(screen)
    return startCase(screen, at: .screen(id, of: stack, tag: tag), environment: environment)
  }

  /// Presents one case of an enumeration of destinations and starts its model's
  /// subscriptions at once, when it is a ``SubscribingModel``.
  ///
  /// ```swift
  /// case .recordTapped:
  ///   return present(.record(Recorder()), at: \.destination, environment: environment,
  ///     tag: Action.destination)
  /// ```
  ///
  /// The same as assigning the destination when its model does not subscribe, or when the
  /// destination is one of this model's ``ArborealModel/routes`` (its subscriptions then start
  /// after the action).
  ///
  /// - Parameters:
  ///   - destination: The destination.
  ///   - path: Where this model holds the destination.
  ///   - environment: The services the cases' models use.
  ///   - tag: Makes this model's action of a presentation action.
  /// - Returns: The model's subscriptions, tagged; ``Fx/none`` for a model without any.
  public func present<Cases: ModelCases>(
    _ destination: Cases,
    at path: ReferenceWritableKeyPath<Self, Cases?>,
    environment: Cases.Environment,
    tag: @escaping @Sendable (PresentationAction<Cases.Action>) -> Action
  ) -> Fx<Action> {
    self[keyPath: path] = destination
    return startCase(destination, at: .destination(path, tag: tag), environment: environment)
  }

  /// Starts the subscriptions of the model `value` holds, through its case's route.
  private func startCase<Cases: ModelCases>(
    _ value: Cases, at place: CasePlace<Self, Cases>, environment: Cases.Environment
  ) -> Fx<Action> {
    for route in Cases.cases {
      if let fx = route.route.start(value, from: self, at: place, environment: environment) {
        return fx
      }
    }
    return .none
  }

  /// Sends `action` to the case of ``ModelCases/cases`` whose action it is.
  private func forwardCase<Cases: ModelCases>(
    _ action: Cases.Action, at place: CasePlace<Self, Cases>, environment: Cases.Environment
  ) -> Fx<Action> {
    if let (label, payload) = CasePayload.split(action) {
      for route in Cases.cases {
        if let fx = route.route.forward(
          label: label, payload: payload, from: self, at: place, environment: environment)
        {
          return fx
        }
      }
    }
    #if DEBUG
      ArborealDiagnostics.reportDroppedAction(
        "Arboreal: dropped \(action) sent to \(Cases.self) in \(Self.self): "
          + "\(Cases.self).cases has no route whose action it is. Add `.model(…)` or "
          + "`.alert(…)` for its case.")
    #endif
    return .none
  }
}

/// Where a parent holds a ``ModelCases`` value for one forwarded action: an optional
/// destination, or a screen of a stack.
struct CasePlace<Parent: ArborealModel, Cases: ModelCases> {
  /// The parent's property, for messages and the child's lifetime.
  let path: AnyKeyPath
  /// The screen's identifier on a stack; nil for a destination.
  let key: StackElementID?
  /// The value now.
  let value: (Parent) -> Cases?
  /// Sets the destination to nil, or pops the screen.
  let close: (Parent) -> Void
  /// The models the place holds now.
  let presence: (Parent) -> ChildPresence
  /// What the parent receives when the child dismisses itself.
  let dismissal: Parent.Action
  /// Makes the parent's action of an action of the cases.
  let embed: @Sendable (Cases.Action) -> Parent.Action

  /// An optional destination.
  static func destination(
    _ path: ReferenceWritableKeyPath<Parent, Cases?>,
    tag: @escaping @Sendable (PresentationAction<Cases.Action>) -> Parent.Action
  ) -> CasePlace {
    CasePlace(
      path: path, key: nil,
      value: { $0[keyPath: path] },
      close: { if $0[keyPath: path] != nil { $0[keyPath: path] = nil } },
      presence: { .of($0[keyPath: path]?.heldObject) },
      dismissal: tag(.dismiss), embed: { tag(.presented($0)) })
  }

  /// The screen `id` of a stack.
  static func screen(
    _ id: StackElementID, of stack: ReferenceWritableKeyPath<Parent, ModelStack<Cases>>,
    tag: @escaping @Sendable (StackAction<Cases.Action>) -> Parent.Action
  ) -> CasePlace {
    CasePlace(
      path: stack, key: id,
      value: { $0[keyPath: stack][id: id] },
      close: { $0[keyPath: stack].pop(from: id) },
      presence: { .of(screens: $0[keyPath: stack]) },
      dismissal: tag(.popFrom(id: id)), embed: { tag(.element(id: id, action: $0)) })
  }
}

/// What one case's route does, behind ``CaseRoute``.
protocol CaseRouting<Cases>: Sendable {
  associatedtype Cases: ModelCases

  /// Handles an action found under the case `label` with `payload` when it is this route's;
  /// nil when it is another's.
  func forward<Parent: ArborealModel>(
    label: String?, payload: Any, from parent: Parent, at place: CasePlace<Parent, Cases>,
    environment: Cases.Environment
  ) -> Fx<Parent.Action>?

  /// Starts the subscriptions of the model `value` holds when it is this route's case; nil
  /// when it is another's.
  func start<Parent: ArborealModel>(
    _ value: Cases, from parent: Parent, at place: CasePlace<Parent, Cases>,
    environment: Cases.Environment
  ) -> Fx<Parent.Action>?

  /// Whether this case's model has something for a route to follow: subscriptions or routes.
  var isFollowed: Bool { get }

  /// Starts following the model `value` holds under `node` when it is this route's case and
  /// has something to follow; nil otherwise.
  func enter<Parent: ArborealModel>(
    _ value: Cases, under node: ModelMountNode<Parent>, at place: CasePlace<Parent, Cases>,
    environment: Cases.Environment, place prefix: String
  ) -> MountNode?

  /// Lists the model `value` holds, and its descendants, under `prefix` and its case's name
  /// when it is this route's case.
  ///
  /// - Returns: Whether it was this route's case.
  func list(_ value: Cases, at prefix: String, into places: inout [ChildPlace]) -> Bool
}

// `ModelCaseRoute` and `AlertCaseRoute` are deliberate twins: the same reading of a case's
// payload, one forwarding to a child model, the other to an alert.
/// The route of a case that holds a child model.
struct ModelCaseRoute<Cases: ModelCases, Child: ArborealModel>: CaseRouting {
  let embed: @Sendable (Child) -> Cases
  let embedAction: @Sendable (Child.Action) -> Cases.Action
  let environment: @Sendable (Cases.Environment) -> Child.Environment
  /// The names of the case and of its action's case, learnt at first use.
  let names = (state: CaseName(), action: CaseName())

  /// The child `value` holds when it is this case.
  func child(in value: Cases) -> Child? {
    CasePayload.extract(value, embed: embed, name: names.state)
  }

  func forward<Parent: ArborealModel>(
    label: String?, payload: Any, from parent: Parent, at place: CasePlace<Parent, Cases>,
    environment: Cases.Environment
  ) -> Fx<Parent.Action>? {
    guard
      let action = CasePayload.cast(
        payload, label: label, embed: embedAction, name: names.action)
    else { return nil }
    guard let value = place.value(parent), let child = child(in: value) else {
      parent.dropForwarded(action, child: Child.self, path: place.path, key: place.key)
      return Fx.none
    }
    let childEnvironment = self.environment(environment)
    guard let fx = parent.effectsToForward(of: child, action, childEnvironment) else {
      return Fx.none
    }
    return wrap(fx, of: child, from: parent, at: place, environment: childEnvironment)
  }

  func start<Parent: ArborealModel>(
    _ value: Cases, from parent: Parent, at place: CasePlace<Parent, Cases>,
    environment: Cases.Environment
  ) -> Fx<Parent.Action>? {
    guard let child = child(in: value) else { return nil }
    guard Child.subscribes else { return Fx.none }
    return wrap(
      .none, of: child, from: parent, at: place, environment: self.environment(environment))
  }

  var isFollowed: Bool { Child.subscribes || !Child.routes.isEmpty }

  func enter<Parent: ArborealModel>(
    _ value: Cases, under node: ModelMountNode<Parent>, at place: CasePlace<Parent, Cases>,
    environment: Cases.Environment, place prefix: String
  ) -> MountNode? {
    guard let child = child(in: value) else { return nil }
    return node.enter(
      child, environment: self.environment(environment),
      place: prefix + "." + (names.state.value ?? "\(Child.self)"),
      wrap: { [weak parent = node.model] fx, environment in
        parent.map { wrap(fx, of: child, from: $0, at: place, environment: environment) }
      })
  }

  func list(_ value: Cases, at prefix: String, into places: inout [ChildPlace]) -> Bool {
    guard let child = child(in: value) else { return false }
    ChildPlace.list(
      child, at: prefix + "." + (names.state.value ?? "\(Child.self)"), into: &places)
    return true
  }

  /// The child's effects (and subscriptions), made the parent's.
  private func wrap<Parent: ArborealModel>(
    _ fx: Fx<Child.Action>, of child: Child, from parent: Parent,
    at place: CasePlace<Parent, Cases>, environment childEnvironment: Child.Environment
  ) -> Fx<Parent.Action> {
    let (embedAction, embedParent) = (self.embedAction, place.embed)
    return parent.wrap(
      fx, of: child, environment: childEnvironment, path: place.path,
      key: place.key.map(AnyHashable.init)
    ) {
      ForwardRoute(
        alsoMember: place.key.map { EffectScope(Child.Action.self, key: $0) }
          ?? EffectScope(Child.Action.self),
        dismissal: place.dismissal, read: { place.presence(parent) },
        tag: { embedParent(embedAction($0)) })
    }
  }
}

/// The route of a case that holds an alert or a confirmation dialog.
struct AlertCaseRoute<Cases: ModelCases, AlertAction: Sendable>: CaseRouting {
  let embed: @Sendable (AlertState<AlertAction>) -> Cases
  let embedAction: @Sendable (AlertAction) -> Cases.Action
  /// The names of the case and of its action's case, learnt at first use.
  let names = (state: CaseName(), action: CaseName())

  func forward<Parent: ArborealModel>(
    label: String?, payload: Any, from parent: Parent, at place: CasePlace<Parent, Cases>,
    environment: Cases.Environment
  ) -> Fx<Parent.Action>? {
    guard
      let action = CasePayload.cast(
        payload, label: label, embed: embedAction, name: names.action)
    else { return nil }
    guard let value = place.value(parent),
      CasePayload.extract(value, embed: embed, name: names.state) != nil
    else {
      parent.dropForwarded(
        action, child: AlertState<AlertAction>.self, path: place.path, key: place.key)
      return Fx.none
    }
    // The button was chosen: the alert is gone, and the parent acts on its action.
    place.close(parent)
    return Fx.none
  }

  func start<Parent: ArborealModel>(
    _ value: Cases, from parent: Parent, at place: CasePlace<Parent, Cases>,
    environment: Cases.Environment
  ) -> Fx<Parent.Action>? {
    CasePayload.extract(value, embed: embed, name: names.state).map { _ in Fx.none }
  }

  /// False: an alert holds no model.
  var isFollowed: Bool { false }

  func enter<Parent: ArborealModel>(
    _ value: Cases, under node: ModelMountNode<Parent>, at place: CasePlace<Parent, Cases>,
    environment: Cases.Environment, place prefix: String
  ) -> MountNode? { nil }

  func list(_ value: Cases, at prefix: String, into places: inout [ChildPlace]) -> Bool {
    false
  }
}

extension ChildPresence {
  /// The models held by the screens of a stack of several kinds.
  ///
  /// - Complexity: O(*n*) reflections for *n* screens.
  static func of<Cases: ModelCases>(screens: ModelStack<Cases>) -> ChildPresence {
    var ids = Set<ObjectIdentifier>(minimumCapacity: screens.count)
    for screen in screens {
      if let object = screen.heldObject { ids.insert(ObjectIdentifier(object)) }
    }
    return .many(ids)
  }
}
