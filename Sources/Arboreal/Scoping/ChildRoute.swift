import ArborealTracking

/// One place where a model holds child models, declared once: the parent's `forward`, view
/// stores and cancellations take it, and the model's ``ArborealModel/routes`` lists it so that
/// the store follows it and a child's lifetime is the child's own, however it entered the
/// state.
///
/// ```swift
/// static let path = ChildRoute.stack(\MeetingList.path, tag: Action.path)
/// static let routes: [ChildRoute<MeetingList>] = [path]
///
/// case .path(let action):
///   return forward(action, to: Self.path, environment: environment)
/// ```
///
/// Each factory returns a ``ModelRoute``, the typed route that `forward` and view stores take;
/// `routes` holds them as `ChildRoute`s. A route used only for its lifetimes can be written in
/// the list itself: `[.stack(\.path, tag: Action.path)]`.
///
/// A ``SubscribingModel`` child that a route holds has its subscriptions started as soon as it
/// is in the state (pushed, presented, inserted, assigned, or there when the store is made),
/// after the action that put it there, with no action sent to it; they end within the action
/// that removes it. Its own routes are followed in turn, so a grandchild's work starts and
/// ends the same way. ``Store/children`` lists every child the routes hold, by place.
///
/// A route names the parent's property, how the child's actions become the parent's (`tag`)
/// and the child's services. `forward` delivers actions; the route adds what happens without
/// one.
///
/// ## Cost
/// A model without routes costs nothing. The store reads each route once when it starts
/// following its parent, then after each transaction that changed what the route reads (O(*n*)
/// for a collection or a stack of *n*), as a `forward`'s lifetime watch does. A route whose
/// children neither subscribe nor declare routes is not followed, only listed.
///
/// Invariant (why `@unchecked Sendable` holds): every stored property is a `let` holding a
/// closure that captures only key paths (immutable values), closures that return key path
/// literals, and `@Sendable` closures; all but `isFollowed` and `hasFollowedChildren` run in
/// the isolation of the store whose model the route reads. A class so that a typed
/// ``ModelRoute`` is one, and an array literal of routes needs no conversion; not open: every
/// route is made by a factory.
public class ChildRoute<Parent: ArborealModel>: @unchecked Sendable {
  /// Whether any child the route can hold has something to follow: subscriptions or routes.
  let isFollowed: @Sendable () -> Bool
  /// Whether a child with something to follow was seen: what a `forward` through a route
  /// that ``ArborealModel/routes`` misses reports. The same as `isFollowed` for models of one
  /// type; learnt for an enumeration's cases, which are known only by their values.
  let hasFollowedChildren: @Sendable () -> Bool
  /// The parent's property the route names: with a parent instance, its place.
  let path: AnyKeyPath
  /// The children the route holds now, read through the parent's tracked properties by the
  /// reader of its kind (`RouteEntry.held` and its siblings).
  let entries: (Parent) -> [RouteEntry]
  /// Starts following the child of `entry` under `node`: its subscriptions and routes; nil
  /// when it has nothing to follow or the route no longer holds it.
  let enter: (ModelMountNode<Parent>, RouteEntry) -> MountNode?
  /// Lists the child of `entry` and its descendants under `place`.
  let list: (Parent, RouteEntry, String, inout [ChildPlace]) -> Void
  /// The route's `ModelPlace`, for a route to models of one type; nil for any other.
  @usableFromInline let placeObject: AnyObject?

  init(
    path: AnyKeyPath,
    isFollowed: @escaping @Sendable () -> Bool,
    hasFollowedChildren: (@Sendable () -> Bool)? = nil,
    entries: @escaping (Parent) -> [RouteEntry],
    enter: @escaping (ModelMountNode<Parent>, RouteEntry) -> MountNode?,
    list: @escaping (Parent, RouteEntry, String, inout [ChildPlace]) -> Void
  ) {
    self.path = path
    self.isFollowed = isFollowed
    self.hasFollowedChildren = hasFollowedChildren ?? isFollowed
    self.entries = entries
    self.enter = enter
    self.list = list
    self.placeObject = nil
  }

