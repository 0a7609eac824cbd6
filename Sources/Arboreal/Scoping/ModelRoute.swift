import ArborealTracking

/// A route declared once and used everywhere a child is reached: in ``ArborealModel/routes``,
/// in the parent's `forward`, in a view store and in a cancellation.
///
/// ```swift
/// final class MeetingDetail: ArborealModel {
///   static let destination = ChildRoute.destination(
///     \MeetingDetail.destination, tag: Action.destination)
///   static let routes: [ChildRoute<MeetingDetail>] = [destination]
///
///   func update(action: Action, environment: Environment) -> Fx<Action> {
///     switch action {
///     case .destination(let action):
///       return forward(action, to: Self.destination, environment: environment)
///     …
///
/// let editor = store.viewStore(MeetingDetail.destination, case: Destination.editor)
/// ```
///
/// Every factory of ``ChildRoute`` makes one. Its type says what the parent holds (`Held`: the
/// child, an optional child, a collection, a ``ModelStack``, an optional enumeration) and what
/// its `forward` takes (`Input`: the child's action, a ``PresentationAction``, a
/// ``StackAction``, or a collection's identifier and action), so a route used in the wrong
/// place, or a tag that does not fit the property, is a compile error. The spelled-out
/// `forward(_:to:environment:tag:)` and `viewStore(get:tag:)` forms remain for a child reached
/// once; a route does the same through them.
///
/// Invariant (why `@unchecked Sendable` holds): `path` is an immutable key path, `tag` is
/// `@Sendable`, and `forward` only runs on the main actor.
public final class ModelRoute<Parent: ArborealModel, Held, Input>: ChildRoute<Parent>,
  @unchecked Sendable
{
  /// Where the parent holds the child or children.
  let path: KeyPath<Parent, Held>
  /// Makes the parent's action of what `forward` takes.
  let tag: @Sendable (Input) -> Parent.Action
  /// Sends `Input` to the child, from the parent's services, and returns the child's effects
  /// as the parent's.
  let forward: RouteForward<Parent, Input>

  init(
    following route: ChildRoute<Parent>, path: KeyPath<Parent, Held>,
    tag: @escaping @Sendable (Input) -> Parent.Action,
    forward: @escaping RouteForward<Parent, Input>
  ) {
    self.path = path
    self.tag = tag
    self.forward = forward
    super.init(following: route)
  }
}

/// A route's `forward`: sends what the parent's `forward` takes to the child, from the parent's
/// services, and returns the child's effects as the parent's. Made in the module that declares
/// the route (the factories are inlinable), so that it is specialised for its models.
@usableFromInline
typealias RouteForward<Parent: ArborealModel, Input> =
  (Parent, Input, Parent.Environment) -> Fx<Parent.Action>

// MARK: - Forward

extension ArborealModel {
  /// Sends `input` to the child `route` reaches, and returns the child's effects as this
  /// model's: the one line a parent writes per route.
  ///
  /// ```swift
  /// case .destination(let action):
  ///   return forward(action, to: Self.destination, environment: environment)
  /// case .path(let action):
  ///   return forward(action, to: Self.path, environment: environment)
  /// ```
  ///
  /// The same as the `forward` the route's kind spells out (with the route's key path, its
  /// `environment` applied to `environment`, and its tag): a presentation dismisses on
  /// `.dismiss`, a stack pops on `.popFrom(id:)`, an absent child drops the action and reports
  /// it in debug builds. In debug builds, a route whose children subscribe or declare routes
  /// of their own, but which this model's ``ArborealModel/routes`` does not list, is reported
  /// once to ``ArborealDiagnostics/droppedActionHandler``: without it, their work would start
  /// only when an action reaches them.
  ///
  /// - Parameters:
  ///   - input: What the route's `forward` takes: the child's action, a
  ///     ``PresentationAction`` or a ``StackAction``.
  ///   - route: The route, declared once (`static let destination = ChildRoute.destination(…)`).
  ///   - environment: This model's services; the route makes the child's.
  /// - Returns: The child's effects, tagged.
  /// - Complexity: That of the route's kind of `forward`.
  public func forward<Held, Input>(
    _ input: Input, to route: ModelRoute<Self, Held, Input>, environment: Environment
  ) -> Fx<Action> {
    let fx = route.forward(self, input, environment)
    #if DEBUG
      RouteDeclarations.check(route)
    #endif
    return fx
  }

