// What every route's `forward` shares, whatever its kind: finding the child is the route's
// (its factory's closure, inlined where the parent is compiled, reads the place through its
// key path literal); delivering the action, dropping it when the child is not there, and
// making a child's effects the parent's are here, once.
extension ArborealModel {
  /// Sends `action` to `child`, the child a route found with `key` (nil: not there), and
  /// returns the child's effects as this model's.
  ///
  /// Inlined into each route's `forward`, so that a child update returning `Fx.none` (the
  /// common case) costs what calling it costs: no closure, no identifier, no generic
  /// metadata. A child that returned effects or subscribes goes on out of line.
  ///
  /// `route` is the route itself, handed to its closure rather than captured by it: a closure
  /// whose captures are all constants (the key path literal, the tag, the services' function)
  /// is specialised with them folded in, and one object among them would stop that, and read
  /// the key path through the runtime. Its `ModelPlace` is read from it out of line.
  @inlinable @inline(__always)
  func deliver<Child: ArborealModel, Key: Sendable>(
    _ action: Child.Action, to child: Child?, key: Key, environment: Child.Environment,
    at route: ChildRoute<Self>
  ) -> Fx<Action> {
    guard let child else { return dropForwarded(action, of: Child.self, key: key, at: route) }
    guard let fx = childEffects(of: child, action, environment) else { return Fx(storage: nil) }
    return forwarded(fx, of: child, key: key, environment: environment, at: route)
  }

  /// `deliver(_:to:key:environment:at:)` for a child that is always there.
  @inlinable @inline(__always)
  func deliver<Child: ArborealModel, Key: Sendable>(
    _ action: Child.Action, toHeld child: Child, key: Key, environment: Child.Environment,
    at route: ChildRoute<Self>
  ) -> Fx<Action> {
    guard let fx = childEffects(of: child, action, environment) else { return Fx(storage: nil) }
    return forwarded(fx, of: child, key: key, environment: environment, at: route)
  }

  /// `forwarded(_:of:key:environment:at:)` with the place read from its route.
  @inlinable
  func forwarded<Child: ArborealModel, Key: Sendable>(
    _ fx: Fx<Child.Action>, of child: Child, key: Key, environment: Child.Environment,
    at route: ChildRoute<Self>
  ) -> Fx<Action> {
    let place = unsafeDowncast(
      route.placeObject.unsafelyUnwrapped, to: ModelPlace<Self, Child, Key>.self)
    return forwarded(fx, of: child, key: key, environment: environment, at: place)
  }

  /// Sets a presented child or destination to nil, for a `.dismiss`; a second dismissal
  /// writes nothing (no change, no notification).
  @inlinable @inline(__always)
  func dismiss<Value>(_ path: ReferenceWritableKeyPath<Self, Value?>) -> Fx<Action> {
    if self[keyPath: path] != nil { self[keyPath: path] = nil }
    return Fx(storage: nil)
  }

  /// The effects (and subscriptions) of the child at `key` of `place`, made this model's: the
  /// way of a child that returned effects or subscribes, out of line. Also what a route's
  /// push or present, and the store's following of a route, call.
  @inlinable
  func forwarded<Child: ArborealModel, Key: Sendable>(
    _ fx: Fx<Child.Action>, of child: Child, key: Key, environment: Child.Environment,
    at place: ModelPlace<Self, Child, Key>
  ) -> Fx<Action> {
    wrap(fx, of: child, environment: environment, path: place.path, key: place.effectKey(key)) {
      ForwardRoute(
        dismissal: place.dismissal(key), read: { place.entries(self) },
        // A route's own place always embeds its children's actions (only a case's does not).
        tag: place.embedding(self, key).unsafelyUnwrapped)
    }
  }

  /// Starts the subscriptions of `child`, just put at `key` of `route` (pushed, presented).
  @usableFromInline
  func started<Child: ArborealModel, Key: Sendable>(
    _ child: Child, key: Key, environment: Child.Environment, at route: ChildRoute<Self>
  ) -> Fx<Action> {
    guard Child.subscribes else { return .none }
    return forwarded(.none, of: child, key: key, environment: environment, at: route)
  }

