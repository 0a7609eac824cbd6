// The `forward`s the routes' closures call (internal: a user forwards through a route) are
// deliberate twins: one per way a parent holds a child (always, optionally, in a collection,
// presented, on a stack), each called from one route factory's closure and always inlined
// there, so that the route's key path literal folds into a direct read. Each finds its child (or drops
// the action, naming where it looked) and calls `effectsToForward`, where the rule they share
// lives, then its own out-of-line `forwarded`. Kept as straight-line code: a helper taking a
// closure for the last step adds retains to the inlined path.
extension ArborealModel {
  /// Sends a child action to the child this model always holds, and returns the child's
  /// effects as this model's (the route of ``ChildRoute/child(_:environment:tag:)`` calls it).
  ///
  /// The effects belong to the child instance: its cancellation identifiers are its own (a
  /// sibling of the same type never cancels them), and when the model at `child` is replaced
  /// by another instance, they end within that action, with nothing in this update asking
  /// for it. ``Fx/cancel(child:)`` still cancels them. A ``Fx/dismiss`` the child returns goes
  /// on to the nearest presentation or stack that can dismiss.
  ///
  /// - Parameters:
  ///   - action: The child's action.
  ///   - child: Where this model holds the child.
  ///   - environment: The services the child's effects use.
  ///   - tag: Makes this model's action of a child action; runs in the effects' tasks.
  /// - Returns: The child's effects, tagged.
  /// - Complexity: O(*e*) for *e* effects, plus the child's update.
  @inlinable @inline(__always)
  func forward<Child: ArborealModel>(
    _ action: Child.Action,
    to child: KeyPath<Self, Child>,
    environment: Child.Environment,
    tag: @escaping @Sendable (Child.Action) -> Action
  ) -> Fx<Action> {
    let model = self[keyPath: child]
    guard let fx = effectsToForward(of: model, action, environment) else { return Fx(storage: nil) }
    return forwarded(fx, of: model, at: child, environment: environment, tag: tag)
  }

  /// Sends a child action to an optional child, if it is there, and returns the child's
  /// effects as this model's.
  ///
  /// When the child is nil, the action is dropped, and reported in debug builds to
  /// ``ArborealDiagnostics/droppedActionHandler`` with the child's type and place. The
  /// child's effects belong to the instance: they end within the action that sets the property
  /// to nil or to another instance. The key path may go through an enumeration's computed
  /// property (`\.destination?.detail`). To dismiss the child with an action, forward a
  /// ``PresentationAction`` instead.
  ///
  /// - Parameters:
  ///   - action: The child's action.
  ///   - child: Where this model holds the child.
  ///   - environment: The services the child's effects use.
  ///   - tag: Makes this model's action of a child action; runs in the effects' tasks.
  /// - Returns: The child's effects, tagged; ``Fx/none`` when the child is nil.
  /// - Complexity: O(*e*) for *e* effects, plus the child's update.
  @inlinable @inline(__always)
  func forward<Child: ArborealModel>(
    _ action: Child.Action,
    to child: KeyPath<Self, Child?>,
    environment: Child.Environment,
    tag: @escaping @Sendable (Child.Action) -> Action
  ) -> Fx<Action> {
    guard let model = self[keyPath: child] else {
      dropForwarded(action, child: Child.self, path: child, key: Never?.none)
      return Fx.dropped
    }
    guard let fx = effectsToForward(of: model, action, environment) else { return Fx(storage: nil) }
    return forwarded(fx, of: model, atOptional: child, environment: environment, tag: tag)
  }

  /// Sends a child action to the child with `id` in a collection, if it is there, and returns
  /// the child's effects as this model's.
  ///
  /// When no child has the identifier, the action is dropped, and reported in debug builds to
  /// ``ArborealDiagnostics/droppedActionHandler``. Each child's effects belong to that
  /// instance: siblings using the same cancellation identifier never cancel each other's
  /// effects, and a child removed from the collection (or replaced by another instance with the
  /// same identifier) has its effects ended within that action. ``Fx/cancel(child:key:)``
  /// with the identifier still cancels them.
  ///
  /// - Parameters:
  ///   - action: The child's action.
  ///   - children: Where this model holds its children.
  ///   - id: The child's identifier.
  ///   - environment: The services the child's effects use.
  ///   - tag: Makes this model's action of a child action; runs in the effects' tasks.
  /// - Returns: The child's effects, tagged; ``Fx/none`` when there is no such child.
  /// - Complexity: O(*n*) to find the child among *n* (a linear search), plus O(*e*) for *e*
  ///   effects and the child's update. While children of the collection run effects, each
  ///   transaction that changes the collection reads it once, in O(*n*).
  @inlinable @inline(__always)
  func forward<Children: Collection>(
    _ action: Children.Element.Action,
    to children: KeyPath<Self, Children>,
    id: Children.Element.ID,
    environment: Children.Element.Environment,
    tag: @escaping @Sendable (Children.Element.Action) -> Action
  ) -> Fx<Action>
  where Children.Element: ArborealModel & Identifiable, Children.Element.ID: Sendable {
    guard let model = self[keyPath: children].first(where: { $0.id == id }) else {
      dropForwarded(action, child: Children.Element.self, path: children, key: id)
      return Fx.dropped
    }
    guard let fx = effectsToForward(of: model, action, environment) else { return Fx(storage: nil) }
    return forwarded(fx, of: model, in: children, environment: environment, tag: tag)
  }