  /// Sends a child action to the child with `id` in the collection `route` reaches, and
  /// returns the child's effects as this model's.
  ///
  /// ```swift
  /// case .row(let id, let action):
  ///   return forward(action, to: Self.rows, id: id, environment: environment)
  /// ```
  ///
  /// The same as ``forward(_:to:id:environment:tag:)-(_,_,_,_,(Children.Element.ID,Children.Element.Action)->Self.Action)``
  /// with the route's key path, services and tag.
  ///
  /// - Parameters:
  ///   - action: The child's action.
  ///   - route: The route, declared once (`static let rows = ChildRoute.children(…)`).
  ///   - id: The child's identifier.
  ///   - environment: This model's services; the route makes the child's.
  /// - Returns: The child's effects, tagged; ``Fx/none`` when there is no such child.
  /// - Complexity: O(*n*) to find the child among *n*, plus the child's update.
  public func forward<Children: Collection>(
    _ action: Children.Element.Action,
    to route: ModelRoute<Self, Children, (Children.Element.ID, Children.Element.Action)>,
    id: Children.Element.ID,
    environment: Environment
  ) -> Fx<Action> where Children.Element: ArborealModel & Identifiable {
    #if DEBUG
      RouteDeclarations.check(route)
    #endif
    return route.forward(self, (id, action), environment)
  }
}

/// The routes `forward` was given that their model's `routes` does not list, reported once
/// each. Debug builds only.
enum RouteDeclarations {
  private static let checked = Locked.make(Set<ObjectIdentifier>())

  static func check<Parent: ArborealModel, Held, Input>(_ route: ModelRoute<Parent, Held, Input>) {
    // Listed as this instance, or as another made the same way (a computed `static var`).
    guard checked.withLock({ $0.insert(ObjectIdentifier(route)).inserted }), route.hasFollowedChildren(),
      !Parent.routes.contains(where: {
        $0 === route || ($0 as? ModelRoute<Parent, Held, Input>)?.path == route.path
      })
    else { return }
    ArborealDiagnostics.reportDroppedAction(
      "Arboreal: \(Parent.self) forwards to a route over \(Held.self) that "
        + "\(Parent.self).routes does not list, so its children's subscriptions start only "
        + "when an action reaches them. Add it: `static let routes: [ChildRoute<\(Parent.self)>] "
        + "= [...]` with the same value the `forward` takes.")
  }
}

// MARK: - View stores

extension ArborealStore {
  /// A view store scoped to the child a route reaches, which the parent always holds.
  ///
  /// ```swift
  /// let counter = store.viewStore(AppModel.counter)
  /// counter.send(.increment)  // store receives .counter(.increment)
  /// ```
  ///
  /// - Parameter route: The route, declared once with ``ChildRoute/child(_:tag:)-(KeyPath<Parent,Child>,_)``.
  /// - Returns: The view store; it keeps this store alive.
  public func viewStore<Child: ArborealModel>(
    _ route: ModelRoute<Model, Child, Child.Action>
  ) -> ViewStore<Child> {
    let (path, tag) = (route.path, route.tag)
    return viewStore(get: { $0[keyPath: path] }, tag: tag)
  }

  /// A view store scoped to the optional child a route reaches; nil while there is none.
  ///
  /// ```swift
  /// if let detail = store.viewStore(AppModel.detail) { render(detail) }
  /// ```
  ///
  /// - Parameter route: The route, declared once with `ChildRoute.child(\Parent.detail, tag:)`.
  /// - Returns: The view store, or nil; it keeps this store alive.
  public func viewStore<Child: ArborealModel>(
    _ route: ModelRoute<Model, Child?, Child.Action>
  ) -> ViewStore<Child>? {
    let (path, tag) = (route.path, route.tag)
    return viewStore(get: { $0[keyPath: path] }, tag: tag)
  }

