// Package hooks, not API: change recording, for the store's log handlers and the test
// store's exhaustivity checks. A recording lists the net changes made on its thread, and
// leaves out the writes to models made after it began (new models are not changed models).

/// A change recorded by ``withChangeRecording(keepingValues:_:)``: a property whose value at
/// the end of the recording differs from its value before the recording's first write of it.
@usableFromInline
package struct RecordedChange {
  /// The registrar whose property changed.
  package let registrar: ObjectIdentifier
  /// The property that changed.
  package let key: TrackingKey
  /// The model that owns the property, when it is a `@Tracked` property. Strong: a change
  /// lives no longer than the step that looks at it, and a weak reference costs a side table
  /// and two atomic operations per write.
  package let model: AnyObject?
  /// The value before the recording's first write of the property and the value its last
  /// write stored, when the recording kept them (``withChangeRecording(keepingValues:_:)``) and
  /// every write had them: an in-place edit of a collection or a string keeps none (see
  /// ``Tracked``), nor does a hand-written accessor.
  package let values: (before: Any, after: Any)?
}

/// The changes a change recording returns, first written first, without an allocation for
/// one (the usual action changes one property).
@usableFromInline
package struct RecordedChanges: RandomAccessCollection {
  private var list = SmallList<RecordedChange>()

  init() {}

  mutating func append(_ change: RecordedChange) { list.append(change) }

  /// The position of the first change.
  @usableFromInline package var startIndex: Int { 0 }
  /// The position after the last change.
  @usableFromInline package var endIndex: Int { list.count }
  /// The change at `position`.
  @usableFromInline package subscript(position: Int) -> RecordedChange { list[position] }
}

/// Runs `body` and returns every change of a tracked property made on this thread while it
/// ran, whether or not anything observes it: each property once, in the order of its first
/// write. Only net changes count: writes of an equal `Equatable` value are not changes, and a
/// property whose value at the end equals its value before the recording's first write of it
/// (set and set back) is left out; an in-place edit of a collection counts as a change (see
/// ``Tracked``). Recordings nest: an inner recording's changes also appear in the outer one.
///
/// New models are not changed models: writes to a model made after the recording began (by
/// its `init` through its tracked setters, or later while the recording runs) are left out;
/// the property that now holds the model is a change like any other. A model made inside a
/// nested recording is new to both; one made before the inner recording began is new to the
/// outer one only.
///
/// While any recording runs, writes on every thread take the slow path (an unobserved write
/// takes no lock, but checks its thread's write log); keep recordings short.
///
/// With `keepingValues`, each change keeps the values before and after
/// (``RecordedChange/values``), which may keep large values alive as long as the change is;
/// without it they are dropped.
package func withChangeRecording<T, E: Error>(
  keepingValues: Bool = false,
  _ body: () throws(E) -> T
) throws(E) -> (T, [RecordedChange]) {
  let mark = beginChangeRecording(keepingValues: keepingValues)
  // No `Result`: called from generic code that is not specialised, where building one looks
  // up its metadata on every call.
  let value: T
  do {
    value = try body()
  } catch {
    _ = endChangeRecording(mark, keepingValues: false)
    throw error
  }
  return (value, Array(endChangeRecording(mark, keepingValues: keepingValues)))
}

/// A change recording begun by ``beginChangeRecording(keepingValues:)``: how many recordings
/// were open on its thread with it, checked when it ends.
///
/// The recording is a span of the thread's write log (see `WriteLog`), which holds its writes
/// with their net changes; nested recordings share the log, and an inner recording's changes
/// become the outer one's when it ends.
///
/// Invariant: recordings on a thread end in the reverse order they began, each with the mark
/// its begin returned (``withChangeRecording(keepingValues:_:)`` and the store's send do).
@usableFromInline
package struct ChangeRecordingMark {
  /// How many recordings were open on the thread once this one began.
  let depth: Int
  /// The thread's context, which keeps the recording: its end needs no thread-local lookup.
  /// The thread keeps it alive, and the recording ends on the thread that began it.
  let context: Unmanaged<ThreadContext>
}

