import ArborealTracking

/// A route declared once and used everywhere a child is reached: in ``ArborealModel/routes``,
/// in the parent's `forward`, in view stores and in cancellations.
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
/// let editor = store.viewStore(MeetingDetail.destination[case: Destination.editor])
/// ```
///
/// Every factory of ``ChildRoute`` makes one; a route is one value whatever the kind of place,
/// and the same few verbs take every kind:
///
/// | verb | takes |
/// |---|---|
/// | ``ArborealModel/forward(_:to:environment:)`` | every route: what its `tag` takes (`Input`) |
/// | ``ArborealModel/forward(_:to:id:environment:)`` | a collection's, with a child's identifier |
/// | ``ArborealStore/viewStore(_:)->ViewStore<Child>`` | a child always held |
/// | ``ArborealStore/viewStore(_:)->ViewStore<Child>?`` | an optional child |
/// | ``ArborealStore/viewStore(_:id:)`` | a keyed child: by identifier, on a stack |
/// | ``ArborealStore/viewStores(_:)`` | every child a route holds, in order |
/// | ``ArborealModel/cancel(_:)`` | every child a route holds now |
/// | ``ArborealModel/cancel(_:id:)`` | one keyed child |
///
/// The route of an enumeration's case is made from the enumeration's route:
/// `Self.destination[case: Destination.editor]`, `Self.path[case: Path.detail]` (keyed by the
/// screen's identifier); it takes the same verbs as any route of one model.
///
/// The type says what the parent's `forward` takes (`Input`: the child's action, a
/// ``PresentationAction``, a ``StackAction``, or a collection's identifier and action), the
/// child's type, and how one child is found (`Key`: ``Held`` for a child always there, `Void`
/// for an optional one, an identifier or a ``StackElementID``), so a route used in the wrong
/// place, or a tag that does not fit the property, is a compile error.
///
/// Invariant (why `@unchecked Sendable` holds): every stored property is a `let` holding a
/// closure that captures only key paths (immutable values) and `@Sendable` closures, called
/// in the isolation of the store whose model the route reads.
public class InputRoute<Parent: ArborealModel, Input>: ChildRoute<Parent>, @unchecked Sendable {
  /// Sends `Input` to the child, from the parent's services, and returns the child's effects
  /// as the parent's.
  @usableFromInline let forward: RouteForward<Parent, Input>

  init(
    following route: ChildRoute<Parent>, place: AnyObject? = nil,
    forward: @escaping RouteForward<Parent, Input>
  ) {
    self.forward = forward
    super.init(following: route, place: place)
  }
}

/// The key of a child that its parent always holds: there is only one, and a view store of it
/// is never nil.
public struct Held: Sendable {
  @usableFromInline init() {}
}

/// A route to values of one type, child models or an enumeration's values: what ``ArborealModel/push(_:on:environment:)``
/// and ``ArborealModel/present(_:at:environment:)`` take. Every factory of ``ChildRoute`` that
/// makes one says which, as a ``ModelRoute`` or a ``CasesRoute``; a user never names it.
///
/// Invariant (why `@unchecked Sendable` holds): as ``InputRoute``'s.
public class ValueRoute<Parent: ArborealModel, Value, Key: Sendable, Input>:
  InputRoute<Parent, Input>, @unchecked Sendable
{
  /// Puts a value in the place and starts its model's subscriptions at once: set by the
  /// route of a stack, of a presented child and of a destination, nil for any other.
  let insert: ((Parent, Value, Parent.Environment, ChildRoute<Parent>) -> Fx<Parent.Action>)?

  init(
    following route: ChildRoute<Parent>, place: AnyObject? = nil,
    forward: @escaping RouteForward<Parent, Input>,
    insert: ((Parent, Value, Parent.Environment, ChildRoute<Parent>) -> Fx<Parent.Action>)?
  ) {
    self.insert = insert
    super.init(following: route, place: place, forward: forward)
  }
}