  /// A copy of `route`'s following, for a typed route made over it, with its own place.
  init(following route: ChildRoute, place: AnyObject?) {
    self.placeObject = place
    self.path = route.path
    self.isFollowed = route.isFollowed
    self.hasFollowedChildren = route.hasFollowedChildren
    self.entries = route.entries
    self.enter = route.enter
    self.list = route.list
  }
}

/// A child model found through ``ArborealModel/routes``, and its place in the state.
///
/// The place starts with the store's model type and names each property, identifier and
/// case on the way: `MeetingList.path[id: 2].detail.destination.editor`.
public struct ChildPlace: CustomStringConvertible {
  /// Where the child is: `MeetingList.path[id: 2].detail`.
  public let place: String
  /// The child model.
  public let model: any ArborealModel

  /// The place.
  public var description: String { place }
}

/// One child a route holds: its identity, its key (a collection's identifier, a stack's
/// element identifier) and, in an enumeration, its case.
@usableFromInline
struct RouteEntry {
  @usableFromInline let object: AnyObject
  @usableFromInline let key: PlaceKey?

  @inlinable
  init(object: AnyObject, key: PlaceKey?) {
    self.object = object
    self.key = key
  }

  var id: ObjectIdentifier { ObjectIdentifier(object) }

  /// `[id: 2]`, or nothing.
  var keyText: String { PlaceNames.keyText(key) }
}

// Each kind of place has one factory taking the child's services as a function of the parent's,
// and a twin for a child whose services are the parent's. A factory is always inlined, and its
// key path is an autoclosure, so that its `forward` closure, made where the parent is
// compiled, reads the caller's key path literal as a direct read (a captured key path is read
// through the key path runtime, about 740 instructions) and calls the child's update
// specialised; everything else about the place is its `ModelPlace`, made out of line.
// `forward-vs-tag` in `compare.sh` measures it.
extension ChildRoute {
  /// A child the parent always holds, whose services are the parent's.
  ///
  /// - Parameters:
  ///   - path: Where the parent holds the child.
  ///   - tag: Makes the parent's action of a child action: the one its `forward` takes.
  /// - Returns: The route.
  @inlinable @inline(__always)
  public static func child<Child: ArborealModel>(
    _ path: @autoclosure @escaping () -> KeyPath<Parent, Child>,
    tag: @escaping @Sendable (Child.Action) -> Parent.Action
  ) -> ModelRoute<Parent, Child, Held, Child.Action> where Child.Environment == Parent.Environment {
    child(path(), environment: { $0 }, tag: tag)
  }

  /// A child the parent always holds.
  ///
  /// - Parameters:
  ///   - path: Where the parent holds the child.
  ///   - environment: The child's services, from the parent's.
  ///   - tag: Makes the parent's action of a child action: the one its `forward` takes.
  /// - Returns: The route.
  @inlinable @inline(__always)
  public static func child<Child: ArborealModel>(
    _ path: @autoclosure @escaping () -> KeyPath<Parent, Child>,
    environment: @escaping @Sendable (Parent.Environment) -> Child.Environment,
    tag: @escaping @Sendable (Child.Action) -> Parent.Action
  ) -> ModelRoute<Parent, Child, Held, Child.Action> {
    let place = ModelPlace.held(path(), entries: { .held($0, path()) }, tag: tag)
    return ModelRoute(place, environment: environment) { parent, action, services, route in
      parent.deliver(
        action, toHeld: parent[keyPath: path()], key: Held(),
        environment: environment(services), at: route)
    }
  }

  /// An optional child whose services are the parent's, forwarded with plain child actions.
  ///
  /// - Parameters:
  ///   - path: Where the parent holds the child.
  ///   - tag: Makes the parent's action of a child action: the one its `forward` takes.
  /// - Returns: The route.
  @inlinable @inline(__always)
  public static func child<Child: ArborealModel>(
    _ path: @autoclosure @escaping () -> KeyPath<Parent, Child?>,
    tag: @escaping @Sendable (Child.Action) -> Parent.Action
  ) -> ModelRoute<Parent, Child, Void, Child.Action> where Child.Environment == Parent.Environment {
    child(path(), environment: { $0 }, tag: tag)
  }

