extension ArborealStore {
  /// A view store scoped to a child model this store's model always holds.
  ///
  /// ```swift
  /// let counter = store.viewStore(get: \.counter, tag: AppModel.Action.counter)
  /// counter.send(.increment)  // store receives .counter(.increment)
  /// ```
  ///
  /// The parent's update handles the tagged action by forwarding it to the child, which makes
  /// the child's effects its own:
  ///
  /// ```swift
  /// case .counter(let action):
  ///   return forward(action, to: \.counter, environment: environment, tag: Action.counter)
  /// ```
  ///
  /// - Parameters:
  ///   - get: Reads the child from this store's model; re-evaluated on every access to the
  ///     view store's `state`.
  ///   - tag: Makes a parent action of a child action.
  /// - Returns: The view store; it keeps this store alive.
  @inlinable
  public func viewStore<Child: ArborealModel>(
    get: @escaping (Model) -> Child,
    tag: @escaping (Child.Action) -> Model.Action
  ) -> ViewStore<Child> {
    // The forwarding closure is made here, inlined in the caller's module, so that it calls
    // this store's `send` specialised for its model rather than through the protocol.
    makeViewStore(get: get, forward: { action in self.send(tag(action)) })
  }

  /// A view store over this store's whole model: what a component written against
  /// `ViewStore<Model>` takes, for the root as for any child.
  ///
  /// ```swift
  /// let root = store.viewStore()
  /// root.send(.increment)  // store receives .increment
  /// ```
  ///
  /// - Returns: The view store; it keeps this store alive.
  public func viewStore() -> ViewStore<Model> {
    viewStore(get: { $0 }, tag: { $0 })
  }

  /// The rest of ``viewStore(get:tag:)->ViewStore<Child>``, out of line.
  @usableFromInline
  func makeViewStore<Child: ArborealModel>(
    get: @escaping (Model) -> Child,
    forward: @escaping (Child.Action) -> SendHandle
  ) -> ViewStore<Child> {
    let child = get(state)
    return ViewStore(
      child: child, resolve: { self.presentState.map(get) },
      isParentPresent: { self.isPresent }, keyName: nil, isScoped: child !== state,
      parentType: Model.self, forward: forward)
  }

  /// A view store scoped to a child in a collection, identified by `key`; nil when there is
  /// no child with that key.
  ///
  /// ```swift
  /// enum Action: Sendable {
  ///   case todo(id: Todo.ID, action: Todo.Action)
  /// }
  ///
  /// let row = store.viewStore(
  ///   key: todo.id,
  ///   get: { list, id in list.todos.first { $0.id == id } },
  ///   tag: Action.todo
  /// )
  /// row?.send(.toggle)  // store receives .todo(id: todo.id, action: .toggle)
  /// ```
  ///
  /// If the child later disappears, the view store's ``ViewStore/isPresent`` becomes false,
  /// its `state` keeps returning the last child it saw, and its sends are dropped (and, in
  /// debug builds, reported to ``ArborealDiagnostics/droppedActionHandler``); if a child with
  /// the key appears again, it follows that one. The parent's update forwards the action with
  /// ``ArborealModel/forward(_:to:id:environment:tag:)-(_,_,_,_,(Children.Element.Action)->Self.Action)``, which drops an action for a key the
  /// parent no longer has (one could have been queued before the child was removed) and ends
  /// a removed child's effects:
  ///
  /// ```swift
  /// case .todo(let id, let action):
  ///   return forward(action, to: \.todos, id: id, environment: ()) { .todo(id: id, action: $0) }
  /// ```
  ///
  /// - Parameters:
  ///   - key: The child's identity.
  ///   - get: Finds the child with the key in this store's model, or returns nil; re-evaluated
  ///     on every access to the view store's `state`.
  ///   - tag: Makes a parent action of the key and a child action.
  /// - Returns: The view store, or nil when `get` finds no child now.
  public func viewStore<Key: Hashable, Child: ArborealModel>(
    key: Key,
    get: @escaping (Model, Key) -> Child?,
    tag: @escaping (Key, Child.Action) -> Model.Action
  ) -> ViewStore<Child>? {
    guard let model = presentState, let child = get(model, key) else { return nil }
    return ViewStore(
      child: child,
      resolve: { self.presentState.flatMap { get($0, key) } },
      isParentPresent: { self.isPresent },
      keyName: "\(Child.self)[\(String(reflecting: key))]",
      parentType: Model.self,
      forward: { action in self.send(tag(key, action)) }
    )
  }