/// Begins a change recording on the calling thread: every change of a tracked property made
/// on it until ``endChangeRecording(_:keepingValues:closing:)`` is recorded, as described at
/// ``withChangeRecording(keepingValues:_:)``. For callers that cannot pass a closure cheaply
/// (the store's logged send); every mark must be ended, on the same thread, innermost first.
///
/// - Parameter keepingValues: Whether the recording keeps the values after each change, which
///   its end can then return: the writes keep them only while such a recording is open. A
///   recording begun without ends with no values, whatever its end asks for.
@usableFromInline
package func beginChangeRecording(keepingValues: Bool = false) -> ChangeRecordingMark {
  beginChangeRecording(in: ThreadContext.unmanagedCurrentOrNew, keepingValues: keepingValues)
}

/// ``beginChangeRecording(keepingValues:)`` on the calling thread, whose context is `unmanaged`.
func beginChangeRecording(
  in unmanaged: Unmanaged<ThreadContext>, keepingValues: Bool
) -> ChangeRecordingMark {
  unmanaged._withUnsafeGuaranteedRef { context in
    // Counted in before the start is read: a registrar made on this thread from now on sees
    // the count and takes a serial above the start.
    TrackingActivity.shared.countRecording(true)
    context.writes.open(recordingAt: RegistrarCreation.now, keepingValues: keepingValues)
    return ChangeRecordingMark(depth: context.writes.recordings, context: unmanaged)
  }
}

/// Ends the change recording begun with `mark` and returns its net changes; an enclosing
/// recording goes on with them. Then closes the transaction `opened`, if any, in which the
/// recording began (``openTransactionRecording(keepingValues:)``): in one step with the
/// recording's end when the two share the span and the transaction notifies nobody, as
/// ``endChangeRecordingKeys(_:closing:)`` does.
///
/// - Parameters:
///   - keepingValues: Whether each change keeps the values before and after (only a
///     recording begun keeping values has them).
///   - opened: The transaction to close after the recording's end; nil for none.
/// - Complexity: O(*c*) for the recording's *c* changed properties, plus the transaction's
///   delivery.
@usableFromInline
package func endChangeRecording(
  _ mark: ChangeRecordingMark, keepingValues: Bool, closing opened: OpenTransaction? = nil
) -> RecordedChanges {
  var changes = RecordedChanges()
  endChangeRecording(mark, closing: opened) { log, position, key in
    var values: (before: Any, after: Any)?
    if keepingValues, let before = log.entries[position].before,
      let after = log.entries[position].after
    {
      values = (before, after)
    }
    changes.append(
      RecordedChange(
        registrar: ObjectIdentifier(log.entries[position].core.takeUnretainedValue()), key: key,
        model: log.entries[position].hasModel ? log.entries[position].keeper : nil,
        values: values))
  }
  return changes
}

/// Ends the change recording begun with `mark` and returns the properties it changed, each
/// once, first written first: ``endChangeRecording(_:keepingValues:closing:)`` for a caller
/// that needs only their keys (a store's log entry without values).
///
/// - Complexity: O(*c*) for the recording's *c* changed properties.
@usableFromInline
package func endChangeRecordingKeys(_ mark: ChangeRecordingMark) -> TrackingChanges {
  var keys = UniqueKeys()
  endChangeRecording(mark, closing: nil) { _, _, key in keys.insert(key) }
  return TrackingChanges(uniqueKeys: keys.list)
}

/// Ends the change recording begun with `mark`, then closes the transaction `opened` (if
/// any) in which it began, and returns the properties the recording changed:
/// ``endChangeRecordingKeys(_:)`` then ``closeTransaction(_:)``, in one step when the two share
/// the span and the transaction notifies nobody (the store's logged send, from
/// ``openTransactionRecording(keepingValues:)``).
///
/// - Complexity: O(*c*) for the recording's *c* changed properties, plus the transaction's
///   delivery.
@usableFromInline
package func endChangeRecordingKeys(
  _ mark: ChangeRecordingMark, closing opened: OpenTransaction?
) -> TrackingChanges {
  var keys = UniqueKeys()
  endChangeRecording(mark, closing: opened) { _, _, key in keys.insert(key) }
  return TrackingChanges(uniqueKeys: keys.list)
}