  /// An optional child, forwarded with plain child actions.
  ///
  /// - Parameters:
  ///   - path: Where the parent holds the child.
  ///   - environment: The child's services, from the parent's.
  ///   - tag: Makes the parent's action of a child action: the one its `forward` takes.
  /// - Returns: The route.
  @inlinable @inline(__always)
  public static func child<Child: ArborealModel>(
    _ path: @autoclosure @escaping () -> KeyPath<Parent, Child?>,
    environment: @escaping @Sendable (Parent.Environment) -> Child.Environment,
    tag: @escaping @Sendable (Child.Action) -> Parent.Action
  ) -> ModelRoute<Parent, Child, Void, Child.Action> {
    let place = ModelPlace.optional(
      path(), entries: { .optional($0, path()) }, embed: tag, dismissal: nil)
    return ModelRoute(place, environment: environment) { parent, action, services, route in
      parent.deliver(
        action, to: parent[keyPath: path()], key: (), environment: environment(services),
        at: route)
    }
  }

  /// A presented child whose services are the parent's (a sheet, a pushed detail), forwarded
  /// with ``PresentationAction``.
  ///
  /// - Parameters:
  ///   - path: Where the parent holds the child.
  ///   - tag: Makes the parent's action of a presentation action: the one its `forward` takes.
  /// - Returns: The route.
  @inlinable @inline(__always)
  public static func child<Child: ArborealModel>(
    _ path: @autoclosure @escaping () -> ReferenceWritableKeyPath<Parent, Child?>,
    tag: @escaping @Sendable (PresentationAction<Child.Action>) -> Parent.Action
  ) -> ModelRoute<Parent, Child, Void, PresentationAction<Child.Action>>
  where Child.Environment == Parent.Environment {
    child(path(), environment: { $0 }, tag: tag)
  }

  /// A presented child, forwarded with ``PresentationAction``: `.dismiss` sets it to nil, and
  /// a child that returns ``Fx/dismiss`` makes the parent receive `.dismiss`.
  ///
  /// - Parameters:
  ///   - path: Where the parent holds the child.
  ///   - environment: The child's services, from the parent's.
  ///   - tag: Makes the parent's action of a presentation action: the one its `forward` takes.
  /// - Returns: The route.
  @inlinable @inline(__always)
  public static func child<Child: ArborealModel>(
    _ path: @autoclosure @escaping () -> ReferenceWritableKeyPath<Parent, Child?>,
    environment: @escaping @Sendable (Parent.Environment) -> Child.Environment,
    tag: @escaping @Sendable (PresentationAction<Child.Action>) -> Parent.Action
  ) -> ModelRoute<Parent, Child, Void, PresentationAction<Child.Action>> {
    let place = ModelPlace.optional(
      path(), entries: { .optional($0, path()) }, embed: { tag(.presented($0)) },
      dismissal: tag(.dismiss))
    return ModelRoute(
      place, environment: environment,
      insert: { parent, child, services, route in
        parent[keyPath: path()] = child
        return parent.started(child, key: (), environment: environment(services), at: route)
      }
    ) { parent, action, services, route in
      switch action {
      case .dismiss:
        return parent.dismiss(path())
      case .presented(let action):
        return parent.deliver(
          action, to: parent[keyPath: path()], key: (), environment: environment(services),
          at: route)
      }
    }
  }

  /// The children of a collection, each found by its identifier, whose services are the
  /// parent's.
  ///
  /// - Parameters:
  ///   - path: Where the parent holds its children.
  ///   - tag: Makes the parent's action of a child's identifier and action: the one its
  ///     `forward` takes (`Action.row` for `case row(id: Row.ID, Row.Action)`).
  /// - Returns: The route.
  @inlinable @inline(__always)
  public static func children<Children: Collection>(
    _ path: @autoclosure @escaping () -> KeyPath<Parent, Children>,
    tag: @escaping @Sendable (Children.Element.ID, Children.Element.Action) -> Parent.Action
  ) -> ModelRoute<
    Parent, Children.Element, Children.Element.ID, (Children.Element.ID, Children.Element.Action)
  >
  where
    Children.Element: ArborealModel & Identifiable, Children.Element.ID: Sendable,
    Children.Element.Environment == Parent.Environment
  {
    children(path(), environment: { $0 }, tag: tag)
  }

