/// The side effects an update asks its store to run: async work whose results come back as
/// actions.
///
/// An `update(action:environment:)` changes the model synchronously and returns an `Fx`
/// describing the work to do next: a network request, a timer, a database write. The store
/// starts each effect in a task of its own, **off the store's isolation**, and sends every
/// action an effect produces back into the store, in its isolation (the main actor, or the
/// actor the store lives on), where the next `update` handles it.
///
/// ```swift
/// func update(action: Action, environment: Environment) -> Fx<Action> {
///   switch action {
///   case .refresh:
///     isLoading = true
///     let query = self.query  // copy what the effect needs: it must not capture `self`
///     return Fx {
///       try await environment.api.search(query)
///     } catch: { error in
///       .failed("\(error)")
///     }
///     .cancellable(id: "search", cancelInFlight: true)
///   case .loaded(let results):
///     isLoading = false
///     self.results = results
///     return .none
///   // ...
///   }
/// }
/// ```
///
/// Effects are `@Sendable` closures, so they cannot capture the model (a non-`Sendable`
/// class): copy the values an effect needs into locals before building the `Fx`, and use the
/// `environment` (which is `Sendable`) for services.
///
/// An `Fx` is a value: building one starts nothing. `Fx.none` holds no effect and costs
/// nothing to return or to send.
///
/// - Note: Effects run concurrently with each other; the actions of one effect arrive in the
///   order it sends them, and always after the action whose update returned the effect.
public struct Fx<Action: Sendable>: Sendable {
  /// The entries, or nil for none.
  ///
  /// Why a class reference and not the array itself: the store's code is generic and not
  /// specialised for the model, and there, even asking an empty `[FxEntry<Action>]` whether it
  /// is empty looks up generic metadata at run time (about half the cost of a plain `send`).
  /// A nil check costs nothing, and `Fx.none` builds nothing.
  @usableFromInline let storage: Storage?

  /// The entries of a non-empty `Fx`.
  @usableFromInline
  final class Storage: Sendable {
    @usableFromInline let effects: [FxEntry<Action>]

    @usableFromInline
    init(_ effects: [FxEntry<Action>]) {
      self.effects = effects
    }
  }

  @usableFromInline init(storage: Storage?) {
    self.storage = storage
  }

  @inlinable
  init(effects: [FxEntry<Action>]) {
    self.storage = effects.isEmpty ? nil : Storage(effects)
  }

  @inlinable
  init(work: FxEntry<Action>.Work) {
    self.storage = Storage([.run(work)])
  }

  /// The entries, handled in order by the store.
  @inlinable
  var effects: [FxEntry<Action>] { storage?.effects ?? [] }

  /// No effect. Return it when an update has no side effect.
  ///
  /// ```swift
  /// case .increment:
  ///   count += 1
  ///   return .none
  /// ```
  // Inlinable: most updates return it, and inlined into the (specialised) update it is a nil
  // constant; called across the module boundary it would look up `Fx<Action>`'s generic
  // metadata every time.
  @inlinable public static var none: Fx { Fx(storage: nil) }

  /// Whether this holds no effect and no cancellation.
  @inlinable
  var isNone: Bool { storage?.effects.isEmpty ?? true }

  /// What a `forward` returns for an action whose child is not there: no effect, marked
  /// ``isDropped``. Its storage holds no entry, which nothing else makes (`init(effects:)`
  /// stores nil for none), so the mark costs an allocation only on that rare way.
  @usableFromInline static var dropped: Fx { Fx(storage: Storage([])) }

  /// Whether a `forward` returned this for an action that reached no child: the child was
  /// removed, dismissed, popped, is another case, or was never there (an alert's button
  /// when no alert is up, an action of a screen already popped). It holds no effect.
  ///
  /// The parent tells in one line that it must not act on the action as if the child had
  /// had it:
  ///
  /// ```swift
  /// case .destination(let action):
  ///   let fx = forward(action, to: Self.destination, environment: environment)
  ///   guard !fx.isDropped else { return fx }
  ///   if case .presented(.alert(.confirmDelete)) = action { return delete() }
  ///   return fx
  /// ```
  ///
  /// False for every other `Fx`, `Fx.none` included, and for what ``merge(_:)-(Fx<Action>...)``
  /// returns.
  public var isDropped: Bool { storage.map { $0.effects.isEmpty } ?? false }