#if ARBOREAL_INTERNAL_CHECKS
  /// Asserts, when built with `-DARBOREAL_INTERNAL_CHECKS`, that a recording ends on the thread
  /// that began it (whose context its mark holds).
  @inline(never)
  private func checkSameThread(_ mark: ChangeRecordingMark) {
    precondition(
      ThreadContext.unmanagedCurrent?.toOpaque() == mark.context.toOpaque(),
      "ArborealTracking: a change recording ended on another thread than the one that began it")
  }
#else
  /// Does nothing: the checks are built with `-DARBOREAL_INTERNAL_CHECKS`.
  @inline(__always)
  private func checkSameThread(_ mark: ChangeRecordingMark) {}
#endif

/// Keys, each once, first inserted first. A recording's keys are unique but for a key shared
/// by several models' hand-written accessors (keys are equal by identity alone): a short list
/// is searched, a long one hashed.
private struct UniqueKeys {
  private(set) var list = SmallList<TrackingKey>()
  private var seen: Set<TrackingKey>?

  mutating func insert(_ key: __owned TrackingKey) {
    // The usual recording: one key.
    if list.isEmpty {
      list.append(key)
      return
    }
    if list.count < 16 {
      if list.contains(key) { return }
    } else {
      if seen == nil { seen = Set(list) }
      if !seen!.insert(key).inserted { return }
    }
    list.append(key)
  }
}

/// Ends the change recording begun with `mark`: passes each net change's position in the
/// thread's write log and its named key to `each`, then closes the recording's span, and then
/// the transaction `opened`, if any, in which the recording began.
private func endChangeRecording(
  _ mark: ChangeRecordingMark, closing opened: OpenTransaction?,
  _ each: (inout WriteLog, Int, __owned TrackingKey) -> Void
) {
  checkSameThread(mark)
  mark.context._withUnsafeGuaranteedRef { context in
    precondition(
      context.writes.recordings == mark.depth && context.writes.spans.last?.isRecording == true,
      "ArborealTracking: change recordings ended out of order")
    TrackingActivity.shared.countRecording(false)
    let start = context.writes.recordingStart
    for position in context.writes.innermost {
      // A registrar made after the recording began is new, not changed.
      guard context.writes.entries[position].changed, context.writes.entries[position].isState,
        context.writes.entries[position].creation <= start
      else { continue }
      var key = context.writes.entries[position].key
      // Stored fields only: a computed one (`model`) would copy the whole entry out.
      if key.info == nil, context.writes.entries[position].hasModel {
        if let cached = context.keyNames.cached(key.id) {
          // The usual case: the model is not read (nor retained).
          key = cached
        } else {
          let model = context.writes.entries[position].keeper
          key = context.writes.entries[position].core._withUnsafeGuaranteedRef {
            context.keyNames.named(key.id, core: $0, model: model)
          }
        }
        // Kept for the enclosing recordings, if any.
        if context.writes.recordings > 1 { context.writes.name(at: position, key) }
      }
      each(&context.writes, position, key)
    }
    if let opened {
      if closeTransaction(opened, endingRecordingIn: context) { return }
      context.writes.endRecording()
      closeTransaction(opened)
    } else {
      context.writes.endRecording()
    }
  }
}

/// Whether a ``withChangeRecording(keepingValues:_:)`` is running on the calling thread.
package var isRecordingChanges: Bool {
  (ThreadContext.currentIfPresent?.writes.recordings ?? 0) > 0
}

/// The start of the innermost change recording running on this thread
/// (``withChangeRecording(keepingValues:_:)``): a model made after it is new to it
/// (``TrackingRegistrar/wasMade(after:)``). Read it inside the recording.
package var changeRecordingStart: UInt64 {
  ThreadContext.currentIfPresent?.writes.recordingStart ?? 0
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
  /// - Complexity: O(*c*) expected for *c* changes.
  @usableFromInline
  package init(recorded changes: RecordedChanges) {
    var keys = UniqueKeys()
    for change in changes { keys.insert(change.key) }
    self.init(uniqueKeys: keys.list)
  }
}