  /// The children of a collection, each found by its identifier.
  ///
  /// - Parameters:
  ///   - path: Where the parent holds its children.
  ///   - environment: The children's services, from the parent's.
  ///   - tag: Makes the parent's action of a child's identifier and action: the one its
  ///     `forward` takes (`Action.row` for `case row(id: Row.ID, Row.Action)`).
  /// - Returns: The route.
  @inlinable @inline(__always)
  public static func children<Children: Collection>(
    _ path: @autoclosure @escaping () -> KeyPath<Parent, Children>,
    environment: @escaping @Sendable (Parent.Environment) -> Children.Element.Environment,
    tag: @escaping @Sendable (Children.Element.ID, Children.Element.Action) -> Parent.Action
  ) -> ModelRoute<
    Parent, Children.Element, Children.Element.ID, (Children.Element.ID, Children.Element.Action)
  >
  where Children.Element: ArborealModel & Identifiable, Children.Element.ID: Sendable {
    let place = ModelPlace.collection(
      path(), entries: { .collection($0, path()) }, tag: tag)
    return ModelRoute(
      place, environment: environment,
      forwardChild: { parent, child, action, services, route in
        parent.deliver(
          action, to: child, key: child.id, environment: environment(services), at: route)
      }
    ) { parent, input, services, route in
      parent.deliver(
        input.1, to: parent[keyPath: path()].first { $0.id == input.0 }, key: input.0,
        environment: environment(services), at: route)
    }
  }

  /// A navigation stack of one kind of screen whose services are the parent's.
  ///
  /// - Parameters:
  ///   - path: Where the parent holds the stack.
  ///   - tag: Makes the parent's action of a stack action: the one its `forward` takes.
  /// - Returns: The route.
  @inlinable @inline(__always)
  public static func stack<Element: ArborealModel>(
    _ path: @autoclosure @escaping () -> ReferenceWritableKeyPath<Parent, ModelStack<Element>>,
    tag: @escaping @Sendable (StackAction<Element.Action>) -> Parent.Action
  ) -> ModelRoute<Parent, Element, StackElementID, StackAction<Element.Action>>
  where Element.Environment == Parent.Environment {
    stack(path(), environment: { $0 }, tag: tag)
  }

  /// A navigation stack of one kind of screen: `.popFrom(id:)` pops, and a screen that returns
  /// ``Fx/dismiss`` makes the parent receive `.popFrom(id:)` for it.
  ///
  /// - Parameters:
  ///   - path: Where the parent holds the stack.
  ///   - environment: The screens' services, from the parent's.
  ///   - tag: Makes the parent's action of a stack action: the one its `forward` takes.
  /// - Returns: The route.
  @inlinable @inline(__always)
  public static func stack<Element: ArborealModel>(
    _ path: @autoclosure @escaping () -> ReferenceWritableKeyPath<Parent, ModelStack<Element>>,
    environment: @escaping @Sendable (Parent.Environment) -> Element.Environment,
    tag: @escaping @Sendable (StackAction<Element.Action>) -> Parent.Action
  ) -> ModelRoute<Parent, Element, StackElementID, StackAction<Element.Action>> {
    let place = ModelPlace.stack(path(), entries: { .stack($0, path()) }, tag: tag)
    return ModelRoute(
      place, environment: environment,
      insert: { parent, screen, services, route in
        let id = parent[keyPath: path()].push(screen)
        return parent.started(screen, key: id, environment: environment(services), at: route)
      }
    ) { parent, action, services, route in
      switch action {
      case .popFrom(let id):
        return parent.popForwarded(action, from: id, in: path())
      case .element(let id, let action):
        return parent.deliver(
          action, to: parent[keyPath: path()][id: id], key: id,
          environment: environment(services), at: route)
      }
    }
  }

