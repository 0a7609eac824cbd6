extension ArborealStore {
  /// A view store over this store's whole model: what a component written against
  /// `ViewStore<Model>` takes, for the root as for any child.
  ///
  /// ```swift
  /// let root = store.viewStore()
  /// root.send(.increment)  // store receives .increment
  /// ```
  ///
  /// A view store of a child is made through the child's route:
  /// ``viewStore(_:)->ViewStore<Child>``, ``viewStore(_:id:)`` and ``viewStores(_:)``.
  ///
  /// - Returns: The view store; it keeps this store alive.
  public func viewStore() -> ViewStore<Model> {
    makeViewStore(get: { $0 }, forward: { action in self.send(action) })
  }

  /// A view store of the child `get` reads, which is always there; each send goes through
  /// `forward`. Shared by the root's view store and a held child's.
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
}
