extension ArborealStore {
  /// A binding to a value derived from the state, whose setter sends an action.
  ///
  /// ```swift
  /// let query = store.binding(get: \.query, tag: Action.setQuery)
  /// query.wrappedValue = "swift"  // sends .setQuery("swift")
  /// ```
  ///
  /// Reading the binding evaluates `get` on the current state (so inside tracking, what `get`
  /// read is tracked); setting it sends exactly one action, `tag(newValue)`, and
  /// ``StoreBinding/set(_:)`` returns that send's handle. On a view store, that action goes to
  /// the parent tagged as usual.
  ///
  /// - Parameters:
  ///   - get: Reads the value from the model.
  ///   - tag: Makes the action that sets a new value.
  /// - Returns: The binding; it keeps this store alive.
  public func binding<Value>(
    get: @escaping (Model) -> Value,
    tag: @escaping (Value) -> Model.Action
  ) -> StoreBinding<Value> {
    StoreBinding(
      get: { get(self.state) },
      send: { value in self.send(tag(value)) }
    )
  }
}