  /// A navigation stack of several kinds of screen whose services are the parent's.
  ///
  /// - Parameters:
  ///   - path: Where the parent holds the stack.
  ///   - tag: Makes the parent's action of a stack action: the one its `forward` takes.
  /// - Returns: The route.
  @inlinable @inline(__always)
  public static func stack<Cases: ModelCases>(
    _ path: @autoclosure @escaping () -> ReferenceWritableKeyPath<Parent, ModelStack<Cases>>,
    tag: @escaping @Sendable (StackAction<Cases.Action>) -> Parent.Action
  ) -> CasesRoute<Parent, Cases, StackElementID, StackAction<Cases.Action>>
  where Cases.Environment == Parent.Environment {
    stack(path(), environment: { $0 }, tag: tag)
  }

  /// A navigation stack of several kinds of screen, each found through its case.
  ///
  /// - Parameters:
  ///   - path: Where the parent holds the stack.
  ///   - environment: The services of the screens' enumeration, from the parent's.
  ///   - tag: Makes the parent's action of a stack action: the one its `forward` takes.
  /// - Returns: The route.
  @inlinable @inline(__always)
  public static func stack<Cases: ModelCases>(
    _ path: @autoclosure @escaping () -> ReferenceWritableKeyPath<Parent, ModelStack<Cases>>,
    environment: @escaping @Sendable (Parent.Environment) -> Cases.Environment,
    tag: @escaping @Sendable (StackAction<Cases.Action>) -> Parent.Action
  ) -> CasesRoute<Parent, Cases, StackElementID, StackAction<Cases.Action>> {
    caseStackRoute(path(), environment: environment, tag: tag) { parent, action, services, route in
      switch action {
      case .popFrom(let id):
        return parent.popForwarded(action, from: id, in: path())
      case .element(let id, let action):
        return parent.forwardCase(
          action, to: parent[keyPath: path()][id: id], environment: environment(services)
        ) { .screen(id, of: path(), tag: tag) }
      }
    }
  }

  /// An enumeration of destinations (sheets, alerts, dialogs) whose services are the parent's.
  ///
  /// - Parameters:
  ///   - path: Where the parent holds the destination.
  ///   - tag: Makes the parent's action of a presentation action: the one its `forward` takes.
  /// - Returns: The route.
  @inlinable @inline(__always)
  public static func destination<Cases: ModelCases>(
    _ path: @autoclosure @escaping () -> ReferenceWritableKeyPath<Parent, Cases?>,
    tag: @escaping @Sendable (PresentationAction<Cases.Action>) -> Parent.Action
  ) -> CasesRoute<Parent, Cases, Void, PresentationAction<Cases.Action>>
  where Cases.Environment == Parent.Environment {
    destination(path(), environment: { $0 }, tag: tag)
  }

  /// An enumeration of destinations (TCA's `ifLet` over a `@Reducer enum Destination`): sends
  /// each action to the child of its case, closes an alert when one of its buttons is chosen,
  /// and sets the destination to nil on ``PresentationAction/dismiss``. An action for a case
  /// that is not the one presented is dropped, and reported in debug builds.
  ///
  /// - Parameters:
  ///   - path: Where the parent holds the destination.
  ///   - environment: The services of the enumeration, from the parent's.
  ///   - tag: Makes the parent's action of a presentation action: the one its `forward` takes.
  /// - Returns: The route.
  @inlinable @inline(__always)
  public static func destination<Cases: ModelCases>(
    _ path: @autoclosure @escaping () -> ReferenceWritableKeyPath<Parent, Cases?>,
    environment: @escaping @Sendable (Parent.Environment) -> Cases.Environment,
    tag: @escaping @Sendable (PresentationAction<Cases.Action>) -> Parent.Action
  ) -> CasesRoute<Parent, Cases, Void, PresentationAction<Cases.Action>> {
    destinationRoute(path(), environment: environment, tag: tag) {
      parent, action, services, route in
      switch action {
      case .dismiss:
        return parent.dismiss(path())
      case .presented(let action):
        // Read here, where a literal key path folds into a direct read.
        return parent.forwardCase(
          action, to: parent[keyPath: path()], environment: environment(services)
        ) { .destination(path(), tag: tag) }
      }
    }
  }

