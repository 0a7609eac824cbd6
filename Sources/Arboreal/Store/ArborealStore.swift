/// Something that holds a model and receives its actions: a ``Store`` or a scoped
/// ``ViewStore``.
///
/// Code that only reads state and sends actions (a view, a prompt, a test helper) can take any
/// `ArborealStore`, so it works the same on the root store and on a view store scoped to a
/// child model. The scoping operations (``viewStore(_:)->ViewStore<Child>`` and its siblings
/// over routes, ``binding(get:tag:)``) are available on every store, so view stores nest.
///
/// ```swift
/// @MainActor func render(_ store: some ArborealStore<Counter>) -> String {
///   "count: \(store.state.count)"
/// }
/// ```
public protocol ArborealStore<Model> {
  /// The model type.
  associatedtype Model: ArborealModel

  /// The current model. Read its tracked properties to observe them.
  var state: Model { get }

  /// Whether the model is still in its parent: false for a view store whose keyed child was
  /// removed, or that is scoped below one.
  ///
  /// ```swift
  /// if row.isPresent { render(row) }
  /// ```
  ///
  /// View stores scoped to this store read it: while it is false, they are not present either,
  /// and their `state` keeps the last child they saw. A store whose model can disappear
  /// implements it together with ``presentState``, and drops the actions sent to it while it
  /// is false (the view stores scoped to it forward their actions to it). The default
  /// implementation returns true, for stores whose model is always there, such as ``Store``.
  var isPresent: Bool { get }

  /// The model while it is present (see ``isPresent``), nil when it is not: how a view store
  /// scoped to this store reads its parent's model, with one evaluation.
  ///
  /// ```swift
  /// if let todo = row.presentState { print(todo.title) }
  /// ```
  ///
  /// The default implementation returns ``state`` when ``isPresent`` is true, nil otherwise.
  var presentState: Model? { get }

  /// Sends an action; the model's update runs before `send` returns, unless the store is
  /// busy with another action, in which case this one runs right after it (first in, first
  /// out).
  ///
  /// - Parameter action: The action.
  /// - Returns: A handle that waits for, or cancels, the effects the action starts.
  @discardableResult
  func send(_ action: Model.Action) -> SendHandle
}

extension ArborealStore {
  /// True: a store whose model is always there, such as ``Store``, is always present.
  public var isPresent: Bool { true }

  /// ``state`` while ``isPresent`` is true, nil otherwise.
  public var presentState: Model? { isPresent ? state : nil }
}
