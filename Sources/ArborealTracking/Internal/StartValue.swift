/// The value a property had before the first write of a transaction (or of a change
/// recording), kept to tell at the end whether the property changed at all.
///
/// A transaction reports a property only if its value at the end differs from its value at
/// the start (net change): `isBusy = true; isBusy = false` is no change. The start value costs
/// nothing to keep for a setter: the old value is moved out of the property, not copied. An
/// in-place edit (`items.append(x)`) keeps no start value unless the value is trivial (an
/// `Int`, a `Bool`): copying an array to compare it later would make every edit O(*n*), so an
/// edited collection is reported as changed. The comparison runs once per property per
/// transaction, when it closes.
///
/// Invariant: used only by the thread that made the write (the transaction's or the
/// recording's thread), which is also the thread allowed to read the model's storage.
@usableFromInline
class StartValue {
  @usableFromInline init() {}

  /// Whether the property now holds a value equal to the start value.
  func isUnchanged() -> Bool { false }
}

/// The start value of a `@Tracked` property of `Model`.
@usableFromInline
final class TrackedStartValue<Model: AnyObject, Value>: StartValue {
  let model: Model
  let storage: ReferenceWritableKeyPath<Model, Tracked<Value>>
  let value: Value
  let isDuplicate: (Value, Value) -> Bool

  @usableFromInline
  init(
    model: Model, storage: ReferenceWritableKeyPath<Model, Tracked<Value>>, value: Value,
    isDuplicate: @escaping (Value, Value) -> Bool
  ) {
    self.model = model
    self.storage = storage
    self.value = value
    self.isDuplicate = isDuplicate
  }

  override func isUnchanged() -> Bool {
    isDuplicate(value, model[keyPath: storage].value)
  }
}
