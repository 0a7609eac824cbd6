/// Something that holds a model and receives its actions: a ``Store`` or a scoped
/// ``ViewStore``.
///
/// Code that only reads state and sends actions (a view, a prompt, a test helper) can take any
/// `ArborealStore`, so it works the same on the root store and on a view store scoped to a
/// child model. Both scoping operations, ``viewStore(get:tag:)`` and
/// ``binding(get:tag:)``, are available on every store, so view stores nest.
///
/// ```swift
/// @MainActor func render(_ store: some ArborealStore<Counter>) -> String {
///   "count: \(store.state.count)"
/// }
/// ```
@MainActor
public protocol ArborealStore<Model> {
  /// The model type.
  associatedtype Model: ArborealModel

  /// The current model. Read its tracked properties to observe them.
  var state: Model { get }

  /// Sends an action; the model's update runs before `send` returns, unless the store is
  /// busy with another action, in which case this one runs right after it (first in, first
  /// out).
  ///
  /// - Parameter action: The action.
  /// - Returns: A handle that waits for, or cancels, the effects the action starts.
  @discardableResult
  func send(_ action: Model.Action) -> SendHandle
}