  /// Pops the screen `id` and those above it, for a `.popFrom(id:)` a stack's `forward`
  /// received; a pop of a screen that is gone writes nothing (no change, no notification)
  /// and is reported in debug builds. Inlined where the parent is compiled, so that the
  /// stack's key path literal is read and written directly.
  @inlinable @inline(__always)
  func popForwarded<Element: StackScreen, ScreenAction: Sendable>(
    _ action: StackAction<ScreenAction>, from id: StackElementID,
    in stack: ReferenceWritableKeyPath<Self, ModelStack<Element>>
  ) -> Fx<Action> {
    guard self[keyPath: stack][id: id] != nil else {
      dropForwarded(action, child: Element.self, path: stack, key: .stack(id))
      return Fx.dropped
    }
    self[keyPath: stack].pop(from: id)
    return Fx(storage: nil)
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
      dropForwarded(button, child: AlertState<AlertAction>.self, path: path, key: nil)
      return Fx.dropped
    }
    self[keyPath: path] = nil
    return Fx(storage: nil)
  }

  /// Drops an action for the child at `key` of `route`, which is not there. Out of line.
  @usableFromInline
  func dropForwarded<Child: ArborealModel, Key: Sendable>(
    _ action: Child.Action, of child: Child.Type, key: Key, at route: ChildRoute<Self>
  ) -> Fx<Action> {
    let place = unsafeDowncast(
      route.placeObject.unsafelyUnwrapped, to: ModelPlace<Self, Child, Key>.self)
    dropForwarded(action, child: Child.self, path: place.path, key: place.effectKey(key))
    return Fx.dropped
  }

  /// Reports an action for a child that is not there; debug builds only.
  @usableFromInline
  func dropForwarded(_ action: Any, child: Any.Type, path: AnyKeyPath, key: PlaceKey?) {
    #if DEBUG
      let place = PlaceNames.describe(child: child, at: path, key: key, in: self) {
        _ = self[keyPath: path]
      }
      ArborealDiagnostics.reportDroppedAction(
        "Arboreal: dropped \(action) sent to \(place): no such child is in its parent (it was "
          + "removed, dismissed or popped, or never there). Stop sending to it.")
    #endif
  }

  /// Makes a child's effects the parent's, owned by the child; adds its subscriptions.
  ///
  /// `route` is called only here, once the child returned effects or subscribes.
  @inlinable
  func wrap<Child: ArborealModel>(
    _ fx: Fx<Child.Action>,
    of child: Child,
    environment: Child.Environment,
    path: AnyKeyPath,
    key: PlaceKey?,
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
        effects.append(effect.tag(tag, scope: scope, link: link))
      }
    }
    if let subscriptions {
      effects.append(
        .subscribe(
          owners: [link], subscriptions.map { $0.tagged(tag, scope: scope, link: link) }))
    }
    return Fx(effects: effects)
  }

  /// Reports work returned together with `Fx.dismiss`: it belongs to the child, which the
  /// dismissal removes at once, so it is cancelled before it can deliver anything.
  @usableFromInline
  func reportEffectsDismissedWith<Child: ArborealModel>(
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

/// What a `forward` needs only when the child returned effects: how the parent tags them,
/// what a dismissal becomes, and how to read the place (the lifetime link's reader).
@usableFromInline
struct ForwardRoute<ChildAction: Sendable, Action: Sendable> {
  @usableFromInline
  let dismissal: Action?
  @usableFromInline
  let read: () -> [RouteEntry]
  @usableFromInline
  let tag: @Sendable (ChildAction) -> Action

  @usableFromInline
  init(
    dismissal: Action?, read: @escaping () -> [RouteEntry],
    tag: @escaping @Sendable (ChildAction) -> Action
  ) {
    self.dismissal = dismissal
    self.read = read
    self.tag = tag
  }
}

/// Runs a child's update and returns its effects, or nil when there is nothing to forward: no
/// effect, and a child that does not subscribe. The rule every `forward` applies, in one place
/// (`deliver`, and a case's `deliver`).
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
