import Synchronization

/// A property of a ``Trackable`` class whose reads are tracked and whose changes notify the
/// observers that read it.
///
/// ```swift
/// final class Counter: Trackable {
///   let registrar = TrackingRegistrar()
///   @Tracked var count = 0
/// }
/// ```
///
/// When the value is `Equatable` (through a conformance usable from any isolation), setting it
/// to an equal value notifies nobody, and so does a transaction that sets it and sets it back
/// (only net changes count). A reference (a child model) or an optional reference is compared
/// by identity the same way: nil over nil is no change. Other values always notify. The property's name (`count`) is
/// looked up by reflection the first time a change is reported (or given:
/// `@Tracked("count") var count = 0`) and appears in ``TrackingChanges``; `$count` is the
/// property's ``TrackingKey``. A given name is kept once for the whole program, not in each
/// instance; past 65,535 distinct given names, a property is named after its declaration
/// (reported once in debug builds).
///
/// In-place mutations (`items.append(x)`, `items[i].done = true`) do not copy the value,
/// observed or not: each costs O(1) beyond the edit itself. The price is that an in-place edit
/// of a non-trivial value (a collection, a string) is always reported as a change, even one
/// that leaves it equal; a trivial value (`count += 0`) is compared. A compound assignment
/// (`count += 1`) counts as a read inside a tracking closure.
///
/// `@Tracked` works only in a class that conforms to ``Trackable``. In a class that does not,
/// the compiler reports "static subscript 'subscript(_enclosingInstance:wrapped:storage:)'
/// requires that '…' conform to 'Trackable'" without a source location (a limitation of
/// property wrappers that reach their enclosing instance, which cannot offer a fallback):
/// add `: Trackable` and `let registrar = TrackingRegistrar()` to the class named there. In
/// a struct or an enum it reports that `@Tracked` is only available on properties of
/// `Trackable` classes.
///
/// When nothing is tracking, a read costs a few loads more than a stored property; when
/// nothing observes the property, a write costs a few loads more. Neither allocates. Like any
/// stored property, the value itself is not synchronised: writing it from one thread while
/// another reads it is a data race.
@propertyWrapper
public struct Tracked<Value> {
  // The fast paths touch only `value` and `id`; the rest is for notifications.
  @usableFromInline var value: Value
  /// The property's identity; it also carries the name given to `@Tracked`, if any (see
  /// `ExplicitNames`), so that an instance does not store the name per property.
  @usableFromInline let id: UInt64
  /// Returns true for equal values; nil when `Value` is not `Equatable`.
  @usableFromInline let isDuplicate: (@Sendable (Value, Value) -> Bool)?

  /// Creates a tracked property whose every write notifies its observers, unless the value is
  /// a reference (a child model) or an optional reference: then writing the same instance, or
  /// nil over nil, notifies nobody.
  ///
  /// - Parameters:
  ///   - wrappedValue: The initial value.
  ///   - name: The name reported in ``TrackingChanges``; by default, the declared property's
  ///     name, looked up once when first needed.
  @inlinable
  public init(wrappedValue: Value, _ name: String = "") {
    self.value = wrappedValue
    self.id = name.isEmpty ? TrackingKey.nextID() : TrackingKey.nextID(named: name)
    self.isDuplicate = ReferenceIdentity.comparison(for: Value.self)
  }

  /// Creates a tracked property whose writes of an equal value notify nobody.
  ///
  /// - Parameters:
  ///   - wrappedValue: The initial value.
  ///   - name: The name reported in ``TrackingChanges``; by default, the declared property's
  ///     name, looked up once when first needed.
  // Inlinable, so that the comparison is made where the value's type is known: there it
  // captures nothing, which spares every instance an allocated closure context and every
  // observed write a retain and release of it.
  @inlinable
  public init(wrappedValue: Value, _ name: String = "")
  where Value: Equatable & SendableMetatype {
    self.value = wrappedValue
    self.id = name.isEmpty ? TrackingKey.nextID() : TrackingKey.nextID(named: name)
    self.isDuplicate = { $0 == $1 }
  }

