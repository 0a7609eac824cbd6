/// A store scoped to a child model: it reads the child from its parent store and sends the
/// child's actions to the parent, tagged as parent actions.
///
/// Make one through the child's route: ``ArborealStore/viewStore(_:)->ViewStore<Child>`` (a
/// child the parent always has; over a route of an optional, presented or enumeration's child,
/// nil while there is none), ``ArborealStore/viewStore(_:id:)`` (a child in a collection, a
/// stack screen) or ``ArborealStore/viewStores(_:)`` (every child of a route);
/// ``ArborealStore/viewStore()`` is the whole model's. A component written against a
/// `ViewStore<Child>` (or any ``ArborealStore``) knows nothing of its parent.
///
/// ```swift
/// // In AppModel: static let child = ChildRoute.child(\AppModel.child, tag: Action.child)
/// let child = store.viewStore(AppModel.child)
/// child.send(.increment)  // the parent's update receives .child(.increment)
/// print(child.state.count)  // reads store.state.child.count
/// ```
///
/// The view store keeps no state of its own. ``state`` finds the child again on every access, so
/// a child the parent replaced is seen at once, and reading it inside tracking tracks the
/// parent's property holding the child as well as what is read on the child. ``send(_:)``
/// sends to the parent, so the child's update runs inside the parent's (the parent's update
/// passes the action on with ``ArborealModel/forward(_:to:environment:)`` through the same
/// route), and everything the root store guarantees holds.
///
/// ## When a keyed child disappears
/// A view store of a keyed child (``ArborealStore/viewStore(_:id:)``) may outlive its child (a
/// row removed while its view still holds the view store). From then on, until a child with
/// the key appears again:
/// - ``isPresent`` is false;
/// - ``state`` returns the last child it saw, a detached model that no action changes any
///   more (so a view being torn down can still render);
/// - ``send(_:)`` drops the action, without reaching the parent's update, and returns a
///   finished handle.
///
/// The same holds for a view store scoped, at any depth, below one whose child is missing.
/// When a child with the key appears again, the view store follows it. Scoping reads the
/// parent's presence through ``ArborealStore/isPresent`` and ``ArborealStore/presentState``,
/// so it works the same below any ``ArborealStore`` whose model can disappear.
///
/// A view store keeps its parent store alive (and the last child it saw). Like its store, it
/// belongs to the isolation that made it: it is not `Sendable`.
public final class ViewStore<Child: ArborealModel>: ArborealStore {
  /// The model type of this store: the child model.
  public typealias Model = Child

  /// Returns the current child, or nil when it (or a keyed ancestor) is missing: the child
  /// read from the parent's ``ArborealStore/presentState``.
  private let resolve: () -> Child?
  /// The parent's ``ArborealStore/isPresent``.
  private let isParentPresent: () -> Bool
  /// For a view store of a keyed or optional child, its child's type and
  /// key (`Row[2]`), which name it in the diagnostic of a dropped send; nil for any other.
  private let keyName: String?
  /// Sends a child action to the parent, tagged.
  private let forward: (Child.Action) -> SendHandle
  /// Whether the child is a model other than the parent's own, so that, in debug builds, a
  /// send the parent's update handles without forwarding to the child is reported (see
  /// `ForwardProbe`). False for a view store over the parent's whole model, and for one
  /// over a model with no parent store.
  private let isScoped: Bool
  /// The parent model's type, which the report of an action no update forwarded names.
  private let parentType: Any.Type?
  /// The last child `resolve` returned.
  private var lastChild: Child

  init(
    child: Child, resolve: @escaping () -> Child?, isParentPresent: @escaping () -> Bool,
    keyName: String?, isScoped: Bool = true, parentType: Any.Type? = nil,
    forward: @escaping (Child.Action) -> SendHandle
  ) {
    self.lastChild = child
    self.resolve = resolve
    self.isParentPresent = isParentPresent
    self.keyName = keyName
    self.isScoped = isScoped
    self.parentType = parentType
    self.forward = forward
  }

  /// A view store over a model it does not change, whose actions go to `send`: for previews,
  /// tests and component catalogues, where no parent store exists.
  ///
  /// ```swift
  /// let preview = ViewStore(state: Counter(count: 3)) { action in print(action) }
  /// preview.send(.increment)  // prints "increment"; preview.state.count stays 3
  /// ```
  ///
  /// ``state`` is always `state`, ``isPresent`` always true, and ``send(_:)`` calls `send` and
  /// returns a finished handle. Scoping it
  /// (``ArborealStore/viewStore(_:)->ViewStore<Child>``, ``ArborealStore/binding(get:tag:)``)
  /// works as on any store.
  ///
  /// - Parameters:
  ///   - state: The model to show.
  ///   - send: Receives every action sent to the view store.
  public convenience init(state: Child, send: @escaping (Child.Action) -> Void) {
    self.init(
      child: state, resolve: { state }, isParentPresent: { true }, keyName: nil,
      isScoped: false,
      forward: { action in
        send(action)
        return SendHandle()
      })
  }

  /// The child model, read from the parent now.
  ///
  /// When a keyed child has disappeared, the last child seen (see "When a keyed child
  /// disappears").
  public var state: Child {
    if let child = resolve() {
      lastChild = child
      return child
    }
    return lastChild
  }

  /// Whether the child is in its parent: always true for a view store of a held child
  /// (``ArborealStore/viewStore(_:)->ViewStore<Child>``) below no keyed view store.
  ///
  /// A keyed view store is present while its parent is and has a child with its key; any
  /// other view store is present while its parent is.
  public var isPresent: Bool {
    keyName == nil ? isParentPresent() : resolve() != nil
  }

  /// The child model while it is present, nil when it (or a keyed ancestor) is missing.
  ///
  /// Unlike ``state``, it does not fall back on the last child seen: view stores scoped below
  /// this one read their parent through it.
  public var presentState: Child? { resolve() }

  /// Sends a child action to the parent store, tagged as a parent action.
  ///
  /// The root store handles it as it handles any action: synchronously, or queued when it is
  /// busy. When the child has disappeared, the action is dropped: by the keyed view store whose
  /// child is missing (this one, or the nearest above it whose parent is present), which the
  /// others forward it to. In debug builds the drop is reported to
  /// ``ArborealDiagnostics/droppedActionHandler``, naming the action, as that keyed view store
  /// received it, and the child's key.
  ///
  /// - Parameter action: The child action.
  /// - Returns: The handle of the parent action, or a finished handle when it was dropped.
  @discardableResult
  public func send(_ action: Child.Action) -> SendHandle {
    // A keyed view store below a missing ancestor forwards: that ancestor drops the action.
    if let keyName, resolve() == nil, isParentPresent() {
      reportDrop(of: action, sentTo: keyName)
      return SendHandle()
    }
    #if DEBUG
      if isScoped, let child = resolve() {
        let name = (keyName ?? "\(Child.self)") + (parentType.map { " in \($0)" } ?? "")
        return ForwardProbe.expecting(action, sentTo: child, named: name) { forward(action) }
      }
    #endif
    return forward(action)
  }

  /// Reports an action dropped by a keyed view store whose child is missing; debug builds
  /// only.
  private func reportDrop(of action: Child.Action, sentTo keyName: String) {
    #if DEBUG
      ArborealDiagnostics.reportDroppedAction(
        "Arboreal: dropped \(action) sent to \(keyName): the child is no longer in its "
          + "parent. Stop sending to a removed child's view store (check `isPresent`).")
    #endif
  }
}