  /// Sends a child action to a child of a collection that this model has in hand (while it
  /// goes through its children, say), and returns the child's effects as this model's.
  ///
  /// The same as `forward(_:to:id:environment:tag:)` without the search: the child's effects
  /// belong to it, and end when `children` no longer holds it (an effect of a child that is not
  /// in `children` when the action's effects start never starts).
  ///
  /// - Parameters:
  ///   - action: The child's action.
  ///   - child: The child, an element of `children`.
  ///   - children: Where this model holds its children.
  ///   - environment: The services the child's effects use.
  ///   - tag: Makes this model's action of a child action; runs in the effects' tasks.
  /// - Returns: The child's effects, tagged.
  /// - Complexity: O(*e*) for *e* effects, plus the child's update.
  @inlinable @inline(__always)
  func forward<Children: Collection>(
    _ action: Children.Element.Action,
    to child: Children.Element,
    in children: KeyPath<Self, Children>,
    environment: Children.Element.Environment,
    tag: @escaping @Sendable (Children.Element.Action) -> Action
  ) -> Fx<Action>
  where Children.Element: ArborealModel & Identifiable, Children.Element.ID: Sendable {
    guard let fx = effectsToForward(of: child, action, environment) else { return Fx(storage: nil) }
    return forwarded(fx, of: child, in: children, environment: environment, tag: tag)
  }

  /// Handles the actions of a presented child: sends ``PresentationAction/presented(_:)``
  /// actions to it, and sets it to nil on ``PresentationAction/dismiss``.
  ///
  /// Setting the child to nil (here or anywhere in this model's update) ends its effects
  /// within the action. When the child returns ``Fx/dismiss``, this model receives
  /// `tag(.dismiss)`, and the child is gone after it. A `presented` action for a child that
  /// is nil is dropped, and reported in debug builds.
  ///
  /// - Parameters:
  ///   - action: The presentation action.
  ///   - child: Where this model holds the child; writable, to dismiss it.
  ///   - environment: The services the child's effects use.
  ///   - tag: Makes this model's action of a presentation action.
  /// - Returns: The child's effects, tagged.
  /// - Complexity: O(*e*) for *e* effects, plus the child's update.
  @inlinable @inline(__always)
  func forward<Child: ArborealModel>(
    _ action: PresentationAction<Child.Action>,
    to child: ReferenceWritableKeyPath<Self, Child?>,
    environment: Child.Environment,
    tag: @escaping @Sendable (PresentationAction<Child.Action>) -> Action
  ) -> Fx<Action> {
    switch action {
    case .dismiss:
      // A second dismissal writes nothing: no change, no notification.
      if self[keyPath: child] != nil { self[keyPath: child] = nil }
      return Fx(storage: nil)
    case .presented(let action):
      guard let model = self[keyPath: child] else {
        dropForwarded(action, child: Child.self, path: child, key: Never?.none)
        return Fx.dropped
      }
      guard let fx = effectsToForward(of: model, action, environment) else {
        return Fx(storage: nil)
      }
      return forwarded(fx, of: model, presentedAt: child, environment: environment, tag: tag)
    }
  }

