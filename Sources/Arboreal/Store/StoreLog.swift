/// A store's logging: its log handlers, how an entry reaches them, and the number of the last
/// action logged.
///
/// Kept inline in the ``Store`` (a value, not an object), so that a plain `send` tests one flag
/// (`hasHandlers`) at a fixed offset. The entry itself is built by the store's `applyLogging`,
/// around the update it describes.
///
/// Invariants: `hasHandlers == !handlers.isEmpty || !steps.isEmpty`; `stepHandlers` are
/// `steps`' handlers, in order (nil for none); `logsAnyValues` is whether a handler asked
/// for values; `dispatch` calls exactly `handlers`, in order (nil when there is none);
/// `singleHandler` is the handler when there is exactly one. All four are rebuilt together by
/// `rebuild()`.
@usableFromInline
struct StoreLog<Action: Sendable> {
  /// A log handler and what it asked for.
  struct Slot {
    let id: UInt64
    let logsValues: Bool
    let handler: (StoreLogEntry<Action>) -> Void
  }

  /// The log handlers, in the order they were added, each with whether it wants values
  /// (see ``Store/addLogHandler(logsValues:_:)``) and the number its token removes it by.
  /// Read only when one is added or removed: `dispatch` calls them.
  private var handlers: [Slot] = []
  /// Calls every handler with the plain entry or the one with values, as each asked; rebuilt
  /// when a handler is added or removed, so that logging an action touches no array of a type
  /// built from the model (whose metadata unspecialised code looks up on every use) when a
  /// single handler is installed.
  @usableFromInline private(set) var dispatch:
    ((StoreLogEntry<Action>, StoreLogEntry<Action>) -> Void)?
  /// The handler itself when it is the only one, called straight from the store's specialised
  /// `applyLogging` (with the valued entry when `logsAnyValues`): no closure compiled here,
  /// generically, in between, which looked up the entry's metadata on every logged action.
  @usableFromInline private(set) var singleHandler: ((StoreLogEntry<Action>) -> Void)?
  /// The recorders' handlers (``Store/addStepHandler(_:)``), each with the number its token
  /// removes it by.
  private var steps: [(id: UInt64, handler: (consuming LoggedStep) -> Void)] = []
  /// The recorders' handlers, in order: called with a `LoggedStep`, which nothing generic is in;
  /// nil when there is none (so that a logged action without a recorder retains no array).
  @usableFromInline private(set) var stepHandlers: [(consuming LoggedStep) -> Void]?
  /// Whether a handler wants values.
  @usableFromInline private(set) var logsAnyValues = false
  /// Whether a handler is installed: the one test a plain `send` makes.
  @usableFromInline private(set) var hasHandlers = false
  /// The number of the last handler added.
  private var lastID: UInt64 = 0

  /// The number of the last action handled with a log handler installed (0 before the first):
  /// `StoreLogEntry.sequence`. Effects started by an action remember its number, so that the
  /// actions they deliver name it as their cause.
  @usableFromInline var sequence = 0

  @usableFromInline init() {}

  /// Adds a handler and returns the number that removes it.
  mutating func add(
    logsValues: Bool, _ handler: @escaping (StoreLogEntry<Action>) -> Void
  ) -> UInt64 {
    lastID += 1
    handlers.append(Slot(id: lastID, logsValues: logsValues, handler: handler))
    rebuild()
    return lastID
  }

  /// Adds a recorder's handler and returns the number that removes it.
  mutating func addStep(_ handler: @escaping (consuming LoggedStep) -> Void) -> UInt64 {
    lastID += 1
    steps.append((lastID, handler))
    rebuild()
    return lastID
  }

  /// Removes the handler numbered `id`; nothing when it is gone already.
  mutating func remove(_ id: UInt64) {
    handlers.removeAll { $0.id == id }
    steps.removeAll { $0.id == id }
    rebuild()
  }

  /// Makes `dispatch` call the handlers, in order: the one handler directly, or each in turn.
  private mutating func rebuild() {
    let slots = handlers
    hasHandlers = !slots.isEmpty || !steps.isEmpty
    stepHandlers = steps.isEmpty ? nil : steps.map(\.handler)
    logsAnyValues = slots.contains { $0.logsValues }
    singleHandler = slots.count == 1 ? slots[0].handler : nil
    switch slots.count {
    case 0:
      dispatch = nil
    case 1:
      let handler = slots[0].handler
      dispatch =
        slots[0].logsValues ? { _, valued in handler(valued) } : { plain, _ in handler(plain) }
    default:
      dispatch = { plain, valued in
        for slot in slots { slot.handler(slot.logsValues ? valued : plain) }
      }
    }
  }

  /// The cause of a logged action: `origin` is nil for a sent action, and for an effect's
  /// action the number of the action that started the effect.
  @inlinable
  static func cause(of origin: Int?) -> StoreLogEntry<Action>.Cause {
    origin.map { .effect(startedBy: $0 > 0 ? $0 : nil) } ?? .sent
  }

