/// A value computed from tracked properties, cached until one of them changes: a total, a
/// filtered list, a validation message.
///
/// Declare it on a ``Trackable`` model next to its ``Tracked`` properties, with a closure
/// that receives the model:
///
/// ```swift
/// final class Cart: Trackable {
///   let registrar = TrackingRegistrar()
///   @Tracked var prices: [Int] = []
///   @Derived({ (cart: Cart) in cart.prices.reduce(0, +) }) var total: Int
/// }
/// ```
///
/// or free-standing, over any tracked state the closure captures:
///
/// ```swift
/// let total = Derived { cart.prices.reduce(0, +) }
/// print(total.value)
/// ```
///
/// A derived value is:
///
/// - **Lazy**: computed at its first read, never while nobody reads or observes it.
/// - **Cached**: a read returns the cached result until a tracked property (or another
///   derived value) that the last computation read changes; the next read then recomputes it,
///   once, however many of its inputs changed. A read of a cached value costs a lock and a
///   load per model it depends on, whatever the computation costs.
/// - **Its own dependency**: code that reads it inside `observe`, `withTracking` or another
///   derived value depends on the derived value, not on its inputs. When its inputs change
///   but an `Equatable` result does not, nobody who read only the derived value is notified.
///   An observed derived value is recomputed right after the change that affects it (once per
///   transaction), and notifies its observers only if its result changed.
/// - **Glitch-free**: chains and diamonds of derived values recompute each value at most once
///   per change, and a reader never sees some values before a change and others after it,
///   even inside a transaction or while other observers of the same change run. A
///   computation that takes another branch depends on what that branch reads.
///
/// A derived value that reads itself, directly or through others, stops the program with a
/// message that names the values in the cycle (`Sheet.a → Sheet.b → Sheet.a`): it is a
/// programming error that no result can fix, like an index out of range.
///
/// The computation must not write tracked properties. A model's derived value is computed
/// where the model is read or changed. A free-standing one is computed in the isolation its
/// closure inherited: made on the main actor or another actor, it must be read there (a read
/// from elsewhere stops the program with a message); made in nonisolated code, its closure
/// is `Sendable` and it may be read from any thread. Reading it from several threads at once
/// is safe; two threads that read it while it is out of date may both compute it. Its
/// changes are not state: they do not appear in store logs or `TestStore` assertions.
///
/// `Derived` is `Sendable` when its value is.
@propertyWrapper
public struct Derived<Value> {
  #if ARBOREAL_NEW_DERIVED
    /// Shared by the copies of this value; when the last goes, the value leaves the graph.
    @usableFromInline let handle: GraphDerivedHandle<Value>

    /// The value's storage in the new engine's graph (built with `ARBOREAL_NEW_DERIVED`).
    @inlinable var node: GraphDerivedNode<Value> { handle.node }
  #else
    /// Shared by the copies of this value; when the last goes, the node leaves the graph.
    @usableFromInline let handle: DerivedHandle<Value>

    /// The value's node in the graph of derived values.
    @inlinable var node: DerivedNode<Value> { handle.node }
  #endif

  /// Creates a model's derived value, whose every new result notifies its observers.
  ///
  /// The closure's isolation is the value's: a main-actor model marks it `@MainActor`, and
  /// the value is then computed, and must be read, on the main actor (a read from elsewhere
  /// stops the program with a message):
  ///
  /// ```swift
  /// @MainActor final class Editor: Trackable {
  ///   let registrar = TrackingRegistrar()
  ///   @Tracked var text = ""
  ///   @Derived({ @MainActor (editor: Editor) in editor.text.count }) var length: Int
  /// }
  /// ```
  ///
  /// - Parameter compute: Computes the value from the model; its reads are tracked.
  public init<Model: Trackable>(_ compute: @escaping @isolated(any) @Sendable (Model) -> Value) {
    handle = Self.handle(Self.modelNode(compute, isDuplicate: nil))
  }