  /// A view store scoped to the presented child a route reaches; nil while none is presented.
  /// Its actions reach the parent wrapped in ``PresentationAction/presented(_:)``.
  ///
  /// ```swift
  /// if let editor = store.viewStore(MeetingDetail.editor) { render(editor) }
  /// ```
  ///
  /// - Parameter route: The route, declared once with `ChildRoute.child(\Parent.editor, tag:)`
  ///   over a writable optional and a presentation tag.
  /// - Returns: The view store, or nil; it keeps this store alive.
  public func viewStore<Child: ArborealModel>(
    _ route: ModelRoute<Model, Child?, PresentationAction<Child.Action>>
  ) -> ViewStore<Child>? {
    let path = route.path
    return viewStore(presented: { $0[keyPath: path] }, tag: route.tag)
  }

  /// A view store scoped to the child with `id` in the collection a route reaches; nil when
  /// there is none.
  ///
  /// ```swift
  /// let row = store.viewStore(Todos.rows, id: id)
  /// ```
  ///
  /// - Parameters:
  ///   - route: The route, declared once with ``ChildRoute/children(_:tag:)``.
  ///   - id: The child's identifier.
  /// - Returns: The view store, or nil; it keeps this store alive.
  /// - Complexity: O(*n*) for *n* children, on each read of its state.
  public func viewStore<Children: Collection>(
    _ route: ModelRoute<Model, Children, (Children.Element.ID, Children.Element.Action)>,
    id: Children.Element.ID
  ) -> ViewStore<Children.Element>? where Children.Element: ArborealModel & Identifiable {
    let (path, tag) = (route.path, route.tag)
    return viewStore(
      key: id, get: { model, id in model[keyPath: path].first { $0.id == id } },
      tag: { id, action in tag((id, action)) })
  }

  /// View stores for every child of the collection a route reaches, in its order.
  ///
  /// ```swift
  /// for row in store.viewStores(Todos.rows) { render(row) }
  /// ```
  ///
  /// - Parameter route: The route, declared once with ``ChildRoute/children(_:tag:)``.
  /// - Returns: One view store per child; empty when this store's model is gone.
  /// - Complexity: O(*n*) for *n* children; each view store's state is then found by its
  ///   identifier, O(*n*) on each read, as a keyed view store's.
  public func viewStores<Children: Collection>(
    _ route: ModelRoute<Model, Children, (Children.Element.ID, Children.Element.Action)>
  ) -> [ViewStore<Children.Element>] where Children.Element: ArborealModel & Identifiable {
    guard let model = presentState else { return [] }
    let (path, tag) = (route.path, route.tag)
    // Each made with its child in hand: finding each by its identifier would be O(n²).
    return model[keyPath: path].map { child in
      let id = child.id
      return ViewStore(
        child: child,
        resolve: { self.presentState.flatMap { $0[keyPath: path].first { $0.id == id } } },
        isParentPresent: { self.isPresent },
        keyName: "\(Children.Element.self)[\(String(reflecting: id))]",
        parentType: Model.self,
        forward: { action in self.send(tag((id, action))) })
    }
  }

  /// A view store scoped to the screen with `id` on the stack a route reaches; nil when it is
  /// not on the stack. Its actions reach the parent as ``StackAction/element(id:action:)``.
  ///
  /// ```swift
  /// let detail = store.viewStore(MeetingList.path, id: 0)
  /// ```
  ///
  /// - Parameters:
  ///   - route: The route, declared once with `ChildRoute.stack(\Parent.path, tag:)`.
  ///   - id: The screen's identifier on the stack.
  /// - Returns: The view store, or nil; it keeps this store alive.
  public func viewStore<Element: ArborealModel>(
    _ route: ModelRoute<Model, ModelStack<Element>, StackAction<Element.Action>>,
    id: StackElementID
  ) -> ViewStore<Element>? {
    let path = route.path
    return viewStore(stack: { $0[keyPath: path] }, id: id, tag: route.tag)
  }