  /// An alert or a confirmation dialog the parent shows: a value, not a model. Its `forward`
  /// closes it on any button and on ``PresentationAction/dismiss``, and returns an `Fx` whose
  /// ``Fx/isDropped`` is true for a button's action that came with no alert up (reported in
  /// debug builds), so the parent acts on a button in one line and never without its alert:
  ///
  /// ```swift
  /// @Tracked private(set) var alert: AlertState<Action.AlertAction>?
  /// static let alert = ChildRoute.alert(\Meeting.alert, tag: Action.alert)
  ///
  /// case .alert(let action):
  ///   let fx = forward(action, to: Self.alert, environment: environment)
  ///   guard !fx.isDropped, case .presented(.confirmDelete) = action else { return fx }
  ///   isDeleted = true
  ///   return fx
  /// ```
  ///
  /// An alert that is one case of an enumeration of destinations is routed by the
  /// enumeration (``ModelCases``), with the same behaviour.
  ///
  /// - Parameters:
  ///   - path: Where the parent holds the alert; writable, to close it.
  ///   - tag: The parent's action of the alert's actions: the one its `forward` takes.
  /// - Returns: The route.
  @inlinable @inline(__always)
  public static func alert<AlertAction: Sendable>(
    _ path:
      @autoclosure @escaping () -> ReferenceWritableKeyPath<
        Parent, AlertState<AlertAction>?
      >,
    tag: @escaping @Sendable (PresentationAction<AlertAction>) -> Parent.Action
  ) -> InputRoute<Parent, PresentationAction<AlertAction>> {
    alertRoute(path()) { parent, action, _, _ in parent.forwardAlert(action, at: path()) }
  }

  // MARK: Out of line

  /// The rest of `alert(_:tag:)`: an alert holds no model, so the route has no children to
  /// follow or list.
  @usableFromInline
  static func alertRoute<AlertAction: Sendable>(
    _ path: ReferenceWritableKeyPath<Parent, AlertState<AlertAction>?>,
    forward: @escaping RouteForward<Parent, PresentationAction<AlertAction>>
  ) -> InputRoute<Parent, PresentationAction<AlertAction>> {
    let following = ChildRoute(
      path: path, isFollowed: { false }, entries: { _ in [] }, enter: { _, _ in nil },
      list: { _, _, _, _ in })
    return InputRoute(following: following, forward: forward)
  }

  /// The rest of `stack(_:environment:tag:)` for several kinds of screen.
  @usableFromInline
  static func caseStackRoute<Cases: ModelCases>(
    _ path: ReferenceWritableKeyPath<Parent, ModelStack<Cases>>,
    environment: @escaping @Sendable (Parent.Environment) -> Cases.Environment,
    tag: @escaping @Sendable (StackAction<Cases.Action>) -> Parent.Action,
    forward: @escaping RouteForward<Parent, StackAction<Cases.Action>>
  ) -> CasesRoute<Parent, Cases, StackElementID, StackAction<Cases.Action>> {
    nonisolated(unsafe) let path = path  // Immutable: sharing it cannot race.
    let following = cases(
      of: Cases.self, path, environment: environment,
      entries: { .caseStack($0, path) },
      place: { parent, key in
        // A stack's entries are keyed by their element identifiers, so the cast holds.
        guard case .stack(let id)? = key else { return nil }
        return parent[keyPath: path][id: id].map { ($0, CasePlace.screen(id, of: path, tag: tag)) }
      })
    return CasesRoute(
      following: following, forward: forward,
      find: { parent, id in parent[keyPath: path][id: id] },
      all: { parent in parent[keyPath: path].screensWithIDs },
      embed: { id, action in tag(.element(id: id, action: action)) },
      effectKey: { .stack($0) },
      keyName: { "\(Cases.self)[\(String(reflecting: $0))]" },
      insert: { parent, screen, services, _ in
        let id = parent[keyPath: path].push(screen)
        return parent.startCase(
          screen, at: .screen(id, of: path, tag: tag), environment: environment(services))
      })
  }