  /// An effect that runs `operation` and sends the action it returns.
  ///
  /// ```swift
  /// let id = self.selectedID
  /// return Fx { .loaded(await environment.database.item(id)) }
  /// ```
  ///
  /// - Parameter operation: The async work, run off the store's isolation.
  @inlinable
  public init(_ operation: @escaping @Sendable () async -> Action) {
    self.init(work: FxEntry.Work(operation: { send in await send(await operation()) }))
  }

  /// An effect that runs a throwing `operation` and sends the action it returns, or the
  /// action `catch` makes of the error it throws.
  ///
  /// ```swift
  /// let credentials = self.credentials
  /// return Fx {
  ///   .signedIn(try await environment.auth.signIn(credentials))
  /// } catch: { error in
  ///   .signInFailed("\(error)")
  /// }
  /// ```
  ///
  /// When the effect is cancelled, nothing is sent, whatever the operation throws.
  ///
  /// - Parameters:
  ///   - operation: The async work, run off the store's isolation.
  ///   - catch: Turns an error thrown by `operation` into an action.
  @inlinable
  public init(
    _ operation: @escaping @Sendable () async throws -> Action,
    catch: @escaping @Sendable (any Error) -> Action
  ) {
    let handle = `catch`
    self.init(
      work: FxEntry.Work(operation: { send in
        let action: Action
        do {
          action = try await operation()
        } catch {
          action = handle(error)
        }
        await send(action)
      }))
  }

  /// An effect that sends any number of actions, one `send` call each.
  ///
  /// `send` returns once the store has handled the action, so the actions arrive in the order
  /// they are sent. After the effect is cancelled (or its store released), `send` drops its
  /// action and returns.
  ///
  /// ```swift
  /// return .run { send in
  ///   await send(.progress(0))
  ///   for await percent in environment.downloader.download(url) {
  ///     await send(.progress(percent))
  ///   }
  ///   await send(.finished)
  /// }
  /// ```
  ///
  /// The same form sends the elements of an `AsyncSequence` (a loop over it, as above), and
  /// does work that sends nothing back (logging, analytics), whose body never calls `send`:
  ///
  /// ```swift
  /// let event = "opened \(title)"
  /// return .run { _ in try? await environment.analytics.track(event) }
  /// ```
  ///
  /// A body that throws needs ``run(_:catch:)``, or a `try?` that says the error is dropped
  /// on purpose.
  ///
  /// - Parameter body: The async work, run off the store's isolation.
  /// - Returns: The effect.
  @inlinable
  public static func run(
    _ body: @escaping @Sendable (_ send: @escaping @Sendable (Action) async -> Void) async -> Void
  ) -> Fx {
    Fx(work: FxEntry.Work(operation: body))
  }

  /// An effect that sends any number of actions, and hands the error its body throws to
  /// `catch`, which may send more.
  ///
  /// ```swift
  /// return .run { send in
  ///   for try await line in try await environment.log.lines() {
  ///     await send(.line(line))
  ///   }
  /// } catch: { error, send in
  ///   await send(.failed("\(error)"))
  /// }
  /// ```
  ///
  /// When the effect is cancelled, `catch` is not called (whatever the body throws), and any
  /// action sent is dropped.
  ///
  /// - Parameters:
  ///   - body: The async work, run off the store's isolation.
  ///   - catch: Handles the error that ended `body`; runs off the store's isolation, in the effect's
  ///     task.
  /// - Returns: The effect.
  @inlinable
  public static func run(
    _ body:
      @escaping @Sendable (_ send: @escaping @Sendable (Action) async -> Void) async throws
      -> Void,
    catch:
      @escaping @Sendable (
        _ error: any Error, _ send: @escaping @Sendable (Action) async -> Void
      ) async -> Void
  ) -> Fx {
    let handle = `catch`
    return Fx(
      work: FxEntry.Work(operation: { send in
        do {
          try await body(send)
        } catch {
          guard !Task.isCancelled else { return }
          await handle(error, send)
        }
      }))
  }