  /// Creates a model's derived value whose observers are notified only when its result
  /// changes to a different value.
  ///
  /// The overload the compiler picks for an `Equatable` value: the same spelling as the
  /// general one, with equal results skipped.
  ///
  /// ```swift
  /// @Derived({ (form: Form) in form.email.contains("@") }) var isValid: Bool
  /// ```
  ///
  /// - Parameter compute: Computes the value from the model; its reads are tracked.
  public init<Model: Trackable>(_ compute: @escaping @isolated(any) @Sendable (Model) -> Value)
  where Value: Equatable {
    handle = Self.handle(Self.modelNode(compute, isDuplicate: { $0 == $1 }))
  }

  /// The node of a model's value, computed in the closure's isolation: where the model is
  /// used when it has none.
  #if ARBOREAL_NEW_DERIVED
    private static func modelNode<Model: Trackable>(
      _ compute: @escaping @isolated(any) @Sendable (Model) -> Value,
      isDuplicate: ((Value, Value) -> Bool)?
    ) -> GraphDerivedNode<Value> {
      let plain = synchronous(compute)
      return GraphDerivedNode(
        name: "", delivery: Delivery(compute.isolation), compute: nil,
        modelCompute: { plain(unsafeDowncast($0, to: Model.self)) }, isDuplicate: isDuplicate)
    }

    /// The node of a free-standing value, computed in the closure's isolation.
    private static func freeNode(
      name: String, delivery: Delivery, compute: @escaping () -> Value,
      isDuplicate: ((Value, Value) -> Bool)?
    ) -> GraphDerivedNode<Value> {
      GraphDerivedNode(
        name: name, delivery: delivery, compute: compute, modelCompute: nil,
        isDuplicate: isDuplicate)
    }

    /// A handle on `node`.
    private static func handle(_ node: GraphDerivedNode<Value>) -> GraphDerivedHandle<Value> {
      GraphDerivedHandle(node)
    }
  #else
    private static func modelNode<Model: Trackable>(
      _ compute: @escaping @isolated(any) @Sendable (Model) -> Value,
      isDuplicate: ((Value, Value) -> Bool)?
    ) -> DerivedNode<Value> {
      let plain = synchronous(compute)
      return DerivedNode(
        modelCompute: { plain(unsafeDowncast($0, to: Model.self)) }, isDuplicate: isDuplicate,
        delivery: Delivery(compute.isolation))
    }

    /// The node of a free-standing value, computed in the closure's isolation.
    private static func freeNode(
      name: String, delivery: Delivery, compute: @escaping () -> Value,
      isDuplicate: ((Value, Value) -> Bool)?
    ) -> DerivedNode<Value> {
      DerivedNode(name: name, delivery: delivery, compute: compute, isDuplicate: isDuplicate)
    }

    /// A handle on `node`.
    private static func handle(_ node: DerivedNode<Value>) -> DerivedHandle<Value> {
      DerivedHandle(node)
    }
  #endif

  /// Creates a free-standing derived value, whose every new result notifies its observers.
  ///
  /// - Parameters:
  ///   - name: The name its changes carry in ``TrackingChanges``.
  ///   - isolation: The caller's isolation; leave the default.
  ///   - compute: Computes the value; its reads are tracked. It inherits the caller's actor,
  ///     and runs there.
  public init(
    _ name: String = "derived",
    isolation: isolated (any Actor)? = #isolation,
    @_inheritActorContext _ compute: @escaping @isolated(any) @Sendable () -> Value
  ) {
    handle = Self.handle(
      Self.freeNode(
        name: name, delivery: Delivery(compute.isolation ?? isolation),
        compute: synchronous(compute), isDuplicate: nil))
  }

  /// Creates a free-standing derived value whose observers are notified only when its result
  /// changes to a different value.
  ///
  /// ```swift
  /// let total = Derived("total") { cart.prices.reduce(0, +) }
  /// let token = observe { _ in print("total:", total.value) }
  /// ```
  ///
  /// - Parameters:
  ///   - name: The name its changes carry in ``TrackingChanges``.
  ///   - isolation: The caller's isolation; leave the default.
  ///   - compute: Computes the value; its reads are tracked. It inherits the caller's actor,
  ///     and runs there.
  public init(
    _ name: String = "derived",
    isolation: isolated (any Actor)? = #isolation,
    @_inheritActorContext _ compute: @escaping @isolated(any) @Sendable () -> Value
  ) where Value: Equatable {
    handle = Self.handle(
      Self.freeNode(
        name: name, delivery: Delivery(compute.isolation ?? isolation),
        compute: synchronous(compute), isDuplicate: { $0 == $1 }))
  }