  /// Handles the actions of a navigation stack: sends each screen its actions, and pops on
  /// ``StackAction/popFrom(id:)``.
  ///
  /// Every screen popped (here, or by any other change of the stack) has its effects ended
  /// within the action. When a screen returns ``Fx/dismiss``, this model receives
  /// `tag(.popFrom(id:))` for it. An action for a screen that is not on the stack is dropped,
  /// and reported in debug builds.
  ///
  /// - Parameters:
  ///   - action: The stack action.
  ///   - stack: Where this model holds the stack; writable, to pop.
  ///   - environment: The services the screens' effects use.
  ///   - tag: Makes this model's action of a stack action.
  /// - Returns: The screen's effects, tagged.
  /// - Complexity: O(*n*) for a stack of *n* screens, plus O(*e*) for *e* effects and the
  ///   screen's update.
  @inlinable @inline(__always)
  func forward<Element: ArborealModel>(
    _ action: StackAction<Element.Action>,
    in stack: ReferenceWritableKeyPath<Self, ModelStack<Element>>,
    environment: Element.Environment,
    tag: @escaping @Sendable (StackAction<Element.Action>) -> Action
  ) -> Fx<Action> {
    switch action {
    case .popFrom(let id):
      return popForwarded(action, from: id, in: stack)
    case .element(let id, let action):
      guard let model = self[keyPath: stack][id: id] else {
        dropForwarded(action, child: Element.self, path: stack, key: id)
        return Fx.dropped
      }
      guard let fx = effectsToForward(of: model, action, environment) else {
        return Fx(storage: nil)
      }
      return forwarded(fx, of: model, on: stack, id: id, environment: environment, tag: tag)
    }
  }

  /// Pushes a screen on a stack and starts its subscriptions at once, when it is a
  /// ``SubscribingModel``: a timer screen that runs from the start ticks without being sent an
  /// action first.
  ///
  /// The same as `path.push(screen)` for any other screen. A screen pushed with
  /// ``ModelStack/push(_:)`` has its subscriptions evaluated after the action when the stack is
  /// one of this model's ``ArborealModel/routes``, and otherwise only after the first action
  /// forwarded to it.
  ///
  /// - Parameters:
  ///   - screen: The screen.
  ///   - stack: Where this model holds the stack.
  ///   - environment: The services the screen's subscriptions use.
  ///   - tag: Makes this model's action of a stack action.
  /// - Returns: The screen's subscriptions, tagged; ``Fx/none`` for a screen without any.
  func push<Element: ArborealModel>(
    _ screen: Element,
    on stack: ReferenceWritableKeyPath<Self, ModelStack<Element>>,
    environment: Element.Environment,
    tag: @escaping @Sendable (StackAction<Element.Action>) -> Action
  ) -> Fx<Action> {
    let id = self[keyPath: stack].push(screen)
    guard Element.subscribes else { return .none }
    return forwarded(.none, of: screen, on: stack, id: id, environment: environment, tag: tag)
  }

  /// Presents a child and starts its subscriptions at once, when it is a
  /// ``SubscribingModel``.
  ///
  /// The same as assigning the child for any other model. A child assigned directly has its
  /// subscriptions evaluated after the action when the property is one of this model's
  /// ``ArborealModel/routes``, and otherwise only after the first action forwarded to it.
  ///
  /// - Parameters:
  ///   - child: The child.
  ///   - path: Where this model holds the child.
  ///   - environment: The services the child's subscriptions use.
  ///   - tag: Makes this model's action of a presentation action.
  /// - Returns: The child's subscriptions, tagged; ``Fx/none`` for a child without any.
  func present<Child: ArborealModel>(
    _ child: Child,
    at path: ReferenceWritableKeyPath<Self, Child?>,
    environment: Child.Environment,
    tag: @escaping @Sendable (PresentationAction<Child.Action>) -> Action
  ) -> Fx<Action> {
    self[keyPath: path] = child
    guard Child.subscribes else { return .none }
    return forwarded(.none, of: child, presentedAt: path, environment: environment, tag: tag)
  }

  /// Handles the actions of an alert the parent holds (``ChildRoute/alert(_:tag:)``): any
  /// button and ``PresentationAction/dismiss`` close it; a button's action with no alert up is
  /// dropped (``Fx/isDropped``) and reported in debug builds. A second dismissal does nothing.
  @inlinable @inline(__always)
  func forwardAlert<AlertAction: Sendable>(
    _ action: PresentationAction<AlertAction>,
    at path: ReferenceWritableKeyPath<Self, AlertState<AlertAction>?>
  ) -> Fx<Action> {
    guard self[keyPath: path] != nil else {
      guard case .presented(let button) = action else { return Fx(storage: nil) }
      dropForwarded(button, child: AlertState<AlertAction>.self, path: path, key: Never?.none)
      return Fx.dropped
    }
    self[keyPath: path] = nil
    return Fx(storage: nil)
  }