  /// View stores for every screen on the stack a route reaches, bottom first.
  ///
  /// - Parameter route: The route, declared once with `ChildRoute.stack(\Parent.path, tag:)`.
  /// - Returns: One view store per screen.
  public func viewStores<Element: ArborealModel>(
    _ route: ModelRoute<Model, ModelStack<Element>, StackAction<Element.Action>>
  ) -> [ViewStore<Element>] {
    let path = route.path
    return viewStores(stack: { $0[keyPath: path] }, tag: route.tag)
  }

  /// A view store scoped to the model a case of the enumeration a destination route reaches
  /// holds; nil while the destination is another case or none.
  ///
  /// ```swift
  /// let editor = store.viewStore(MeetingDetail.destination, case: Destination.editor)
  /// ```
  ///
  /// - Parameters:
  ///   - route: The route, declared once with ``ChildRoute/destination(_:tag:)``.
  ///   - embed: The case, as its constructor.
  /// - Returns: The view store, or nil; it keeps this store alive.
  public func viewStore<Cases: ModelCases, Child: ArborealModel>(
    _ route: ModelRoute<Model, Cases?, PresentationAction<Cases.Action>>,
    case embed: @escaping (Child) -> Cases
  ) -> ViewStore<Child>? {
    let path = route.path
    return viewStore(get: { $0[keyPath: path] }, case: embed, tag: route.tag)
  }

  /// A view store scoped to the model the case of the screen with `id` holds, on a stack of
  /// several kinds of screen a route reaches; nil when that screen is not there or is another
  /// kind.
  ///
  /// ```swift
  /// let detail = store.viewStore(AppModel.path, id: 0, case: Path.detail)
  /// ```
  ///
  /// - Parameters:
  ///   - route: The route, declared once with `ChildRoute.stack(\Parent.path, tag:)`.
  ///   - id: The screen's identifier on the stack.
  ///   - embed: The case, as its constructor.
  /// - Returns: The view store, or nil; it keeps this store alive.
  public func viewStore<Cases: ModelCases, Child: ArborealModel>(
    _ route: ModelRoute<Model, ModelStack<Cases>, StackAction<Cases.Action>>,
    id: StackElementID,
    case embed: @escaping (Child) -> Cases
  ) -> ViewStore<Child>? {
    let path = route.path
    return viewStore(stack: { $0[keyPath: path] }, id: id, case: embed, tag: route.tag)
  }
}

// MARK: - Cancellation

extension ArborealModel {
  /// An effect that cancels every running effect of the child `route` reaches now (always
  /// held, optional or presented), and those of its own children; no other child's, even of
  /// the same type.
  ///
  /// ```swift
  /// case .stopEditor:
  ///   return cancel(Self.editor)
  /// ```
  ///
  /// A child set to nil or replaced needs none: `forward` ends its effects within that action.
  ///
  /// - Parameter route: The route, declared once.
  /// - Returns: The cancellation, performed in order with the effects it is merged with;
  ///   ``Fx/none`` when the route holds no child.
  public func cancel<Child: ArborealModel, Input>(_ route: ModelRoute<Self, Child, Input>)
    -> Fx<Action>
  {
    cancelling(self[keyPath: route.path], key: nil)
  }

  /// An effect that cancels every running effect of the optional or presented child `route`
  /// reaches now, and those of its own children.
  ///
  /// ```swift
  /// case .stopEditor:
  ///   return cancel(Self.editor)
  /// ```
  ///
  /// - Parameter route: The route, declared once.
  /// - Returns: The cancellation; ``Fx/none`` when there is no child.
  public func cancel<Child: ArborealModel, Input>(_ route: ModelRoute<Self, Child?, Input>)
    -> Fx<Action>
  {
    cancelling(self[keyPath: route.path], key: nil)
  }