/// A route to child models of one type: what view stores and cancellations take. See
/// ``InputRoute`` for the verbs.
///
/// Invariant (why `@unchecked Sendable` holds): as ``InputRoute``'s.
public final class ModelRoute<Parent: ArborealModel, Child: ArborealModel, Key: Sendable, Input>:
  ValueRoute<Parent, Child, Key, Input>, @unchecked Sendable
{
  /// Where the children are and how they are reached.
  @usableFromInline let place: ModelPlace<Parent, Child, Key>
  /// Sends an action to a child the parent has in hand, without finding it: set by the route
  /// of a collection (``forward(_:to:child:environment:)``), nil for any other.
  let forwardChild:
    ((Parent, Child, Child.Action, Parent.Environment, ChildRoute<Parent>) -> Fx<Parent.Action>)?
  /// A route of a place of its own, which the store follows with the children's `environment`.
  @usableFromInline
  convenience init(
    _ place: ModelPlace<Parent, Child, Key>,
    environment: @escaping @Sendable (Parent.Environment) -> Child.Environment,
    forwardChild: (
      (Parent, Child, Child.Action, Parent.Environment, ChildRoute<Parent>) -> Fx<Parent.Action>
    )? = nil,
    insert: ((Parent, Child, Parent.Environment, ChildRoute<Parent>) -> Fx<Parent.Action>)? = nil,
    forward: @escaping RouteForward<Parent, Input>
  ) {
    self.init(
      following: .models(place, environment: environment), place: place, forward: forward,
      forwardChild: forwardChild, insert: insert)
  }

  init(
    following route: ChildRoute<Parent>, place: ModelPlace<Parent, Child, Key>,
    forward: @escaping RouteForward<Parent, Input>,
    forwardChild: (
      (Parent, Child, Child.Action, Parent.Environment, ChildRoute<Parent>) -> Fx<Parent.Action>
    )? = nil,
    insert: ((Parent, Child, Parent.Environment, ChildRoute<Parent>) -> Fx<Parent.Action>)? = nil
  ) {
    self.place = place
    self.forwardChild = forwardChild
    super.init(following: route, place: place, forward: forward, insert: insert)
  }
}