  /// Unavailable: `@Tracked` works only on properties of a ``Trackable`` class.
  @available(
    *, unavailable, message: "@Tracked is only available on properties of Trackable classes"
  )
  public var wrappedValue: Value {
    get { fatalError("@Tracked is only available on properties of Trackable classes") }
    set { fatalError("@Tracked is only available on properties of Trackable classes") }
  }

  /// Unavailable: the key is reached through the enclosing instance (`model.$count`).
  @available(
    *, unavailable, message: "@Tracked is only available on properties of Trackable classes"
  )
  public var projectedValue: TrackingKey { TrackingKey(unnamed: id) }

  /// The property's key (`model.$count`), named after the property.
  public static subscript<Model: Trackable>(
    _enclosingInstance model: Model,
    projected projectedKeyPath: KeyPath<Model, TrackingKey>,
    storage storageKeyPath: ReferenceWritableKeyPath<Model, Tracked<Value>>
  ) -> TrackingKey {
    model.registrar.core.named(model[keyPath: storageKeyPath].id, of: model)
  }

  /// Reads and writes the property through the model's registrar.
  @inlinable
  public static subscript<Model: Trackable>(
    _enclosingInstance model: Model,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<Model, Value>,
    storage storageKeyPath: ReferenceWritableKeyPath<Model, Tracked<Value>>
  ) -> Value {
    // The slow paths receive unmanaged references: the model is alive for the whole access
    // (the caller holds it), and passing it owned would make the caller retain and release
    // the model around every read and write, slow path taken or not.
    //
    // Reads and writes follow the registrar's protocol (see `RegistrarCore`, "Why no write is
    // lost"): a read in a tracking scope loads the value and sets the property's observed
    // bit, and a write checks the bit before it stores. In a program without data races one
    // access happens before the other, so either the write sees the bit or the read sees the
    // new value; a write racing a read of a non-atomic value is a data race anyway.
    //
    // Always inlined, as the setter: a key path to the property (a route's, a view store's)
    // reads it through a thunk, which otherwise calls this getter with key paths it cannot
    // fold, each projected by the key path runtime.
    @inline(__always)
    get {
      // Loaded before the access is recorded: the value is then ready without reloading the
      // model after the call (see Docs/Performance.md, "Figures behind the code"). Either order
      // is sound: the
      // load and the bit belong to one access, which a racing-free writer sees whole.
      let value = model[keyPath: storageKeyPath].value
      if model.registrar.core.activity.readsTakeSlowPath {
        recordTrackedAccess(
          Unmanaged.passUnretained(model.registrar.core), id: model[keyPath: storageKeyPath].id)
      }
      return value
    }
    // Always inlined: once inlined, the key paths fold into direct field accesses; a call
    // would have to materialise them and copy the wrapper out through the key path runtime.
    @inline(__always)
    set {
      // `model.registrar.core` is read in place each time, never bound to a local: a local
      // would be retained and released on every write.
      let id = model[keyPath: storageKeyPath].id
      if _fastPath(!mustReport(model, id: id)) {
        // No second look at the bit after the store: a read that happens before this write
        // set the bit before this check (see the protocol above), and a read that does not
        // sees the new value.
        model[keyPath: storageKeyPath].value = newValue
        return
      }
      if let isDuplicate = model[keyPath: storageKeyPath].isDuplicate {
        if isDuplicate(model[keyPath: storageKeyPath].value, newValue) { return }
        if let context = RegistrarCore.loggingContext() {
          // A transaction or a recording is open on this thread: the old value moves out of
          // the property (swapped, not copied) to its write log (see `WriteLog`), which keeps
          // it inline with the new one.
          var before = newValue
          swap(&model[keyPath: storageKeyPath].value, &before)
          RegistrarCore.didChange(
            Unmanaged.passUnretained(model.registrar.core), id: id,
            model: Unmanaged.passUnretained(model as AnyObject), context: context, before: before,
            after: model[keyPath: storageKeyPath].value,
            isDuplicate: { compare($0, $1, with: isDuplicate) })
          return
        }
      }
      model[keyPath: storageKeyPath].value = newValue
      reportChange(model, id: id)
    }
    // In-place mutation (`items.append(x)`): a get-then-set would copy a collection on every
    // append. One yield on every path keeps the coroutine inlinable.
    @inline(__always)
    _modify {
      let id = model[keyPath: storageKeyPath].id
      // A compound assignment (`count += 1`) reads the value: record it like a get.
      if model.registrar.core.activity.readsTakeSlowPath {
        recordTrackedAccess(Unmanaged.passUnretained(model.registrar.core), id: id)
      }
      let slow = mustReport(model, id: id)
      // Only a trivial value (an `Int`, a `Bool`) is kept to compare: keeping a collection
      // would make the edit copy all of it, O(n) per edit. An edited collection is reported
      // as changed.
      var old: Value?
      if _slowPath(slow), _isPOD(Value.self), model[keyPath: storageKeyPath].isDuplicate != nil {
        old = model[keyPath: storageKeyPath].value
      }
      yield &model[keyPath: storageKeyPath].value
      if _slowPath(slow) {
        if let old, let isDuplicate = model[keyPath: storageKeyPath].isDuplicate {
          if isDuplicate(old, model[keyPath: storageKeyPath].value) { return }
          guard let context = RegistrarCore.loggingContext() else {
            reportChange(model, id: id)
            return
          }
          RegistrarCore.didChange(
            Unmanaged.passUnretained(model.registrar.core), id: id,
            model: Unmanaged.passUnretained(model as AnyObject), context: context, before: old,
            after: model[keyPath: storageKeyPath].value,
            isDuplicate: { compare($0, $1, with: isDuplicate) })
          return
        }
        reportChange(model, id: id)
      }
    }
  }