  /// A view store scoped to an optional child (a presented sheet, an editor); nil while the
  /// child is absent.
  ///
  /// ```swift
  /// if let editor = store.viewStore(get: \.editor, tag: { .editor(.presented($0)) }) {
  ///   render(editor)
  /// }
  /// ```
  ///
  /// When the child later goes away (dismissed, or replaced by nil), the view store's
  /// ``ViewStore/isPresent`` becomes false and its sends are dropped and, in debug builds,
  /// reported, as for a keyed view store whose child was removed. When another child is
  /// presented, it follows that one.
  ///
  /// - Parameters:
  ///   - get: Reads the optional child from this store's model; re-evaluated on every access.
  ///   - tag: Makes a parent action of a child action.
  /// - Returns: The view store, or nil when the child is absent now.
  public func viewStore<Child: ArborealModel>(
    get: @escaping (Model) -> Child?,
    tag: @escaping (Child.Action) -> Model.Action
  ) -> ViewStore<Child>? {
    guard let model = presentState, let child = get(model) else { return nil }
    return ViewStore(
      child: child,
      resolve: { self.presentState.flatMap(get) },
      isParentPresent: { self.isPresent },
      keyName: "\(Child.self) (presented in \(Model.self))",
      forward: { action in self.send(tag(action)) }
    )
  }

  /// A view store scoped to a presented child, named as its parent's `forward` names it: the
  /// same key path and the same `tag`, so that the route is spelled once for both.
  ///
  /// ```swift
  /// // In the parent's update:
  /// case .editor(let action):
  ///   return forward(action, to: \.editor, environment: (), tag: Action.editor)
  /// // Where it is shown:
  /// let editor = store.viewStore(presented: \.editor, tag: Action.editor)
  /// ```
  ///
  /// The same as ``viewStore(get:tag:)->ViewStore<Child>?`` with `tag` given `.presented(…)`
  /// of each action.
  ///
  /// - Parameters:
  ///   - get: Reads the optional child from this store's model; re-evaluated on every access.
  ///   - tag: Makes a parent action of a presentation action.
  /// - Returns: The view store, or nil when the child is absent now.
  public func viewStore<Child: ArborealModel>(
    presented get: @escaping (Model) -> Child?,
    tag: @escaping (PresentationAction<Child.Action>) -> Model.Action
  ) -> ViewStore<Child>? {
    viewStore(get: get, tag: { (action: Child.Action) in tag(.presented(action)) })
  }

  /// A view store scoped to the screen with `id` on a ``ModelStack``; nil when it is not on
  /// the stack.
  ///
  /// ```swift
  /// let top = store.state.path.elementIDs.last.flatMap {
  ///   store.viewStore(stack: \.path, id: $0, tag: Action.path)
  /// }
  /// top?.send(.close)  // store receives .path(.element(id: …, action: .close))
  /// ```
  ///
  /// Once the screen is popped, the view store's ``ViewStore/isPresent`` is false and its
  /// sends are dropped (and reported in debug builds).
  ///
  /// - Parameters:
  ///   - stack: Reads the stack from this store's model.
  ///   - id: The screen's identifier.
  ///   - tag: Makes a parent action of a stack action.
  /// - Returns: The view store, or nil when no screen has the identifier now.
  public func viewStore<Element: ArborealModel>(
    stack: @escaping (Model) -> ModelStack<Element>,
    id: StackElementID,
    tag: @escaping (StackAction<Element.Action>) -> Model.Action
  ) -> ViewStore<Element>? {
    viewStore(
      key: id, get: { model, id in stack(model)[id: id] },
      tag: { id, action in tag(.element(id: id, action: action)) })
  }

  /// A view store per screen of a ``ModelStack``, bottom first: what renders a whole stack.
  ///
  /// ```swift
  /// for screen in store.viewStores(stack: \.path, tag: Action.path) {
  ///   render(screen)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - stack: Reads the stack from this store's model.
  ///   - tag: Makes a parent action of a stack action.
  /// - Returns: The view stores, bottom first; empty when this store is not present.
  /// - Complexity: O(*n*²) for *n* screens (stacks are short).
  public func viewStores<Element: ArborealModel>(
    stack: @escaping (Model) -> ModelStack<Element>,
    tag: @escaping (StackAction<Element.Action>) -> Model.Action
  ) -> [ViewStore<Element>] {
    guard let model = presentState else { return [] }
    return stack(model).elementIDs.compactMap { viewStore(stack: stack, id: $0, tag: tag) }
  }
}