  /// Runs a child's update and returns its effects, or nil when there is nothing to forward:
  /// no effect, and a child that does not subscribe. The rule every `forward` applies, in one
  /// place.
  ///
  /// Inlined, so that a child update returning `Fx.none` (the common case) costs what calling
  /// it costs: no closure, no identifier, no generic metadata.
  @inlinable @inline(__always)
  func effectsToForward<Child: ArborealModel>(
    of child: Child, _ action: Child.Action, _ environment: Child.Environment
  ) -> Fx<Child.Action>? {
    childEffects(of: child, action, environment)
  }

  // MARK: Out of line: a child that returned effects, or that subscribes

  /// The effects of a child the parent always holds, made the parent's.
  @usableFromInline
  func forwarded<Child: ArborealModel>(
    _ fx: Fx<Child.Action>, of child: Child, at path: KeyPath<Self, Child>,
    environment: Child.Environment, tag: @escaping @Sendable (Child.Action) -> Action
  ) -> Fx<Action> {
    wrap(fx, of: child, environment: environment, path: path, key: nil) {
      ForwardRoute(
        alsoMember: EffectScope(Child.Action.self), dismissal: nil,
        read: { .held(self, path) }, tag: tag)
    }
  }

  /// The effects of an optional child, made the parent's.
  @usableFromInline
  func forwarded<Child: ArborealModel>(
    _ fx: Fx<Child.Action>, of child: Child, atOptional path: KeyPath<Self, Child?>,
    environment: Child.Environment, tag: @escaping @Sendable (Child.Action) -> Action
  ) -> Fx<Action> {
    wrap(fx, of: child, environment: environment, path: path, key: nil) {
      ForwardRoute(
        alsoMember: EffectScope(Child.Action.self), dismissal: nil,
        read: { .optional(self, path) }, tag: tag)
    }
  }

  /// The effects of a child of a collection, made the parent's.
  @usableFromInline
  func forwarded<Children: Collection>(
    _ fx: Fx<Children.Element.Action>, of child: Children.Element,
    in path: KeyPath<Self, Children>, environment: Children.Element.Environment,
    tag: @escaping @Sendable (Children.Element.Action) -> Action
  ) -> Fx<Action>
  where Children.Element: ArborealModel & Identifiable, Children.Element.ID: Sendable {
    let id = child.id
    return wrap(fx, of: child, environment: environment, path: path, key: AnyHashable(id)) {
      ForwardRoute(
        alsoMember: EffectScope(Children.Element.Action.self, key: id), dismissal: nil,
        read: { .collection(self, path) }, tag: tag)
    }
  }

  /// The effects of a presented child, made the parent's; its dismissal becomes `.dismiss`.
  @usableFromInline
  func forwarded<Child: ArborealModel>(
    _ fx: Fx<Child.Action>, of child: Child,
    presentedAt path: ReferenceWritableKeyPath<Self, Child?>,
    environment: Child.Environment,
    tag: @escaping @Sendable (PresentationAction<Child.Action>) -> Action
  ) -> Fx<Action> {
    wrap(fx, of: child, environment: environment, path: path, key: nil) {
      ForwardRoute(
        alsoMember: EffectScope(Child.Action.self), dismissal: tag(.dismiss),
        read: { .optional(self, path) }, tag: { tag(.presented($0)) })
    }
  }

  /// The effects of a stack screen, made the parent's; its dismissal becomes `.popFrom(id:)`.
  @usableFromInline
  func forwarded<Element: ArborealModel>(
    _ fx: Fx<Element.Action>, of child: Element,
    on path: ReferenceWritableKeyPath<Self, ModelStack<Element>>, id: StackElementID,
    environment: Element.Environment,
    tag: @escaping @Sendable (StackAction<Element.Action>) -> Action
  ) -> Fx<Action> {
    wrap(fx, of: child, environment: environment, path: path, key: AnyHashable(id)) {
      ForwardRoute(
        alsoMember: EffectScope(Element.Action.self, key: id), dismissal: tag(.popFrom(id: id)),
        read: { .stack(self, path) }, tag: { tag(.element(id: id, action: $0)) })
    }
  }

  /// Pops the screen `id` and those above it, for a `.popFrom(id:)` a stack's `forward`
  /// received; a pop of a screen that is gone writes nothing (no change, no notification)
  /// and is reported in debug builds.
  @usableFromInline
  func popForwarded<Element: StackScreen, ScreenAction: Sendable>(
    _ action: StackAction<ScreenAction>, from id: StackElementID,
    in stack: ReferenceWritableKeyPath<Self, ModelStack<Element>>
  ) -> Fx<Action> {
    guard self[keyPath: stack][id: id] != nil else {
      dropForwarded(action, child: Element.self, path: stack, key: id)
      return Fx.dropped
    }
    self[keyPath: stack].pop(from: id)
    return Fx(storage: nil)
  }

