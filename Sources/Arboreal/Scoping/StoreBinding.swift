/// A value read from a store's state and written by sending an action: a two-way connection
/// for a text field, a toggle or a prompt, that keeps every change going through `update`.
///
/// Make one with ``ArborealStore/binding(get:tag:)``:
///
/// ```swift
/// let name = store.binding(get: \.name, tag: Action.setName)
/// print(name.wrappedValue)  // reads store.state.name
/// name.wrappedValue = "Ada"  // sends .setName("Ada")
/// ```
///
/// Reading ``wrappedValue`` evaluates `get` on the current state, so inside tracking (an
/// `observe` body, a view's render) it tracks exactly what `get` read. Setting it sends one
/// action, every time, even for an unchanged value. It is our own type, not SwiftUI's
/// `Binding`, and imports no UI framework; a SwiftUI app adapts it with
/// `Binding(get: { b.wrappedValue }, set: { b.wrappedValue = $0 })`. Like its store, it
/// belongs to the isolation that made it: it is not `Sendable`.
public struct StoreBinding<Value> {
  private let read: () -> Value
  private let write: (Value) -> SendHandle

  /// Creates a binding from a getter and a setter.
  ///
  /// ``set(_:)`` returns a finished handle: the setter starts no effect the binding can see.
  ///
  /// - Parameters:
  ///   - get: Returns the current value.
  ///   - set: Receives a new value.
  public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
    self.read = get
    self.write = { value in
      set(value)
      return SendHandle()
    }
  }

  /// Creates a binding from a getter and a setter that sends an action and returns its handle.
  ///
  /// ```swift
  /// let name = StoreBinding(get: { store.state.name }, send: { store.send(.setName($0)) })
  /// await name.set("Ada").value
  /// ```
  ///
  /// - Parameters:
  ///   - get: Returns the current value.
  ///   - send: Receives a new value; returns the handle of the send it made.
  public init(
    get: @escaping () -> Value, send: @escaping (Value) -> SendHandle
  ) {
    self.read = get
    self.write = send
  }

  /// The value: reading evaluates the getter, setting calls the setter (for a store binding,
  /// sends the tagged action) and discards its handle; use ``set(_:)`` to keep it.
  public var wrappedValue: Value {
    get { read() }
    nonmutating set { _ = write(newValue) }
  }

  /// Sets the value and returns the handle of the action the setter sent, to wait for or
  /// cancel the effects it started.
  ///
  /// ```swift
  /// let query = store.binding(get: \.query, tag: Action.setQuery)
  /// await query.set("swift").value  // the search the new query started has finished
  /// ```
  ///
  /// - Parameter value: The new value.
  /// - Returns: The send's handle; a finished one for a binding made with a `Void` setter.
  @discardableResult
  public func set(_ value: Value) -> SendHandle {
    write(value)
  }
}