  /// The effects of all of `effects`, in order.
  ///
  /// ```swift
  /// return .merge(
  ///   Fx { .profileLoaded(await environment.api.profile()) },
  ///   .run { _ in await environment.analytics.track("profile") }
  /// )
  /// ```
  ///
  /// - Parameter effects: The effects to combine.
  /// - Returns: One `Fx` holding every effect.
  /// - Complexity: O(*n*) for *n* effects in all.
  public static func merge(_ effects: Fx...) -> Fx {
    merge(effects)
  }

  /// The effects of all of `effects`, in order: how a helper that gathers the effects of
  /// several updates builds the one it returns.
  ///
  /// ```swift
  /// let effects = rows.map { row in
  ///   forward(.refresh, to: Self.rows, child: row, environment: environment)
  /// }
  /// return .merge(effects)
  /// ```
  ///
  /// - Parameter effects: The effects to combine; an empty sequence gives ``none``.
  /// - Returns: One `Fx` holding every effect.
  /// - Complexity: O(*n*) for *n* effects in all.
  public static func merge(_ effects: some Sequence<Fx>) -> Fx {
    var merged: [FxEntry<Action>] = []
    for fx in effects { merged.append(contentsOf: fx.effects) }
    return Fx(effects: merged)
  }

  /// No longer available: forward a child's actions through its route with
  /// ``ArborealModel/forward(_:to:environment:)``.
  ///
  /// Mapping the effects of a child's update by hand knew nothing of the child instance: two
  /// children of the same type shared cancellation identifiers, a ``SubscribingModel`` child's
  /// subscriptions never started, and the child's effects outlived it. `forward` does all
  /// three right:
  ///
  /// ```swift
  /// // static let editor = ChildRoute.child(\Parent.editor, environment: { $0.editor }, tag: Action.editor)
  /// case .editor(let action):
  ///   return forward(action, to: Self.editor, environment: environment)
  /// ```
  ///
  /// - Parameter transform: Turns a child action into a parent action.
  /// - Returns: The tagged effects.
  @available(
    *, unavailable,
    message:
      "Forward a child's actions through its route with forward(_:to:environment:) (declare it once: static let child = ChildRoute.child(\\Parent.child, tag: Action.child)): it gives the child's effects their own cancel ids, subscriptions and lifetime"
  )
  public func tag<Parent: Sendable>(
    _ transform: @escaping @Sendable (Action) -> Parent
  ) -> Fx<Parent> {
    Fx<Parent>(effects: effects.map { $0.tag(transform, scope: EffectScope(Action.self)) })
  }

  /// No longer available: forward the actions of a child in a collection with
  /// ``ArborealModel/forward(_:to:id:environment:)``, or
  /// ``ArborealModel/forward(_:to:child:environment:)`` for a child in hand.
  ///
  /// Mapping the effects of a row's update by hand scoped them by the row's key, not by the
  /// row: a row replaced by another with the same key shared its identifiers, a
  /// ``SubscribingModel`` row's subscriptions never started, and a removed row's effects ran on
  /// until the parent cancelled them. `forward` does all three right:
  ///
  /// ```swift
  /// // static let rows = ChildRoute.children(\Parent.rows, tag: Action.row)
  /// case .row(let id, let action):
  ///   return forward(action, to: Self.rows, id: id, environment: environment)
  /// ```
  ///
  /// - Parameters:
  ///   - key: The child's identity among its siblings (its id).
  ///   - transform: Turns a child action into a parent action.
  /// - Returns: The tagged effects.
  @available(
    *, unavailable,
    message:
      "Forward a child's actions through its route with forward(_:to:id:environment:) (declare it once: static let rows = ChildRoute.children(\\Parent.rows, tag: Action.row)): it gives the child's effects their own cancel ids, subscriptions and lifetime"
  )
  public func tag<Parent: Sendable>(
    key: some Hashable & Sendable,
    _ transform: @escaping @Sendable (Action) -> Parent
  ) -> Fx<Parent> {
    let scope = EffectScope(Action.self, key: key)
    return Fx<Parent>(effects: effects.map { $0.tag(transform, scope: scope) })
  }