extension ArborealStore {
  /// A view store scoped to the child model of one case of an enumeration of destinations;
  /// nil while the destination is absent or another case.
  ///
  /// ```swift
  /// if let editor = store.viewStore(
  ///   get: \.destination, case: Destination.editor, tag: Action.destination)
  /// {
  ///   render(editor)
  /// }
  /// ```
  ///
  /// Its sends reach this store as `tag(.presented(…))` of the case's action, as
  /// ``ModelCases/child`` embeds it: the route is declared once, there. When the destination
  /// later changes or goes, the view store's ``ViewStore/isPresent`` becomes false and its
  /// sends are dropped and, in debug builds, reported.
  ///
  /// - Parameters:
  ///   - get: Reads the destination from this store's model.
  ///   - embed: The case: `Destination.editor`.
  ///   - tag: Makes a parent action of a presentation action.
  /// - Returns: The view store, or nil when the destination is not that case now (also
  ///   reported in debug builds when ``ModelCases/child`` gives no embedding for it).
  public func viewStore<Cases: ModelCases, Child: ArborealModel>(
    get: @escaping (Model) -> Cases?,
    case embed: @escaping (Child) -> Cases,
    tag: @escaping (PresentationAction<Cases.Action>) -> Model.Action
  ) -> ViewStore<Child>? {
    guard let model = presentState, let value = get(model), let child = value[case: embed],
      let embedAction = Cases.routedEmbedding(actionsOf: Child.self, heldIn: value)
    else { return nil }
    return ViewStore(
      child: child,
      resolve: { self.presentState.flatMap(get).flatMap { $0[case: embed] } },
      isParentPresent: { self.isPresent },
      keyName: "\(Child.self) (presented in \(Model.self))",
      forward: { action in self.send(tag(.presented(embedAction(action)))) }
    )
  }

  /// A view store scoped to the screen with `id` on a stack of several kinds of screen, as
  /// the model of its case; nil when it is not on the stack or is another kind.
  ///
  /// ```swift
  /// let detail = store.viewStore(stack: \.path, id: 0, case: Path.detail, tag: Action.path)
  /// detail?.send(.editTapped)  // store receives .path(.element(id: 0, action: .detail(…)))
  /// ```
  ///
  /// Once the screen is popped, the view store's ``ViewStore/isPresent`` is false and its
  /// sends are dropped (and reported in debug builds).
  ///
  /// - Parameters:
  ///   - stack: Reads the stack from this store's model.
  ///   - id: The screen's identifier.
  ///   - embed: The screen's case: `Path.detail`.
  ///   - tag: Makes a parent action of a stack action.
  /// - Returns: The view store, or nil when no screen of that kind has the identifier now.
  public func viewStore<Cases: ModelCases, Child: ArborealModel>(
    stack: @escaping (Model) -> ModelStack<Cases>,
    id: StackElementID,
    case embed: @escaping (Child) -> Cases,
    tag: @escaping (StackAction<Cases.Action>) -> Model.Action
  ) -> ViewStore<Child>? {
    guard let model = presentState, let value = stack(model)[id: id],
      let embedAction = Cases.routedEmbedding(actionsOf: Child.self, heldIn: value)
    else { return nil }
    return viewStore(
      key: id, get: { model, id in stack(model)[id: id, case: embed] },
      tag: { id, action in tag(.element(id: id, action: embedAction(action))) })
  }
}

extension ModelCases {
  /// ``embedding(actionsOf:heldIn:)``, reported in debug builds when it finds no route while
  /// `value` does hold a `Child`.
  static func routedEmbedding<Child: ArborealModel>(
    actionsOf child: Child.Type, heldIn value: Self
  ) -> (@Sendable (Child.Action) -> Action)? {
    if let embedding = embedding(actionsOf: child, heldIn: value) { return embedding }
    #if DEBUG
      if value.heldObject is Child {
        ArborealDiagnostics.reportDroppedAction(
          "Arboreal: no view store for \(Child.self) in \(Self.self): its `child` switch does "
            + "not say `.model(…)` with its actions for the case that holds it.")
      }
    #endif
    return nil
  }
}
