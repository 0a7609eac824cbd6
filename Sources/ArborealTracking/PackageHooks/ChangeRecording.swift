// Package hooks, not API: change recording, for the store's log handlers and the test
// store's exhaustivity checks. A recording lists the net changes made on its thread, and
// leaves out the writes to models made after it began (new models are not changed models).

/// A change recorded by ``withChangeRecording(keepingValues:_:)``.
@usableFromInline
package struct RecordedChange {
  /// The registrar whose property changed.
  package let registrar: ObjectIdentifier
  /// When the registrar was made (see `RegistrarCore`, "New models are not changed models").
  let creation: UInt64
  /// The property that changed.
  package let key: TrackingKey
  /// The model that owns the property, when it is a `@Tracked` property. Strong: a change
  /// lives no longer than the step that looks at it, and a weak reference costs a side table
  /// and two atomic operations per write.
  package let model: AnyObject?
  /// The write's values, while the recording that made it runs (the recording compares the
  /// first write's old value with the last write's new one, then drops them).
  var write: WriteValues?

  init(
    registrar: ObjectIdentifier, creation: UInt64, key: TrackingKey, model: AnyObject?,
    write: WriteValues?
  ) {
    self.registrar = registrar
    self.creation = creation
    self.key = key
    self.model = model
    self.write = write
  }
}

/// Runs `body` and returns every change of a tracked property made on this thread while it
/// ran, whether or not anything observes it, in order (a property written twice appears
/// twice). Only net changes count: writes of an equal `Equatable` value are not changes, and
/// a property whose value at the end equals its value before the recording's first write of
/// it (set and set back) is left out entirely; an in-place edit of a collection counts as a
/// change (see ``WriteValues``). Recordings nest: an inner recording's changes also appear in
/// the outer one.
///
/// New models are not changed models: writes to a model made after the recording began (by
/// its `init` through its tracked setters, or later while the recording runs) are left out;
/// the property that now holds the model is a change like any other. A model made inside a
/// nested recording is new to both; one made before the inner recording began is new to the
/// outer one only.
///
/// While any recording runs, writes on every thread take the slow path (one lock); keep
/// recordings short.
///
/// With `keepingValues`, each change keeps the values its write saw (``RecordedChange/values``),
/// which may keep large values alive as long as the change is; without it they are dropped.
package func withChangeRecording<T, E: Error>(
  keepingValues: Bool = false,
  _ body: () throws(E) -> T
) throws(E) -> (T, [RecordedChange]) {
  let mark = beginChangeRecording()
  // No `Result`: called from generic code that is not specialised, where building one looks
  // up its metadata on every call.
  let value: T
  do {
    value = try body()
  } catch {
    _ = endChangeRecording(mark, keepingValues: false)
    throw error
  }
  return (value, endChangeRecording(mark, keepingValues: keepingValues))
}

/// Where a change recording begun by ``beginChangeRecording()`` starts: the position of its
/// first entry in the thread's log, and the start of the recording it is nested in.
///
/// ## The thread's log
/// Nested recordings share one log per thread (`ThreadContext.changeLog`): a write appends one
/// entry, and a recording owns the entries from its `first` position on. So nesting costs
/// nothing per write, and an inner recording's changes are the outer one's without a copy.
/// When a recording ends, its entries of registrars made after the enclosing recording began
/// (new to it) are removed; the rest stay for the enclosing one, which computes its own net
/// changes over them. Net changes over the outer span equal those over the inner net changes:
/// a property's first write in the span keeps the oldest value, its last the newest.
///
/// Invariant: recordings on a thread end in the reverse order they began, each with the mark
/// its begin returned (``withChangeRecording(keepingValues:_:)`` and the store's send do);
/// then `first` is never past the end of the log.
@usableFromInline
package struct ChangeRecordingMark {
  /// The position of the recording's first entry in the thread's log.
  let first: Int
  /// The start (creation serial) of the enclosing recording; meaningless when there is none.
  let outerStart: UInt64
}

/// Begins a change recording on the calling thread: every change of a tracked property made
/// on it until ``endChangeRecording(_:keepingValues:)`` is recorded, as described at
/// ``withChangeRecording(keepingValues:_:)``. For callers that cannot pass a closure cheaply
/// (the store's logged send); every mark must be ended, on the same thread, innermost first.
@usableFromInline
package func beginChangeRecording() -> ChangeRecordingMark {
  let context = ThreadContext.unmanagedCurrentOrNew
  return context._withUnsafeGuaranteedRef { context in
    let mark = ChangeRecordingMark(
      first: context.changeLog.count, outerStart: context.changeLogStart)
    context.changeRecordings += 1
    // Counted in before the start is read: a registrar made on this thread from now on sees
    // the count and takes a serial above the start.
    TrackingActivity.shared.countRecording(true)
    context.changeLogStart = RegistrarCreation.now
    return mark
  }
}

