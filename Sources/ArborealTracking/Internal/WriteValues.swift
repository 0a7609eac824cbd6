/// One write of a property in a transaction (or a change recording): the value before it and
/// the value it stored, kept to tell, when the transaction ends, whether the property changed
/// at all.
///
/// A transaction reports a property only if its value at the end differs from its value at
/// the start (net change): `isBusy = true; isBusy = false` is no change. The transaction
/// compares the start value of its first write of the property with the stored value of its
/// last. Keeping them costs no copy for a setter (the old value is shared with the box as the
/// property lets go of it, the new one is shared with the property) and needs no access to
/// the model afterwards, so the write path never materialises the property's key path. An
/// in-place edit (`items.append(x)`) keeps no values unless they are trivial (an `Int`, a
/// `Bool`): copying an array to compare it later would make every edit O(*n*), so an edited
/// collection is reported as changed. The comparison runs once per property per transaction,
/// when it closes.
///
/// Invariant: used only by the thread that made the write (the transaction's or the
/// recording's thread); its values are never mutated.
@usableFromInline
class WriteValues {
  @usableFromInline init() {}

  /// Whether the value before this write equals the value `last` stored (`last` being a later
  /// write of the same property, or this one).
  func isUnchanged(endingWith last: WriteValues) -> Bool { false }

  /// The value before the write and the value it stored, for diagnostics.
  var values: (before: Any, after: Any)? { nil }
}

/// A write of a `@Tracked` property whose value is `Value`.
@usableFromInline
final class TrackedWriteValues<Value>: WriteValues {
  let before: Value
  let after: Value
  let isDuplicate: (Value, Value) -> Bool

  @usableFromInline
  init(before: Value, after: Value, isDuplicate: @escaping (Value, Value) -> Bool) {
    self.before = before
    self.after = after
    self.isDuplicate = isDuplicate
  }

  override func isUnchanged(endingWith last: WriteValues) -> Bool {
    guard let last = last as? TrackedWriteValues<Value> else { return false }
    return isDuplicate(before, last.after)
  }

  override var values: (before: Any, after: Any)? { (before, after) }
}
