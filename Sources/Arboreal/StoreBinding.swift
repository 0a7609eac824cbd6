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
/// `Binding(get: { b.wrappedValue }, set: { b.wrappedValue = $0 })`.
@MainActor
public struct StoreBinding<Value>: Sendable {
  private let read: @MainActor () -> Value
  private let write: @MainActor (Value) -> Void

  /// Creates a binding from a getter and a setter.
  ///
  /// - Parameters:
  ///   - get: Returns the current value.
  ///   - set: Receives a new value.
  public init(get: @escaping @MainActor () -> Value, set: @escaping @MainActor (Value) -> Void) {
    self.read = get
    self.write = set
  }

  /// The value: reading evaluates the getter, setting calls the setter (for a store binding,
  /// sends the tagged action).
  public var wrappedValue: Value {
    get { read() }
    nonmutating set { write(newValue) }
  }
}