  /// Each changed property once, first change first, with the value before its first write
  /// and the value after its last (read from the model when a write kept none).
  @usableFromInline
  static func describe(_ changes: RecordedChanges) -> [StoreLogEntry<Action>.ChangedValue] {
    // A loop, not `map`: in this generic context `map` is not specialised.
    var described: [StoreLogEntry<Action>.ChangedValue] = []
    described.reserveCapacity(changes.count)
    for index in changes.indices {
      let change = changes[index]
      if let values = change.values {
        described.append(
          .init(
            key: change.key, before: String(reflecting: values.before),
            after: String(reflecting: values.after)))
      } else {
        described.append(
          .init(
            key: change.key, before: nil,
            after: change.currentValue.map { String(reflecting: $0) }))
      }
    }
    return described
  }
}

extension Store {
  /// Adds a handler that is called after each action the store handles, with the action, its
  /// number and cause, and the tracked properties its update changed.
  ///
  /// ```swift
  /// let log = store.addLogHandler { entry in print(entry) }  // "increment → count"
  /// store.addLogHandler(logsValues: true) { entry in print(entry.changedValues.map(\.after)) }
  /// log.cancel()  // the first handler is called no more
  /// ```
  ///
  /// Handlers run in the store's isolation after the update's observers, in the order they were
  /// added; actions delivered by effects are logged too. Each is independent of the others:
  /// a recorder and a change log both see every action, and removing one leaves the other.
  ///
  /// While a handler is installed, each update records its changes, which makes writes to
  /// tracked properties on every thread take their slow path for the duration of the
  /// update; without one, `send` records nothing.
  ///
  /// - Parameters:
  ///   - logsValues: Whether the entries this handler gets describe each changed property's
  ///     old and new values (``StoreLogEntry/changedValues``). Describing a value
  ///     (`String(reflecting:)`) costs time on every logged action, and keeping the old value
  ///     keeps it alive until the entry is built: ask for it for debugging, not for a
  ///     recording that must stay cheap.
  ///   - handler: Called with each entry.
  /// - Returns: A token whose `cancel()` removes the handler; the store keeps the handler
  ///   until then, whether or not the token is kept.
  @discardableResult
  public func addLogHandler(
    logsValues: Bool = false, _ handler: @escaping (StoreLogEntry<Model.Action>) -> Void
  ) -> LogHandlerToken {
    let id = log.add(logsValues: logsValues, handler)
    return LogHandlerToken { [weak self] in self?.log.remove(id) }
  }
}

extension Store {
  /// Adds a recorder's handler: called, in the store's isolation, with each action handled
  /// from now on, after its update, as a `LoggedStep` (see there why not a `StoreLogEntry`).
  ///
  /// - Parameter handler: Takes each step, a value of its own that it may move (into a queue)
  ///   rather than copy.
  /// - Returns: The token that removes the handler.
  package func addStepHandler(
    _ handler: @escaping (consuming LoggedStep) -> Void
  ) -> LogHandlerToken {
    let id = log.addStep(handler)
    return LogHandlerToken { [weak self] in self?.log.remove(id) }
  }
}

/// A handled action as a recorder takes it: what a `StoreLogEntry` says, with the action boxed.
/// Nothing in it is generic, so that the store's `applyLogging`, specialised for its model,
/// makes it, and a recorder, compiled once for every model, reads it without looking up a
/// generic type's metadata (twice per recorded action, about 650 instructions, when it read a
/// `StoreLogEntry<Action>`).
@usableFromInline
package struct LoggedStep: Sendable {
  /// The store's number of the action (`StoreLogEntry.sequence`).
  package let sequence: Int
  /// The action, a `Model.Action`.
  package let action: any Sendable
  /// nil for a sent action; for an effect's, the number of the action that started it (nil
  /// inside when it is not known).
  package let startedBy: Int??
  /// The properties the update changed.
  package let changes: TrackingChanges

  /// Makes the step of action number `sequence`; `origin` is nil for a sent action, and for
  /// an effect's the number of the action that started it (0 if not known).
  @usableFromInline
  package init(sequence: Int, action: any Sendable, origin: Int?, changes: TrackingChanges) {
    self.sequence = sequence
    self.action = action
    self.startedBy = origin.map { $0 > 0 ? $0 : nil }
    self.changes = changes
  }
}

/// Removes a log handler added with ``Store/addLogHandler(logsValues:_:)``.
///
/// ```swift
/// let log = store.addLogHandler { print($0) }
/// log.cancel()
/// ```
public final class LogHandlerToken {
  private var remove: (() -> Void)?

  init(remove: @escaping () -> Void) {
    self.remove = remove
  }

  /// Removes the handler; later calls do nothing.
  public func cancel() {
    let remove = self.remove
    self.remove = nil
    remove?()
  }
}