/// Where a parent holds children of one type, and how each is reached: the one description of
/// a place that its route's `forward`, view stores, cancellations, the store's following and
/// the lifetime records read. Made once per route, out of line, by the kind's builder
/// (`held`, `optional`, `collection`, `stack`) or by a case's route (`CasesRoute[case:]`).
///
/// - `entries` is the kind's one reader (`[RouteEntry].held` and its siblings), which the
///   store's watch of the place and a forward's lifetime link both call: they cannot disagree.
/// - `find(parent, key)` and `all(parent)` return what `entries` lists, typed.
/// - `embedding(parent, key)` is never nil for a place of its own; a case's is nil while
///   another case is held.
///
/// Invariant (why `@unchecked Sendable` holds): every property is a `let` holding a closure
/// that captures only key paths (immutable values) and `@Sendable` closures, called in the
/// isolation of the store whose model it reads.
@usableFromInline
final class ModelPlace<Parent: ArborealModel, Child: ArborealModel, Key: Sendable>:
  @unchecked Sendable
{
  /// The parent's property: with a parent instance, the place's identity.
  @usableFromInline
  let path: AnyKeyPath
  /// The children held now, for the store's watch and the lifetime links.
  @usableFromInline
  let entries: (Parent) -> [RouteEntry]
  /// The child with `key` now, or nil.
  @usableFromInline let find: (Parent, Key) -> Child?
  /// Every child held now, with its key, in order.
  let all: (Parent) -> [(key: Key, child: Child)]
  /// The key of an entry of `entries`.
  let key: (RouteEntry) -> Key?
  /// The key under which the child's effects are its own (nil for an unkeyed child).
  @usableFromInline
  let effectKey: (Key) -> PlaceKey?
  /// How the child with `key` sends its actions, learnt from the parent now.
  @usableFromInline let embedding: (Parent, Key) -> (@Sendable (Child.Action) -> Parent.Action)?
  /// What the parent receives when the child with `key` returns ``Fx/dismiss``; nil for a
  /// place that cannot dismiss.
  @usableFromInline
  let dismissal: (Key) -> Parent.Action?
  /// The child's name in a view store's report of a dropped send (`Row[2]`); nil for a child
  /// always there.
  let keyName: (Key) -> String?

  init(
    path: AnyKeyPath, entries: @escaping (Parent) -> [RouteEntry],
    find: @escaping (Parent, Key) -> Child?,
    all: @escaping (Parent) -> [(key: Key, child: Child)],
    key: @escaping (RouteEntry) -> Key?, effectKey: @escaping (Key) -> PlaceKey?,
    embedding: @escaping (Parent, Key) -> (@Sendable (Child.Action) -> Parent.Action)?,
    dismissal: @escaping (Key) -> Parent.Action?, keyName: @escaping (Key) -> String?
  ) {
    self.path = path
    self.entries = entries
    self.find = find
    self.all = all
    self.key = key
    self.effectKey = effectKey
    self.embedding = embedding
    self.dismissal = dismissal
    self.keyName = keyName
  }

  // The builders of each kind, out of line but for `entries`, the reader that the store's watch
  // of the place calls after every change of it: the factory makes it where the parent is
  // compiled, specialised, with its key path literal folded (read generically, a stack's was
  // most of a push and pop).

  /// A child always held.
  @usableFromInline
  static func held(
    _ path: KeyPath<Parent, Child>, entries: @escaping (Parent) -> [RouteEntry],
    tag: @escaping @Sendable (Child.Action) -> Parent.Action
  ) -> ModelPlace where Key == Held {
    nonisolated(unsafe) let path = path  // Immutable: sharing it cannot race.
    return ModelPlace(
      path: path, entries: entries, find: { parent, _ in parent[keyPath: path] },
      all: { [(Held(), $0[keyPath: path])] }, key: { _ in Held() }, effectKey: { _ in nil },
      embedding: { _, _ in tag }, dismissal: { _ in nil }, keyName: { _ in nil })
  }

  /// An optional child: presented (its dismissal is the parent's `.dismiss`) or not.
  @usableFromInline
  static func optional(
    _ path: KeyPath<Parent, Child?>, entries: @escaping (Parent) -> [RouteEntry],
    embed: @escaping @Sendable (Child.Action) -> Parent.Action, dismissal: Parent.Action?
  ) -> ModelPlace where Key == Void {
    nonisolated(unsafe) let path = path  // Immutable: sharing it cannot race.
    return ModelPlace(
      path: path, entries: entries, find: { parent, _ in parent[keyPath: path] },
      all: { parent in parent[keyPath: path].map { [((), $0)] } ?? [] }, key: { _ in () },
      effectKey: { _ in nil }, embedding: { _, _ in embed }, dismissal: { _ in dismissal },
      keyName: { _ in "\(Child.self) (presented in \(Parent.self))" })
  }

  /// The children of a collection, each found by its identifier.
  @usableFromInline
  static func collection<Children: Collection>(
    _ path: KeyPath<Parent, Children>, entries: @escaping (Parent) -> [RouteEntry],
    tag: @escaping @Sendable (Child.ID, Child.Action) -> Parent.Action
  ) -> ModelPlace where Children.Element == Child, Child: Identifiable, Key == Child.ID {
    nonisolated(unsafe) let path = path  // Immutable: sharing it cannot race.
    return ModelPlace(
      path: path, entries: entries,
      find: { parent, id in parent[keyPath: path].first { $0.id == id } },
      all: { parent in parent[keyPath: path].map { ($0.id, $0) } },
      key: { $0.key?.id(as: Child.ID.self) }, effectKey: { PlaceKey($0) },
      embedding: { _, id in { tag(id, $0) } }, dismissal: { _ in nil },
      keyName: { "\(Child.self)[\(String(reflecting: $0))]" })
  }

  /// The screens of a stack of one kind; a screen's dismissal is the parent's `.popFrom(id:)`.
  @usableFromInline
  static func stack(
    _ path: KeyPath<Parent, ModelStack<Child>>, entries: @escaping (Parent) -> [RouteEntry],
    tag: @escaping @Sendable (StackAction<Child.Action>) -> Parent.Action
  ) -> ModelPlace where Key == StackElementID {
    nonisolated(unsafe) let path = path  // Immutable: sharing it cannot race.
    return ModelPlace(
      path: path, entries: entries,
      find: { parent, id in parent[keyPath: path][id: id] },
      all: { parent in parent[keyPath: path].screensWithIDs },
      key: { if case .stack(let id)? = $0.key { id } else { nil } }, effectKey: { .stack($0) },
      embedding: { _, id in { tag(.element(id: id, action: $0)) } },
      dismissal: { tag(.popFrom(id: $0)) },
      keyName: { "\(Child.self)[\(String(reflecting: $0))]" })
  }
}