  /// An effect that cancels every running effect of the child with `id` in the collection
  /// `route` reaches, and those of its own children.
  ///
  /// ```swift
  /// case .stopRow(let id):
  ///   return cancel(Self.rows, id: id)
  /// ```
  ///
  /// - Parameters:
  ///   - route: The route, declared once.
  ///   - id: The child's identifier.
  /// - Returns: The cancellation; ``Fx/none`` when there is no such child.
  /// - Complexity: O(*n*) to find the child among *n*.
  public func cancel<Children: Collection>(
    _ route: ModelRoute<Self, Children, (Children.Element.ID, Children.Element.Action)>,
    id: Children.Element.ID
  ) -> Fx<Action> where Children.Element: ArborealModel & Identifiable {
    cancelling(self[keyPath: route.path].first { $0.id == id }, key: AnyHashable(id))
  }

  /// An effect that cancels every running effect of the screen with `id` on the stack `route`
  /// reaches, and those of its own children.
  ///
  /// ```swift
  /// case .stopScreen(let id):
  ///   return cancel(Self.path, id: id)
  /// ```
  ///
  /// - Parameters:
  ///   - route: The route, declared once.
  ///   - id: The screen's identifier on the stack.
  /// - Returns: The cancellation; ``Fx/none`` when the screen is not on the stack.
  public func cancel<Element: ArborealModel>(
    _ route: ModelRoute<Self, ModelStack<Element>, StackAction<Element.Action>>,
    id: StackElementID
  ) -> Fx<Action> {
    cancelling(self[keyPath: route.path][id: id], key: AnyHashable(id))
  }

  /// An effect that cancels every running effect of the model the destination `route`
  /// reaches holds in the case `embed`, and those of its own children.
  ///
  /// ```swift
  /// case .stopEditing:
  ///   return cancel(Self.destination, case: Destination.editor)
  /// ```
  ///
  /// - Parameters:
  ///   - route: The route, declared once.
  ///   - embed: The case, as its constructor.
  /// - Returns: The cancellation; ``Fx/none`` when the destination is another case or none.
  public func cancel<Cases: ModelCases, Child: ArborealModel>(
    _ route: ModelRoute<Self, Cases?, PresentationAction<Cases.Action>>,
    case embed: (Child) -> Cases
  ) -> Fx<Action> {
    cancelling(self[keyPath: route.path]?[case: embed], key: nil)
  }

  /// An effect that cancels every running effect of the screen with `id`, of the case
  /// `embed`, on a stack of several kinds of screen `route` reaches, and those of its own
  /// children.
  ///
  /// ```swift
  /// case .stopDetail(let id):
  ///   return cancel(Self.path, id: id, case: Path.detail)
  /// ```
  ///
  /// - Parameters:
  ///   - route: The route, declared once.
  ///   - id: The screen's identifier on the stack.
  ///   - embed: The case, as its constructor.
  /// - Returns: The cancellation; ``Fx/none`` when that screen is not there or is another
  ///   kind.
  public func cancel<Cases: ModelCases, Child: ArborealModel>(
    _ route: ModelRoute<Self, ModelStack<Cases>, StackAction<Cases.Action>>,
    id: StackElementID, case embed: (Child) -> Cases
  ) -> Fx<Action> {
    cancelling(self[keyPath: route.path][id: id, case: embed], key: AnyHashable(id))
  }

  /// Cancels the effects `forward` made the instance `child`'s (the membership it tags them
  /// with, found at any depth).
  private func cancelling<Child: ArborealModel>(_ child: Child?, key: AnyHashable?) -> Fx<Action> {
    guard let child else { return .none }
    let membership = EffectScope(Child.Action.self, instance: child, key: key)
    return Fx(effects: [.cancel(CancelID(member: membership))])
  }
}