  /// Reports an action for a child that is not there; debug builds only.
  @usableFromInline
  func dropForwarded<Child, Key: Hashable & Sendable>(
    _ action: Any, child: Child.Type, path: AnyKeyPath, key: Key?
  ) {
    #if DEBUG
      let place = PlaceNames.describe(
        child: child, at: path, key: key.map(AnyHashable.init), in: self
      ) { _ = self[keyPath: path] }
      ArborealDiagnostics.reportDroppedAction(
        "Arboreal: dropped \(action) sent to \(place): no such child is in its parent (it was "
          + "removed, dismissed or popped, or never there). Stop sending to it.")
    #endif
  }

  /// Makes a child's effects the parent's, owned by the child; adds its subscriptions.
  ///
  /// `route` is called only here, once the child returned effects or subscribes.
  func wrap<Child: ArborealModel>(
    _ fx: Fx<Child.Action>,
    of child: Child,
    environment: Child.Environment,
    path: AnyKeyPath,
    key: AnyHashable?,
    route: () -> ForwardRoute<Child.Action, Action>
  ) -> Fx<Action> {
    // A subscribing child's subscriptions are evaluated after each of its updates, and travel
    // up with its effects, tagged by every `forward` on the way.
    let subscriptions = child.currentSubscriptions(environment: environment)
    guard !fx.isNone || subscriptions != nil else { return .none }
    let route = route()
    let (tag, dismissal) = (route.tag, route.dismissal)
    let scope = EffectScope(Child.Action.self, instance: child, key: key)
    let link = ChildLink(
      child: child, parent: self, path: path, key: key,
      membership: CancelID(member: scope), read: route.read)
    let member = CancelID(member: route.alsoMember)
    #if DEBUG
      if dismissal != nil { reportEffectsDismissedWith(fx, child: child) }
    #endif
    var effects: [FxEntry<Action>] = []
    effects.reserveCapacity(fx.effects.count + 1)
    for effect in fx.effects {
      if case .dismiss = effect, let dismissal {
        // Delivered at once, in order with the child's other `send`s: a child that sends a
        // delegate action and then dismisses itself is heard before it goes.
        effects.append(.send(dismissal, owner: nil))
      } else {
        effects.append(effect.tag(tag, scope: scope, alsoMember: member, link: link))
      }
    }
    if let subscriptions {
      effects.append(
        .subscribe(
          owners: [link],
          subscriptions.map { $0.tagged(tag, scope: scope, alsoMember: member, link: link) }))
    }
    return Fx(effects: effects)
  }

  /// Reports work returned together with `Fx.dismiss`: it belongs to the child, which the
  /// dismissal removes at once, so it is cancelled before it can deliver anything.
  private func reportEffectsDismissedWith<Child: ArborealModel>(
    _ fx: Fx<Child.Action>, child: Child
  ) {
    guard fx.effects.contains(where: { if case .dismiss = $0 { true } else { false } }),
      fx.effects.contains(where: { if case .run = $0 { true } else { false } })
    else { return }
    ArborealDiagnostics.reportDroppedAction(
      "Arboreal: \(Child.self) returned effects together with `Fx.dismiss`: they belong to it, "
        + "and end when the dismissal removes it, before they deliver anything. Return what "
        + "the parent must hear with `Fx.send(_:)`, which is delivered before the dismissal.")
  }
}

/// What a `forward` needs only when the child returned effects: how the parent tags them, the
/// child's membership by type (and key) for `Fx.cancel(child:)`, what a dismissal becomes, and
/// how to read the route.
struct ForwardRoute<ChildAction: Sendable, Action: Sendable> {
  let alsoMember: EffectScope
  let dismissal: Action?
  let read: () -> [RouteEntry]
  let tag: @Sendable (ChildAction) -> Action
}

/// Runs a child's update and returns its effects, or nil when there is nothing to forward: no
/// effect, and a child that does not subscribe. The rule every `forward` applies, in one place
/// (`effectsToForward`, and a case's `deliver`).
///
/// Inlined, so that a child update returning `Fx.none` (the common case) costs what calling
/// it costs: no closure, no identifier, no generic metadata.
@inlinable @inline(__always)
func childEffects<Child: ArborealModel>(
  of child: Child, _ action: Child.Action, _ environment: Child.Environment
) -> Fx<Child.Action>? {
  #if DEBUG
    ForwardProbe.forwarding(to: child)
    SubscriptionCheck.check(Child.self)
  #endif
  let fx = child.update(action: action, environment: environment)
  if fx.storage == nil, !Child.subscribes { return nil }
  return fx
}