/// A route to the values of a ``ModelCases`` enumeration (an optional destination, or the
/// screens of a stack of several kinds): what `forward` takes, and what routes to one case are
/// made of (``subscript(case:)``).
///
/// Invariant (why `@unchecked Sendable` holds): as ``InputRoute``'s.
public final class CasesRoute<Parent: ArborealModel, Cases: ModelCases, Key: Sendable, Input>:
  ValueRoute<Parent, Cases, Key, Input>, @unchecked Sendable
{
  /// The value with `key` now, or nil.
  let find: (Parent, Key) -> Cases?
  /// Every value the route holds now, with its key, in order.
  let all: (Parent) -> [(key: Key, value: Cases)]
  /// Makes the parent's action of an action of the value with `key`.
  let embed: @Sendable (Key, Cases.Action) -> Parent.Action
  /// The key under which `forward` owns a child's effects.
  let effectKey: (Key) -> PlaceKey?
  /// The key in a view store's name.
  let keyName: (Key) -> String?
  init(
    following route: ChildRoute<Parent>,
    forward: @escaping RouteForward<Parent, Input>,
    find: @escaping (Parent, Key) -> Cases?,
    all: @escaping (Parent) -> [(key: Key, value: Cases)],
    embed: @escaping @Sendable (Key, Cases.Action) -> Parent.Action,
    effectKey: @escaping (Key) -> PlaceKey?,
    keyName: @escaping (Key) -> String?,
    insert: ((Parent, Cases, Parent.Environment, ChildRoute<Parent>) -> Fx<Parent.Action>)? = nil
  ) {
    self.find = find
    self.all = all
    self.embed = embed
    self.effectKey = effectKey
    self.keyName = keyName
    super.init(following: route, forward: forward, insert: insert)
  }

  /// The route to the model one case holds, within this route: what view stores and
  /// cancellations of that case take.
  ///
  /// ```swift
  /// let editor = store.viewStore(MeetingDetail.destination[case: Destination.editor])
  /// let detail = store.viewStore(MeetingList.path[case: Path.detail], id: 0)
  /// ```
  ///
  /// - Parameter embed: The case: `Destination.editor`.
  /// - Returns: The route; `forward` through it is `forward` through this one.
  public subscript<Child: ArborealModel>(case embed: @escaping (Child) -> Cases)
    -> ModelRoute<Parent, Child, Key, Input>
  {
    let (find, all, embedCases) = (self.find, self.all, self.embed)
    let place = ModelPlace<Parent, Child, Key>(
      path: path, entries: entries, find: { find($0, $1)?[case: embed] },
      all: { parent in
        all(parent).compactMap { entry in entry.value[case: embed].map { (entry.key, $0) } }
      },
      // Entered, listed and forwarded through the enumeration's route, never through this.
      key: { _ in nil }, effectKey: effectKey,
      embedding: { parent, key in
        guard let value = find(parent, key), value[case: embed] != nil,
          let embedChild = Cases.embedding(actionsOf: Child.self, heldIn: value)
        else { return nil }
        return { embedCases(key, embedChild($0)) }
      },
      dismissal: { _ in nil }, keyName: keyName)
    return ModelRoute(following: self, place: place, forward: forward)
  }
}