  /// Whether a write of property `id` must be reported: something may observe it, or a
  /// change recording is running. Two relaxed loads.
  @inlinable @inline(__always)
  static func mustReport<Model: Trackable>(_ model: Model, id: UInt64) -> Bool {
    isObserved(model, id: id)
      || model.registrar.core.activity.writesTakeSlowPath
  }

  /// Compares two values a write log kept for the property with its `isDuplicate`; nil when
  /// either is not a `Value`. Specialised with the setter, so that the log, which is not
  /// generic, compares without looking up a type at run time.
  @inlinable @inline(__always)
  static func compare(
    _ first: Any, _ second: Any, with isDuplicate: (Value, Value) -> Bool
  ) -> Bool? {
    guard let first = first as? Value, let second = second as? Value else { return nil }
    return isDuplicate(first, second)
  }

  /// Whether property `id`'s bit is set in the registrar's observed mask.
  @inlinable @inline(__always)
  static func isObserved<Model: Trackable>(_ model: Model, id: UInt64) -> Bool {
    model.registrar.core.observedMask.load(ordering: .relaxed) & TrackingKey.maskBit(of: id) != 0
  }

  /// Reports a change of the property that kept no values to the registrar, which notifies
  /// its observers.
  ///
  /// Takes the id, not the storage key path: a key path passed to a function, even an
  /// inlined one, is materialised at run time (an allocation per write), while one used
  /// directly in the accessor folds into a field access.
  @inlinable @inline(__always)
  static func reportChange<Model: Trackable>(_ model: Model, id: UInt64) {
    RegistrarCore.didChange(
      Unmanaged.passUnretained(model.registrar.core), id: id,
      model: Unmanaged.passUnretained(model as AnyObject))
  }
}

extension Tracked: Sendable where Value: Sendable {}

extension Tracked: TrackedStorage {
  var trackingKeyID: UInt64 { id }
}