  /// The value of a free-standing derived value: the cached result, or a new one when an
  /// input changed. Inside a tracking closure, the read is tracked.
  ///
  /// A model's derived value is read through its property (`cart.total`).
  ///
  /// - Complexity: O(*m*) for the *m* models the value depends on when it is cached;
  ///   otherwise the cost of the computation.
  @inlinable public var value: Value {
    // Borrowed, not retained: `self` holds the node for the whole read.
    Unmanaged.passUnretained(node)._withUnsafeGuaranteedRef { $0.read(owner: nil) }
  }

  /// The key that observers of this value depend on; ``TrackingChanges`` names it when the
  /// value changes.
  public var key: TrackingKey { node.key }

  /// Unavailable: a model's derived value is read through the model (`cart.total`).
  @available(
    *, unavailable, message: "@Derived is only available on properties of Trackable classes"
  )
  public var wrappedValue: Value {
    fatalError("@Derived is only available on properties of Trackable classes")
  }

  // The enclosing-instance subscripts below have the shape the language fixes for a property
  // wrapper of a class, as `Tracked`'s do: deliberate twins.

  /// The value, up to date, read through the model.
  @inlinable
  public static subscript<Model: Trackable>(
    _enclosingInstance model: Model,
    wrapped wrappedKeyPath: KeyPath<Model, Value>,
    storage storageKeyPath: KeyPath<Model, Derived<Value>>
  ) -> Value {
    // Borrowed, not retained: the model holds the node for the whole read (see `value`).
    Unmanaged.passUnretained(model[keyPath: storageKeyPath].node)._withUnsafeGuaranteedRef {
      $0.read(owner: model)
    }
  }

  /// The value's key (`cart.$total`), which ``TrackingChanges`` names when it changes.
  public static subscript<Model: Trackable>(
    _enclosingInstance model: Model,
    projected projectedKeyPath: KeyPath<Model, TrackingKey>,
    storage storageKeyPath: KeyPath<Model, Derived<Value>>
  ) -> TrackingKey {
    let node = model[keyPath: storageKeyPath].node
    return model.registrar.core.named(node.key.id, of: model)
  }

  /// Unavailable: the key is reached through the model (`cart.$total`).
  @available(
    *, unavailable, message: "@Derived is only available on properties of Trackable classes"
  )
  public var projectedValue: TrackingKey { key }
}

extension Derived: Sendable where Value: Sendable {}

/// The owner of a derived value's node on behalf of the ``Derived`` values that share it.
///
/// The graph holds nodes strongly (a dependent its sources, a source its dependents, a
/// registrar the input link that marks a node): no weak reference, so no side table and no
/// slow retain on the paths that walk it. The cycles that makes end here: when the last
/// `Derived` of a node goes, the node is disposed (``DerivedNodeBase/dispose()``) and lets go
/// of the graph.
///
/// Invariant (why `@unchecked Sendable` holds): `node` is immutable, and a node is
/// thread-safe.
@usableFromInline
final class DerivedHandle<Value>: @unchecked Sendable {
  /// Held by a retain taken in `init` and handed over in `deinit`, not by the reference
  /// itself: the node's last release then happens where ``DerivedNodeBase/disposeIteratively(_:)``
  /// chooses, not after this handle's `deinit` (where a chain's release would nest).
  @usableFromInline unowned(unsafe) let node: DerivedNode<Value>

  init(_ node: DerivedNode<Value>) {
    self.node = node
    _ = Unmanaged.passRetained(node)
  }

  deinit { DerivedNodeBase.disposeIteratively(Unmanaged.passUnretained(node)) }
}

extension Derived: TrackedStorage {
  var trackingKeyID: UInt64 { node.key.id }
}