/// A route's `forward`: sends what the parent's `forward` takes to the child, from the parent's
/// services, and returns the child's effects as the parent's. Made in the module that declares
/// the route (the factories are inlinable), so that it is specialised for its models.
@usableFromInline
typealias RouteForward<Parent: ArborealModel, Input> =
  (Parent, Input, Parent.Environment, ChildRoute<Parent>) -> Fx<Parent.Action>

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
  /// A presentation dismisses on `.dismiss`, a stack pops on `.popFrom(id:)`, an alert of an
  /// enumeration closes on any button, and an action for a child that is not there is
  /// dropped and reported in debug builds. In debug builds, a route whose children subscribe
  /// or declare routes of their own, but which this model's ``ArborealModel/routes`` does not
  /// list, is reported once to ``ArborealDiagnostics/droppedActionHandler``: without it, their
  /// work would start only when an action reaches them.
  ///
  /// - Parameters:
  ///   - input: What the route's `tag` takes: the child's action, a ``PresentationAction`` or
  ///     a ``StackAction``.
  ///   - route: The route, declared once (`static let destination = ChildRoute.destination(…)`).
  ///   - environment: This model's services; the route makes the child's.
  /// - Returns: The child's effects, tagged.
  /// - Complexity: That of the route's kind: O(1) to find a held, optional or presented child
  ///   or a case, O(log *n*) a screen among *n*; plus the child's update.
  @inlinable
  public func forward<Input>(
    _ input: Input, to route: InputRoute<Self, Input>, environment: Environment
  ) -> Fx<Action> {
    let fx = route.forward(self, input, environment, route)
    #if DEBUG
      RouteDeclarations.check(route, in: self)
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
  /// - Parameters:
  ///   - action: The child's action.
  ///   - route: The route, declared once (`static let rows = ChildRoute.children(…)`).
  ///   - id: The child's identifier.
  ///   - environment: This model's services; the route makes the child's.
  /// - Returns: The child's effects, tagged; ``Fx/none`` when there is no such child.
  /// - Complexity: O(*n*) to find the child among *n*, plus the child's update.
  @inlinable
  public func forward<Child: ArborealModel, Key>(
    _ action: Child.Action, to route: ModelRoute<Self, Child, Key, (Key, Child.Action)>,
    id: Key, environment: Environment
  ) -> Fx<Action> {
    let fx = route.forward(self, (id, action), environment, route)
    #if DEBUG
      RouteDeclarations.check(route, in: self)
    #endif
    return fx
  }

  /// Sends a child action to a child of the collection `route` reaches that this model has in
  /// hand (while it goes through its children, say), without finding it by its identifier.
  ///
  /// ```swift
  /// case .refreshAll:
  ///   return .merge(photos.map { forward(.refresh, to: Self.photos, child: $0, environment: environment) })
  /// ```
  ///
  /// The same as ``forward(_:to:id:environment:)`` without the search, so a loop over every
  /// child costs O(*n*), not O(*n*²): the child's effects belong to it, and end when the
  /// collection no longer holds it (an effect of a child that is not in the collection when the
  /// action's effects start never starts).
  ///
  /// - Parameters:
  ///   - action: The child's action.
  ///   - route: The collection's route, declared once (`static let photos = ChildRoute.children(…)`).
  ///   - child: The child, an element of the collection.
  ///   - environment: This model's services; the route makes the child's.
  /// - Returns: The child's effects, tagged.
  /// - Complexity: O(*e*) for *e* effects, plus the child's update.
  public func forward<Child: ArborealModel & Identifiable>(
    _ action: Child.Action, to route: ModelRoute<Self, Child, Child.ID, (Child.ID, Child.Action)>,
    child: Child, environment: Environment
  ) -> Fx<Action> {
    // Only `ChildRoute.children` makes a route of this type, and it always sets the closure.
    guard let forwardChild = route.forwardChild else {
      preconditionFailure("a route of a collection without its forward to a child in hand")
    }
    let fx = forwardChild(self, child, action, environment, route)
    #if DEBUG
      RouteDeclarations.check(route, in: self)
    #endif
    return fx
  }
}

// MARK: - Push and present