  /// The rest of `destination(_:environment:tag:)`.
  @usableFromInline
  static func destinationRoute<Cases: ModelCases>(
    _ path: ReferenceWritableKeyPath<Parent, Cases?>,
    environment: @escaping @Sendable (Parent.Environment) -> Cases.Environment,
    tag: @escaping @Sendable (PresentationAction<Cases.Action>) -> Parent.Action,
    forward: @escaping RouteForward<Parent, PresentationAction<Cases.Action>>
  ) -> CasesRoute<Parent, Cases, Void, PresentationAction<Cases.Action>> {
    nonisolated(unsafe) let path = path  // Immutable: sharing it cannot race.
    let following = cases(
      of: Cases.self, path, environment: environment,
      entries: { .destination($0, path) },
      place: { parent, _ in
        parent[keyPath: path].map { ($0, CasePlace.destination(path, tag: tag)) }
      })
    return CasesRoute(
      following: following, forward: forward,
      find: { parent, _ in parent[keyPath: path] },
      all: { parent in parent[keyPath: path].map { [((), $0)] } ?? [] },
      embed: { _, action in tag(.presented(action)) }, effectKey: { _ in nil },
      keyName: { _ in "\(Cases.self) (presented in \(Parent.self))" },
      insert: { parent, destination, services, _ in
        parent[keyPath: path] = destination
        return parent.startCase(
          destination, at: .destination(path, tag: tag), environment: environment(services))
      })
  }

  // MARK: Builders

  /// What the store follows of a route whose children are models of one type, read from its
  /// place: the one description `forward`, view stores and cancellations read too.
  static func models<Child: ArborealModel, Key>(
    _ place: ModelPlace<Parent, Child, Key>,
    environment: @escaping @Sendable (Parent.Environment) -> Child.Environment
  ) -> ChildRoute {
    let (path, entries) = (place.path, place.entries)
    return ChildRoute(
      path: path, isFollowed: { Child.subscribes || !Child.routes.isEmpty },
      entries: entries,
      enter: { node, entry in
        guard let child = entry.object as? Child, let key = place.key(entry) else { return nil }
        let parent = node.model
        return node.enter(
          child, environment: environment(node.environment),
          place: ChildRoute.place(of: entry, under: node.place, in: node.model, path, entries),
          wrap: { [weak parent] fx, environment in
            parent?.forwarded(fx, of: child, key: key, environment: environment, at: place)
          })
      },
      list: { parent, entry, place, places in
        guard let child = entry.object as? Child else { return }
        ChildPlace.list(
          child, at: ChildRoute.place(of: entry, under: place, in: parent, path, entries),
          into: &places)
      })
  }

  /// `prefix.property[id: key]`: the place of the child of `entry`, the property named after
  /// the tracked property that `entries` reads.
  private static func place(
    of entry: RouteEntry, under prefix: String, in parent: Parent, _ path: AnyKeyPath,
    _ entries: (Parent) -> [RouteEntry]
  ) -> String {
    PlaceNames.place(
      under: prefix, property: PlaceNames.name(of: path, in: parent) { _ = entries(parent) },
      key: entry.key)
  }

  /// A route whose children are the models an enumeration's cases hold.
  private static func cases<Cases: ModelCases>(
    of cases: Cases.Type, _ path: AnyKeyPath,
    environment: @escaping @Sendable (Parent.Environment) -> Cases.Environment,
    entries: @escaping (Parent) -> [RouteEntry],
    place: @escaping (Parent, PlaceKey?) -> (Cases, CasePlace<Parent, Cases>)?
  ) -> ChildRoute {
    return ChildRoute(
      // The cases are known only by their values: a route of cases is followed, and each
      // child that has nothing to follow is left alone when it enters.
      path: path, isFollowed: { true },
      hasFollowedChildren: { FollowedCases.contains(Cases.self) },
      entries: entries,
      enter: { node, entry in
        guard let (value, casePlace) = place(node.model, entry.key) else { return nil }
        let held = value.child
        let kind = held.kind
        guard kind.isFollowed else { return nil }
        let prefix = ChildRoute.place(of: entry, under: node.place, in: node.model, path, entries)
        return kind.enter(
          held, under: node, at: casePlace, environment: environment(node.environment),
          place: prefix + "." + value.caseName)
      },
      list: { parent, entry, prefix, places in
        guard let (value, _) = place(parent, entry.key) else { return }
        let held = value.child
        let kind = held.kind
        let prefix = ChildRoute.place(of: entry, under: prefix, in: parent, path, entries)
        kind.list(held, at: prefix + "." + value.caseName, into: &places)
      })
  }
}

