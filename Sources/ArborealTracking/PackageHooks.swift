import Synchronization

// Hooks for sibling modules of this package (the store's logging hook, the test store's
// exhaustivity checks). They are `package`, not public API.

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

/// A read recorded by ``withAccessRecording(_:)``.
package struct RecordedAccess: Hashable, Sendable {
  /// The registrar whose property was read.
  package let registrar: ObjectIdentifier
  /// The identity of the property's key.
  package let keyID: UInt64

  /// Whether `change` is a change of this property.
  package func matches(_ change: RecordedChange) -> Bool {
    change.registrar == registrar && change.key.id == keyID
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

/// Runs `body` and returns the tracked properties it read, without observing them. Reads in
/// nested tracking scopes are included.
package func withAccessRecording<T, E: Error>(
  _ body: () throws(E) -> T
) throws(E) -> (T, Set<RecordedAccess>) {
  let (value, scope) = try AccessScope.run(mergingIntoParent: true, body)
  var accesses = Set<RecordedAccess>()
  for run in scope.runs {
    for record in scope.records(of: run) {
      accesses.insert(RecordedAccess(registrar: ObjectIdentifier(run.core), keyID: record.id))
    }
  }
  scope.discard()
  scope.recycle()
  return (value, accesses)
}

extension TrackingRegistrar {
  /// The identity used in ``RecordedChange`` and ``RecordedAccess``.
  package var identity: ObjectIdentifier { ObjectIdentifier(core) }
}

extension RecordedChange {
  /// The property's value now, read from its model by reflection (slow: for diagnostics);
  /// nil when the model is gone or the property is not a `@Tracked` one.
  package var currentValue: Any? {
    guard let model else { return nil }
    var mirror: Mirror? = Mirror(reflecting: model)
    while let current = mirror {
      for child in current.children {
        if let storage = child.value as? any TrackedValueStorage,
          storage.trackingKeyID == key.id
        {
          return storage.anyValue
        }
      }
      mirror = current.superclassMirror
    }
    return nil
  }
}

extension RecordedChange {
  /// The value before this write and the value it stored, when the recording kept them
  /// (``withChangeRecording(keepingValues:_:)``) and the write had them: an in-place edit of a
  /// collection or a string keeps none (see ``StartValue``), nor does a hand-written accessor.
  package var values: (before: Any, after: Any)? { write?.values }
}

/// A `@Tracked` wrapper's value, for ``RecordedChange/currentValue``.
protocol TrackedValueStorage: TrackedStorage {
  var anyValue: Any { get }
  /// The name given to the wrapper, or empty for the declared one.
  var explicitName: String { get }
}

extension Tracked: TrackedValueStorage {
  var anyValue: Any { value }
  var explicitName: String { name }
}

/// Receives every read and every change of the properties of a registrar made with
/// ``TrackingRegistrar/init(mirror:)``, on the reading or writing thread, whether or not
/// anything tracks or observes them (the `ArborealObservation` bridge forwards them to the
/// toolchain's `Observation`).
///
/// Registrars without a mirror do not pay for the hook: their reads and writes take the same
/// fast paths as before, and only the slow paths test for a mirror (one predictable branch).
/// A mirrored registrar's reads and writes always take the slow path (a write takes the
/// registrar's lock).
package protocol TrackingMirror: AnyObject, Sendable {
  /// A property was read. Called outside every lock of the registrar, before the read is
  /// recorded in a tracking scope; the key's name may not be set.
  func trackingMirrorDidAccess(_ key: TrackingKey)
  /// A property changed; its new value is stored. Called outside every lock of the registrar,
  /// before the registrar's own observers are notified (or handed to a transaction). Not
  /// called for a write of an equal `Equatable` value.
  func trackingMirrorDidChange(_ key: TrackingKey)
}

extension TrackingRegistrar {
  /// Creates a registrar that reports every read and change to `mirror`, which it keeps.
  package init(mirror: any TrackingMirror) {
    core = RegistrarCore(mirror: mirror)
  }

  /// The mirror this registrar reports to, if any.
  package var mirror: (any TrackingMirror)? { core.mirror }
}

/// Whether a tracking scope (``withTracking(isolation:_:onChange:)-74ukm``,
/// ``observe(isolation:fileID:line:_:)-54f61``) is recording reads on the calling
/// thread.
package var isTrackingAccesses: Bool {
  TrackingActivity.shared.hasScopes
    && ThreadContext.currentIfPresent?.scope != nil
}

/// A `@Tracked` property of a model found by reflection (``trackedProperties(of:)``): what the
/// test store lists for a model that an action put into the state.
package struct ReflectedProperty {
  /// The property's name: the one given to its wrapper, or the declared one.
  package let name: String
  /// The identity of the property's key.
  package let keyID: UInt64
  /// The registrar of the model that owns it.
  package let registrar: ObjectIdentifier
  /// Its value now.
  package let value: Any
  /// The model that owns it.
  private let model: any Trackable

  init(name: String, keyID: UInt64, value: Any, model: any Trackable) {
    self.name = name
    self.keyID = keyID
    self.registrar = ObjectIdentifier(model.registrar.core)
    self.value = value
    self.model = model
  }

  /// The property's key, named and with its owner (`SyncUpDetail#3.title`): slower than the
  /// other fields (the first time, it names the model's owner), so made only when needed.
  package var key: TrackingKey {
    model.registrar.core.named(keyID, name: name, of: model)
  }

  /// Whether one of `accesses` read it.
  package func isRead(in accesses: Set<RecordedAccess>) -> Bool {
    accesses.contains(RecordedAccess(registrar: registrar, keyID: keyID))
  }

  /// Counts as a read of the property in the current tracking or access recording.
  package func markRead() {
    model.registrar.access(TrackingKey(unnamed: keyID))
  }
}

/// The `@Tracked` properties of `model`, in declaration order (a superclass's first), found by
/// reflection: slow (a microsecond or so per property), for diagnostics and tests. Properties
/// with hand-written accessors are not found.
package func trackedProperties(of model: any Trackable) -> [ReflectedProperty] {
  var levels: [Mirror] = []
  var mirror: Mirror? = Mirror(reflecting: model)
  while let current = mirror {
    levels.append(current)
    mirror = current.superclassMirror
  }
  var properties: [ReflectedProperty] = []
  for level in levels.reversed() {
    for child in level.children {
      guard let storage = child.value as? any TrackedValueStorage else { continue }
      // A wrapper is stored as `_name`.
      let declared = child.label.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 } ?? ""
      properties.append(
        ReflectedProperty(
          name: storage.explicitName.isEmpty ? declared : storage.explicitName,
          keyID: storage.trackingKeyID, value: storage.anyValue, model: model))
    }
  }
  return properties
}

/// The stored properties of `model` that are not `@Tracked` (its `let`s and plain `var`s),
/// except its registrar, in declaration order (a superclass's first), found by reflection: a
/// wrapper model that holds its child in a `let` holds it there.
package func untrackedStoredValues(of model: any Trackable) -> [(name: String, value: Any)] {
  var levels: [Mirror] = []
  var mirror: Mirror? = Mirror(reflecting: model)
  while let current = mirror {
    levels.append(current)
    mirror = current.superclassMirror
  }
  var values: [(name: String, value: Any)] = []
  for level in levels.reversed() {
    for child in level.children
    where !(child.value is any TrackedValueStorage) && !(child.value is TrackingRegistrar) {
      values.append((child.label ?? "", child.value))
    }
  }
  return values
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

extension TrackingRegistrar {
  /// Whether this registrar was made after a change recording began at `start`
  /// (``changeRecordingStart``), on that recording's thread: whether its model is new to it.
  package func wasMade(after start: UInt64) -> Bool {
    core.creation > start
  }
}