extension ArborealModel {
  /// Pushes a screen on the stack `route` reaches and starts its subscriptions at once, when its
  /// model is a ``SubscribingModel``: a timer screen that runs from the start ticks without
  /// being sent an action first.
  ///
  /// ```swift
  /// case .recordTapped:
  ///   return push(Recorder(), on: Self.path, environment: environment)
  ///   // a stack of several kinds: push(.record(Recorder()), on: Self.path, environment: …)
  /// ```
  ///
  /// The same as `path.push(screen)` for any other screen. A screen pushed with
  /// ``ModelStack/push(_:)`` has its subscriptions started after the action when the stack is
  /// one of this model's ``ArborealModel/routes``, and otherwise only after the first action
  /// forwarded to it.
  ///
  /// - Parameters:
  ///   - screen: The screen: a model, or a value of the stack's enumeration of screens.
  ///   - route: The stack's route, declared once (`static let path = ChildRoute.stack(…)`).
  ///   - environment: This model's services; the route makes the screen's.
  /// - Returns: The screen's subscriptions, tagged; ``Fx/none`` for a screen without any.
  public func push<Screen, ScreenAction>(
    _ screen: Screen,
    on route: ValueRoute<Self, Screen, StackElementID, StackAction<ScreenAction>>,
    environment: Environment
  ) -> Fx<Action> {
    // Only `ChildRoute.stack` makes a route of this type, and it always sets the closure.
    guard let insert = route.insert else { preconditionFailure("a stack's route without its push") }
    return insert(self, screen, environment, route)
  }

  /// Presents a child or a destination at the place `route` reaches and starts its model's
  /// subscriptions at once, when it is a ``SubscribingModel``.
  ///
  /// ```swift
  /// case .recordTapped:
  ///   return present(Recorder(), at: Self.recorder, environment: environment)
  ///   // an enumeration of destinations: present(.record(Recorder()), at: Self.destination, …)
  /// ```
  ///
  /// The same as assigning it for any other model. One assigned directly has its
  /// subscriptions started after the action when the property is one of this model's
  /// ``ArborealModel/routes``, and otherwise only after the first action forwarded to it.
  ///
  /// - Parameters:
  ///   - value: The child, or the destination.
  ///   - route: The route, declared once: `ChildRoute.child(…)` over an optional property
  ///     whose `tag` takes a ``PresentationAction``, or `ChildRoute.destination(…)`.
  ///   - environment: This model's services; the route makes the child's.
  /// - Returns: The model's subscriptions, tagged; ``Fx/none`` for a model without any.
  public func present<Value, ValueAction>(
    _ value: Value, at route: ValueRoute<Self, Value, Void, PresentationAction<ValueAction>>,
    environment: Environment
  ) -> Fx<Action> {
    // Only the factories of presentations make a route of this type, and they set the closure.
    guard let insert = route.insert else { preconditionFailure("a presentation without present") }
    return insert(self, value, environment, route)
  }
}

extension ArborealModel {
  /// Not a `forward`: the child itself was given where its route goes. A route shares its
  /// property's name, so `forward(action, to: child, …)` in an update names the property, not
  /// the route; this says so rather than the compiler's "static member cannot be used on
  /// instance".
  @available(
    *, unavailable,
    message:
      "forward takes the child's route, not the child: `forward(action, to: Self.child, environment: environment)`"
  )
  public func forward<Child: ArborealModel>(
    _ action: Child.Action, to child: Child, environment: Environment
  ) -> Fx<Action> {
    fatalError("unavailable")
  }

  /// Not a `forward`: the optional child itself was given where its route goes.
  @available(
    *, unavailable,
    message:
      "forward takes the child's route, not the child: `forward(action, to: Self.child, environment: environment)`"
  )
  public func forward<Child: ArborealModel, Input>(
    _ input: Input, to child: Child?, environment: Environment
  ) -> Fx<Action> {
    fatalError("unavailable")
  }

  /// No longer available: `forward` with a key path and a tag. Declare the child's route once
  /// and forward through it.
  @available(
    *, unavailable,
    message:
      "forward takes a route: declare it once (`static let child = ChildRoute.child(\\Parent.child, tag: Action.child)`; `.children`, `.stack`, `.destination` for the other places) and write `forward(action, to: Self.child, environment: environment)`"
  )
  public func forward<Value, Tag>(
    _ action: some Any, to path: KeyPath<Self, Value>, environment: some Any, tag: Tag
  ) -> Fx<Action> {
    fatalError("unavailable")
  }
}

