// Package hooks, not API: change recording, for the store's log handlers and the test
// store's exhaustivity checks. A recording lists the net changes made on its thread, and
// leaves out the writes to models made after it began (new models are not changed models).

/// A change recorded by ``withChangeRecording(keepingValues:_:)``.
package struct RecordedChange {
  /// The registrar whose property changed.
  package let registrar: ObjectIdentifier
  /// When the registrar was made (see `RegistrarCore`, "New models are not changed models").
  let creation: UInt64
  /// The property that changed.
  package let key: TrackingKey
  /// The model that owns the property, when it is a `@Tracked` property.
  package weak var model: AnyObject?
  /// The write's values, while the recording that made it runs (the recording compares the
  /// first write's old value with the last write's new one, then drops them).
  var write: StartValue?

  init(
    registrar: ObjectIdentifier, creation: UInt64, key: TrackingKey, model: AnyObject?,
    write: StartValue?
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
/// change (see ``StartValue``). Recordings nest: an inner recording's changes also appear in
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
  let context = ThreadContext.current
  let outer = context.changeLog
  let outerStart = context.changeLogStart
  context.changeLog = []
  // Counted in before the start is read: a registrar made on this thread from now on sees the
  // count and takes a serial above the start.
  TrackingActivity.shared.countRecording(true)
  context.changeLogStart = RegistrarCreation.now
  // No `Result`: called from generic code that is not specialised (the store), where
  // building one looks up its metadata on every call.
  let value: T
  do {
    value = try body()
  } catch {
    _ = endChangeRecording(
      context, outer: outer, outerStart: outerStart, keepingValues: false)
    throw error
  }
  return (
    value,
    endChangeRecording(
      context, outer: outer, outerStart: outerStart, keepingValues: keepingValues)
  )
}

/// Ends a recording begun by ``withChangeRecording(keepingValues:_:)``: its net changes, also
/// appended to the enclosing recording if any, less those of the registrars made after the
/// enclosing one began (at `outerStart`).
private func endChangeRecording(
  _ context: ThreadContext, outer: [RecordedChange]?, outerStart: UInt64, keepingValues: Bool
) -> [RecordedChange] {
  TrackingActivity.shared.countRecording(false)
  var changes = netChanges(context.changeLog ?? [])
  context.changeLog = outer.map { outer in
    outer + changes.lazy.filter { $0.creation <= outerStart }
  }
  context.changeLogStart = outerStart
  if !keepingValues {
    // In place: copying a change copies its weak reference to the model.
    for index in changes.indices { changes[index].write = nil }
  }
  return changes
}

/// The changes of the properties whose value after their last recorded write differs from
/// their value before their first (or one of whose writes kept no values to compare).
///
/// - Complexity: O(*c*) expected for *c* changes, plus one comparison per property.
private func netChanges(_ changes: [RecordedChange]) -> [RecordedChange] {
  guard changes.contains(where: { $0.write != nil }) else { return changes }
  // One write (the usual store action): compare it with itself, without a dictionary.
  if changes.count == 1, let write = changes[0].write {
    return write.isUnchanged(endingWith: write) ? [] : changes
  }
  struct Property: Hashable {
    let registrar: ObjectIdentifier
    let id: UInt64
  }
  // For each property, its first and last write's values, or nil once a write kept none.
  var ends: [Property: (first: StartValue, last: StartValue)?] = [:]
  for change in changes {
    let property = Property(registrar: change.registrar, id: change.key.id)
    guard let write = change.write else {
      ends[property] = .some(nil)
      continue
    }
    switch ends[property] {
    case .none: ends[property] = (write, write)
    case .some(.none): break
    case .some(.some(let known)): ends[property] = (known.first, write)
    }
  }
  var unchanged = Set<Property>()
  for (property, pair) in ends {
    if let pair, pair.first.isUnchanged(endingWith: pair.last) { unchanged.insert(property) }
  }
  guard !unchanged.isEmpty else { return changes }
  return changes.filter {
    !unchanged.contains(Property(registrar: $0.registrar, id: $0.key.id))
  }
}

/// Whether a ``withChangeRecording(keepingValues:_:)`` is running on the calling thread.
package var isRecordingChanges: Bool {
  ThreadContext.currentIfPresent?.changeLog != nil
}

extension RecordedChange {
  /// The value before this write and the value it stored, when the recording kept them
  /// (``withChangeRecording(keepingValues:_:)``) and the write had them: an in-place edit of a
  /// collection or a string keeps none (see ``StartValue``), nor does a hand-written accessor.
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