  /// An action delivered at once: the store handles it right after the action whose update
  /// returned it, before any effect's action, without starting a task.
  ///
  /// ```swift
  /// case .saveTapped:
  ///   return .merge(.send(.delegate(.saved(title))), .dismiss)
  /// ```
  ///
  /// Several are handled in the order of the `Fx`'s entries, and a parent receives a child's
  /// tagged like any of its effects' actions. A test store receives it like an effect action
  /// (`await store.receive(…)`). Prefer calling a helper of `update` for work the same model
  /// does next; this is for what another model (a parent) must hear.
  ///
  /// - Parameter action: The action.
  /// - Returns: The delivery.
  public static func send(_ action: Action) -> Fx { Fx(effects: [.send(action, owner: nil)]) }

  /// Asks the parent to dismiss the model whose update returns it: a presented child (a
  /// sheet, an editor) is set to nil, a screen on a stack is popped.
  ///
  /// ```swift
  /// case .saveTapped:
  ///   return .merge(.send(.delegate(.saved(title))), .dismiss)
  /// case .cancelTapped:
  ///   return .dismiss
  /// ```
  ///
  /// The nearest parent that forwards a ``PresentationAction`` or a ``StackAction`` to the
  /// model (or to one of its ancestors) receives its `.dismiss` or `.popFrom(id:)` action at
  /// once, as with ``send(_:)``: after the action that returned it, in order with the model's
  /// other `send`s, before any effect's action. When no such parent exists, the store ignores
  /// it and, in debug builds, reports it to ``ArborealDiagnostics/droppedActionHandler``.
  public static var dismiss: Fx { Fx(effects: [.dismiss]) }

  /// The same effects, cancellable by `id` with ``cancel(id:)``.
  ///
  /// With `cancelInFlight`, starting one of these effects first cancels every running effect
  /// of the same store that is cancellable by `id` (the latest search wins):
  ///
  /// ```swift
  /// case .queryChanged(let query):
  ///   self.query = query
  ///   return Fx { .results(await environment.api.search(query)) }
  ///     .cancellable(id: "search", cancelInFlight: true)
  /// ```
  ///
  /// Identifiers are compared by type and value within the model that returned the effect:
  /// a child's identifiers, once its parent forwards its actions
  /// (``ArborealModel/forward(_:to:id:environment:)`` and its siblings), are the child
  /// instance's own, so sibling rows using the same identifier never cancel each other's
  /// effects. Applying `cancellable` twice makes the effects cancellable by either identifier.
  ///
  /// - Parameters:
  ///   - id: Any hashable, sendable value.
  ///   - cancelInFlight: Whether starting an effect cancels those already running with `id`.
  /// - Returns: The cancellable effects.
  /// - Complexity: O(*n*) for *n* effects.
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Fx {
    let cancelID = CancelID(id)
    return Fx(
      effects: effects.map { effect in
        guard case .run(var work) = effect else { return effect }
        work.cancelIDs.append(cancelID)
        if cancelInFlight { work.cancelInFlightIDs.append(cancelID) }
        return .run(work)
      })
  }

  /// An effect that cancels every running effect cancellable by `id`, among those started by
  /// the model that returns it (a child's `.cancel(id:)` stays within that child).
  ///
  /// The cancelled effects deliver nothing more, even an action they had already produced but
  /// that had not reached the store yet; awaiting their ``SendHandle`` returns.
  ///
  /// ```swift
  /// case .stopTimer:
  ///   return .cancel(id: "timer")
  /// ```
  ///
  /// - Parameter id: The identifier given to ``cancellable(id:cancelInFlight:)``.
  /// - Returns: The cancellation, performed in order with the other effects it is merged with.
  public static func cancel(id: some Hashable & Sendable) -> Fx {
    Fx(effects: [.cancel(CancelID(id))])
  }
}