extension ChildPlace {
  /// Appends `child` at `place`, then its descendants, depth first in the order of its routes.
  static func list<Child: ArborealModel>(
    _ child: Child, at place: String, into places: inout [ChildPlace]
  ) {
    places.append(ChildPlace(place: place, model: child))
    for route in Child.routes {
      for entry in route.entries(child) {
        route.list(child, entry, place, &places)
      }
    }
  }
}

/// How a child's place is named, the one way every message and listing names it:
/// `prefix.property[id: key]`, the prefix being the parent's own place (`MeetingList.path[id:
/// 2].detail`) or, for a parent whose place is not known, its type (`Album.photos[id: 5]`).
/// ``Store/children``, the test store's reports of new models, and the debug reports of a
/// dropped action or of an action no update forwarded all name places here. The names of the
/// properties are learnt once per parent type and key path.
enum PlaceNames {
  private static let known = Locked.make([RouteKey: String]())

  /// `prefix.property[id: key]`.
  static func place(under prefix: String, property: String, key: PlaceKey?) -> String {
    prefix + "." + property + keyText(key)
  }

  /// `[id: 2]` (a stack's element identifier by its number), or nothing.
  static func keyText(_ key: PlaceKey?) -> String {
    guard let key else { return "" }
    let text = if case .stack(let id) = key { "\(id.rawValue)" } else { "\(key.base)" }
    return "[id: \(text)]"
  }

  /// The place of the child of `parent` at `path` with `key`, followed by the child's type
  /// (`Gallery.albums[id: 2].photos[id: 5] (Photo)`), for a message: under the parent's place
  /// in the store whose update runs on this thread, or under the parent's type.
  ///
  /// - Parameter read: Reads the property through the parent's tracked properties.
  static func describe(
    child: Any.Type, at path: AnyKeyPath, key: PlaceKey?, in parent: AnyObject,
    reading read: () -> Void
  ) -> String {
    let prefix = PlaceRegistry.place(of: parent) ?? "\(type(of: parent))"
    let property =
      (parent as? any Trackable).map { name(of: path, in: $0, reading: read) }
      ?? storedName(of: path)
    return place(under: prefix, property: property, key: key) + " (\(child))"
  }

  /// The declared name of the property `path` names, found from the tracked property that
  /// `read` reads (a `@Tracked` key path prints as a computed one), or the key path's own
  /// text for a stored property.
  static func name(
    of path: AnyKeyPath, in parent: any Trackable, reading read: () -> Void
  ) -> String {
    let key = RouteKey(parent: ObjectIdentifier(type(of: parent)), path: path)
    if let name = known.withLock({ $0[key] }) { return name }
    let (_, accesses) = withAccessRecording { read() }
    let name =
      trackedProperties(of: parent).first { $0.isRead(in: accesses) }?.name
      ?? storedName(of: path)
    known.withLock { $0[key] = name }
    return name
  }

  /// `editor` for `\Form.editor`; the key path's text when it is not a plain property.
  private static func storedName(of path: AnyKeyPath) -> String {
    let written = String(reflecting: path)
    guard let dot = written.firstIndex(of: ".") else { return written }
    return String(written[written.index(after: dot)...])
  }
}

/// Debug reports that name a model by its place (`Gallery.albums[id: 2].photos[id: 5]
/// (Photo)`): a `forward` does not know its store, but the store whose update
/// runs on this thread is in `ThreadSlots.updatingStore` (debug builds set it around each
/// update, in every isolation), and it is read there, in its own isolation.
enum PlaceRegistry {
  /// The place of `model` in the store whose update runs on this thread; nil when none does
  /// or it does not hold the model.
  ///
  /// - Complexity: O(*n*) for the *n* children of the store.
  static func place(of model: AnyObject) -> String? {
    (ThreadSlots.updatingStore as? any ChildPlaceNaming)?.childPlace(of: model)
  }
}

/// A store, seen by `PlaceRegistry`: it names its children's places.
protocol ChildPlaceNaming: AnyObject {
  /// The place of `model` among the store's children, or nil.
  func childPlace(of model: AnyObject) -> String?
}