/// The routes `forward` was given that their model's `routes` does not list, reported once
/// each. Debug builds only.
@usableFromInline
enum RouteDeclarations {
  /// The places checked, by parent type and key path: not by the route's identity, which a
  /// route made afresh and released leaves to the next object at its address.
  private static let checked = Locked.make(Set<RouteKey>())

  @usableFromInline
  static func check<Parent: ArborealModel, Input>(
    _ route: InputRoute<Parent, Input>, in parent: Parent
  ) {
    // Listed as this instance, or as another made the same way (a computed `static var`).
    guard route.hasFollowedChildren(),
      !Parent.routes.contains(where: { $0 === route || $0.path == route.path })
    else { return }
    let property = PlaceNames.name(of: route.path, in: parent) { _ = route.entries(parent) }
    let message =
      "Arboreal: a forward or a view store goes through a route over "
      + "\(Parent.self).\(property) (\(type(of: route.path).valueType)) that "
      + "\(Parent.self).routes does not list, so its children's subscriptions start only "
      + "when an action reaches them. Add it: `static let routes: [ChildRoute<\(Parent.self)>] "
      + "= [...]` with the route the `forward` takes (with the type: `static let routes = "
      + "[...]` alone declares another property, which the store never reads)."
    // The handler hears it once per place; a test store, every time (each test fails).
    if checked.withLock({
      $0.insert(RouteKey(parent: ObjectIdentifier(Parent.self), path: route.path)).inserted
    }) {
      ArborealDiagnostics.reportDroppedAction(message)
    } else {
      ArborealDiagnostics.reportToUpdatingStore(message)
    }
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
  /// - Parameter route: The route, declared once with ``ChildRoute/child(_:tag:)->ModelRoute<Parent,Child,Held,Child.Action>``.
  /// - Returns: The view store; it keeps this store alive.
  @inlinable
  public func viewStore<Child: ArborealModel, Input>(
    _ route: ModelRoute<Model, Child, Held, Input>
  ) -> ViewStore<Child> {
    let find = route.place.find
    #if DEBUG
      RouteDeclarations.check(route, in: state)
    #endif
    // A held child is always there, and its actions always embed.
    let embed = route.place.embedding(state, Held()).unsafelyUnwrapped
    // The forwarding closure is made here, inlined in the caller's module, so that it calls
    // this store's `send` specialised for its model rather than through the protocol.
    return makeViewStore(
      get: { find($0, Held()).unsafelyUnwrapped }, forward: { action in self.send(embed(action)) })
  }

  /// A view store scoped to the optional, presented or enumeration's child a route reaches;
  /// nil while there is none.
  ///
  /// ```swift
  /// if let editor = store.viewStore(MeetingDetail.destination[case: Destination.editor]) {
  ///   render(editor)
  /// }
  /// ```
  ///
  /// When the child later goes away, the view store's ``ViewStore/isPresent`` becomes false
  /// and its sends are dropped and, in debug builds, reported; when another is there, it
  /// follows that one.
  ///
  /// - Parameter route: The route.
  /// - Returns: The view store, or nil; it keeps this store alive.
  public func viewStore<Child: ArborealModel, Input>(
    _ route: ModelRoute<Model, Child, Void, Input>
  ) -> ViewStore<Child>? {
    viewStore(route, id: ())
  }

  /// A view store scoped to the child with `id` a route reaches (in a collection, on a stack);
  /// nil when there is none.
  ///
  /// ```swift
  /// let row = store.viewStore(Todos.rows, id: id)
  /// let detail = store.viewStore(MeetingList.path[case: Path.detail], id: 0)
  /// ```
  ///
  /// If the child later disappears, the view store's ``ViewStore/isPresent`` becomes false,
  /// its `state` keeps returning the last child it saw, and its sends are dropped (and, in
  /// debug builds, reported); if a child with the key appears again, it follows that one.
  ///
  /// - Parameters:
  ///   - route: The route.
  ///   - id: The child's key.
  /// - Returns: The view store, or nil; it keeps this store alive.
  /// - Complexity: That of finding the child (O(*n*) in a collection of *n*, O(log *n*) on a
  ///   stack), on each read of its state.
  public func viewStore<Child: ArborealModel, Key, Input>(
    _ route: ModelRoute<Model, Child, Key, Input>, id: Key
  ) -> ViewStore<Child>? {
    guard let model = presentState else { return nil }
    #if DEBUG
      RouteDeclarations.check(route, in: model)
    #endif
    guard let child = route.place.find(model, id), let embed = route.place.embedding(model, id)
    else {
      return nil
    }
    let find = route.place.find
    return ViewStore(
      child: child,
      resolve: { self.presentState.flatMap { find($0, id) } },
      isParentPresent: { self.isPresent },
      keyName: route.place.keyName(id),
      parentType: Model.self,
      forward: { action in self.send(embed(action)) })
  }

  /// View stores for every child a route holds now, in its order (a collection's, a stack's
  /// bottom first; one or none for an unkeyed route).
  ///
  /// ```swift
  /// for row in store.viewStores(Todos.rows) { render(row) }
  /// ```
  ///
  /// - Parameter route: The route.
  /// - Returns: One view store per child; empty when this store's model is gone.
  /// - Complexity: O(*n*) for *n* children; each view store's state is then found by its key
  ///   on each read, as a keyed view store's.
  public func viewStores<Child: ArborealModel, Key, Input>(
    _ route: ModelRoute<Model, Child, Key, Input>
  ) -> [ViewStore<Child>] {
    guard let model = presentState else { return [] }
    #if DEBUG
      RouteDeclarations.check(route, in: model)
    #endif
    let find = route.place.find
    // Each made with its child in hand: finding each by its key would be O(n²).
    return route.place.all(model).compactMap { entry in
      let key = entry.key
      guard let embed = route.place.embedding(model, key) else { return nil }
      return ViewStore(
        child: entry.child,
        resolve: { self.presentState.flatMap { find($0, key) } },
        isParentPresent: { self.isPresent },
        keyName: route.place.keyName(key),
        parentType: Model.self,
        forward: { action in self.send(embed(action)) })
    }
  }
}

// MARK: - Cancellation

extension ArborealModel {
  /// An effect that cancels every running effect of the children `route` holds now (the
  /// child always held, the optional or presented one, a case's, every child of a collection
  /// or of a stack), and those of their own children; no other child's, even of the same
  /// type.
  ///
  /// ```swift
  /// case .stopEditor:
  ///   return cancel(Self.editor)
  /// ```
  ///
  /// A child set to nil, removed or replaced needs none: `forward` ends its effects within
  /// that action.
  ///
  /// - Parameter route: The route, declared once.
  /// - Returns: The cancellations, performed in order with the effects they are merged with;
  ///   ``Fx/none`` when the route holds no child.
  /// - Complexity: O(*n*) for *n* children.
  public func cancel<Child: ArborealModel, Key, Input>(
    _ route: ModelRoute<Self, Child, Key, Input>
  ) -> Fx<Action> {
    let effectKey = route.place.effectKey
    let ids = route.place.all(self).map { entry in
      CancelID(
        member: EffectScope(Child.Action.self, instance: entry.child, key: effectKey(entry.key)))
    }
    return ids.isEmpty ? .none : Fx(effects: ids.map { .cancel($0) })
  }

  /// An effect that cancels every running effect of the child with `id` that `route` holds
  /// (in a collection, on a stack), and those of its own children.
  ///
  /// ```swift
  /// case .stopRow(let id):
  ///   return cancel(Self.rows, id: id)
  /// ```
  ///
  /// - Parameters:
  ///   - route: The route, declared once.
  ///   - id: The child's key.
  /// - Returns: The cancellation; ``Fx/none`` when there is no such child.
  /// - Complexity: That of finding the child.
  public func cancel<Child: ArborealModel, Key, Input>(
    _ route: ModelRoute<Self, Child, Key, Input>, id: Key
  ) -> Fx<Action> {
    guard let child = route.place.find(self, id) else { return .none }
    let membership = EffectScope(Child.Action.self, instance: child, key: route.place.effectKey(id))
    return Fx(effects: [.cancel(CancelID(member: membership))])
  }
}
