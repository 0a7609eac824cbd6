extension ArborealStore {
  /// A memoized selector: a value derived from the state, computed when first read and cached
  /// until something it read changes.
  ///
  /// ```swift
  /// let remaining = store.derived("remaining") { $0.items.count { !$0.isDone } }
  /// print(remaining.value)  // computed once, then cached
  /// let token = observe { _ in print("left:", remaining.value) }  // runs only when it changes
  /// ```
  ///
  /// The selector evaluates `get` on the current state (on a view store, the child it
  /// re-reads from its parent), so it follows a replaced child. Observers that read it depend
  /// on the result, not on what `get` read. Keep the returned value and read it where a
  /// result is needed: in an observer, a binding's getter (`binding(get:tag:)`), or a
  /// view.
  ///
  /// - Parameters:
  ///   - name: The name its changes carry in `TrackingChanges`.
  ///   - isolation: The caller's isolation, which is the store's; leave the default.
  ///   - get: Computes the value from the model; its reads are tracked.
  /// - Returns: The selector; it keeps this store alive.
  public func derived<Value>(
    _ name: String = "derived", isolation: isolated (any Actor)? = #isolation,
    _ get: @escaping (Model) -> Value
  ) -> Derived<Value> {
    // Computed in this isolation, the store's (see `IsolatedBox`).
    let read = IsolatedBox(value: { get(self.state) })
    return Derived(name, isolation: isolation) { read.value() }
  }

  /// A memoized selector whose observers are told only when its result changes to a different
  /// value.
  ///
  /// ```swift
  /// let isEmpty = store.derived("isEmpty") { $0.items.isEmpty }
  /// ```
  ///
  /// - Parameters:
  ///   - name: The name its changes carry in `TrackingChanges`.
  ///   - isolation: The caller's isolation, which is the store's; leave the default.
  ///   - get: Computes the value from the model; its reads are tracked.
  /// - Returns: The selector; it keeps this store alive.
  public func derived<Value: Equatable & SendableMetatype>(
    _ name: String = "derived", isolation: isolated (any Actor)? = #isolation,
    _ get: @escaping (Model) -> Value
  ) -> Derived<Value> {
    // Computed in this isolation, the store's (see `IsolatedBox`).
    let read = IsolatedBox(value: { get(self.state) })
    return Derived(name, isolation: isolation) { read.value() }
  }

  /// A binding whose getter reads a memoized selector, and whose setter sends an action.
  ///
  /// ```swift
  /// let title = store.derived("title") { $0.draft.trimmingCharacters(in: .whitespaces) }
  /// let binding = store.binding(title, tag: Action.setDraft)
  /// ```
  ///
  /// Reading the binding reads the selector (cached until its inputs change; inside tracking,
  /// the reader depends on the selector's result); setting it sends `tag(newValue)`.
  ///
  /// - Parameters:
  ///   - selector: The selector to read, made by `derived(_:_:)`.
  ///   - tag: Makes the action that sets a new value.
  /// - Returns: The binding; it keeps this store and the selector alive.
  public func binding<Value>(
    _ selector: Derived<Value>,
    tag: @escaping (Value) -> Model.Action
  ) -> StoreBinding<Value> {
    StoreBinding(
      get: { selector.value },
      send: { value in self.send(tag(value)) }
    )
  }
}