/// The largest log a thread keeps the storage of between recordings, in entries: a rare huge
/// recording must not hold its memory for the thread's lifetime.
private let keptLogCapacity = 1_024

/// Ends the change recording begun with `mark` and returns its net changes; an enclosing
/// recording goes on with them.
///
/// - Parameter keepingValues: Whether each change keeps its write's values.
/// - Complexity: O(*c*) expected for the recording's *c* writes.
@usableFromInline
package func endChangeRecording(
  _ mark: ChangeRecordingMark, keepingValues: Bool
) -> [RecordedChange] {
  let context = ThreadContext.unmanagedCurrentOrNew
  return context._withUnsafeGuaranteedRef { context in
    TrackingActivity.shared.countRecording(false)
    context.changeRecordings -= 1
    var changes = netChanges(context.changeLog[mark.first...])
    if context.changeRecordings == 0 {
      context.changeLog.removeAll(keepingCapacity: context.changeLog.capacity <= keptLogCapacity)
    } else {
      // A model made after the enclosing recording began is new to it as well.
      let outerStart = mark.outerStart
      if context.changeLog[mark.first...].contains(where: { $0.creation > outerStart }) {
        context.changeLog[mark.first...].removeAll { $0.creation > outerStart }
      }
    }
    context.changeLogStart = mark.outerStart
    if !keepingValues {
      for index in changes.indices { changes[index].write = nil }
    }
    return changes
  }
}

/// The changes of the properties whose value after their last recorded write differs from
/// their value before their first (or one of whose writes kept no values to compare).
///
/// - Complexity: O(*c*) expected for *c* changes, plus one comparison per property.
private func netChanges(_ changes: ArraySlice<RecordedChange>) -> [RecordedChange] {
  switch changes.count {
  case 0: return []
  case 1:
    // One write (the usual store action): compare it with itself, without a dictionary.
    let change = changes[changes.startIndex]
    if let write = change.write, write.isUnchanged(endingWith: write) { return [] }
    return [change]
  default: break
  }
  guard changes.contains(where: { $0.write != nil }) else { return Array(changes) }
  // The same net change as a transaction's (``NetWrites``).
  var writes = NetWrites()
  for change in changes {
    writes.add(
      NetWrites.Property(registrar: change.registrar, id: change.key.id), write: change.write)
  }
  let unchanged = writes.unchangedProperties()
  guard !unchanged.isEmpty else { return Array(changes) }
  return changes.filter {
    !unchanged.contains(NetWrites.Property(registrar: $0.registrar, id: $0.key.id))
  }
}

/// Whether a ``withChangeRecording(keepingValues:_:)`` is running on the calling thread.
package var isRecordingChanges: Bool {
  (ThreadContext.currentIfPresent?.changeRecordings ?? 0) > 0
}

extension RecordedChange {
  /// The value before this write and the value it stored, when the recording kept them
  /// (``withChangeRecording(keepingValues:_:)``) and the write had them: an in-place edit of a
  /// collection or a string keeps none (see ``WriteValues``), nor does a hand-written accessor.
  package var values: (before: Any, after: Any)? { write?.values }
}

/// The start of the innermost change recording running on this thread
/// (``withChangeRecording(keepingValues:_:)``): a model made after it is new to it
/// (``TrackingRegistrar/wasMade(after:)``). Read it inside the recording.
package var changeRecordingStart: UInt64 {
  ThreadContext.currentIfPresent?.changeLogStart ?? 0
}

/// Whether any registrar was made, on any thread, since a change recording began at `start`
/// (``changeRecordingStart``): when none was, no model is new to the recording, and the test
/// store's search for new models can stop before it starts.
package func anyRegistrarMade(since start: UInt64) -> Bool {
  RegistrarCreation.now > start
}

/// How many registrars were made, on any thread, since a change recording began at `start`: an
/// upper bound on the models new to the recording, which lets a search for them stop early.
package func registrarsMade(since start: UInt64) -> UInt64 {
  let now = RegistrarCreation.now
  return now > start ? now - start : 0
}

extension TrackingRegistrar {
  /// Whether this registrar was made after a change recording began at `start`
  /// (``changeRecordingStart``), on that recording's thread: whether its model is new to it.
  package func wasMade(after start: UInt64) -> Bool {
    core.creation > start
  }
}

extension TrackingChanges {
  /// The properties of recorded changes, each once, first change first: what a store's log
  /// entry lists. Stored inline for one change.
  ///
  /// - Complexity: O(*c*²) for *c* changes (an action changes a handful of properties).
  @usableFromInline
  package init(recorded changes: [RecordedChange]) {
    var unique = SmallList<TrackingKey>()
    for change in changes where !unique.contains(change.key) { unique.append(change.key) }
    self.init(uniqueKeys: unique)
  }
}
