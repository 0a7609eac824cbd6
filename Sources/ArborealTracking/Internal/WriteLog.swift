/// The writes made on one thread while a transaction or a change recording is open there: what
/// decides their net changes, for ``Transaction`` and for change recordings alike (the one
/// net-change implementation of the package).
///
/// ## Spans
/// A transaction and each change recording is a *span*; spans nest (a store opens its
/// transaction, then its recording; a test store's recording encloses the store's
/// transactions) and close innermost first. `spans` holds them, innermost last, each with the
/// position of its first entry: a span owns the entries from there to the end of the log.
///
/// ## Entries
/// One entry per property (registrar and key) per span, in first-write order. An entry keeps
/// the value the property had before its first write in the span (`before`), the value its last
/// write stored (`after`), and whether the two differ (`changed`). Values are kept inline in
/// `Any` (no allocation for a value of up to three words), boxed by the setter. `after` is kept
/// only while a change recording that keeps values is open (`valueRecordings`): nothing else
/// reads it, so a transaction, or a send that logs only keys, never keeps it. A write that kept
/// no values (an in-place edit of a collection, a hand-written accessor, a derived value) makes
/// the property changed for the rest of the span and drops the values.
///
/// ## Net change in place
/// `changed` is decided as each write comes, not when the span closes: a property's first write
/// in a span is a change (the setter already returned for an equal value); each later write
/// compares the entry's `before` with the value it stores, with the property's own comparison,
/// which the writer has at hand. So nothing is kept to compare later: no comparison closure, no
/// object per write. A write updates the entry of every open span that has one for the
/// property: the innermost span's entry links to the enclosing span's (`outer`), and so on
/// out. When a span closes, its entries of properties the enclosing span already has are
/// dropped (that one is up to date); the others become the enclosing span's, with the values of
/// their first write, which is the enclosing span's first write of the property too.
///
/// ## Finding a property's entry
/// The innermost entry of a property is its last one in the log (an entry is made only for the
/// innermost span, and an enclosing span's entries made after an inner span opened belong to an
/// inner span that has since closed). Up to `scanLimit` entries a backward scan finds it;
/// beyond, `index` maps each property to its innermost entry.
///
/// Invariants (``checkInvariants()``, after every change in builds with
/// `-DARBOREAL_INTERNAL_CHECKS`): span starts increase and lie within the log; a span's region
/// holds at most one entry per property; an entry's `outer` is -1 or an earlier entry of the
/// same property in an enclosing span's region (before the entry's own span starts); while
/// `indexed`, `index` maps every property in the log to its last entry; `valueRecordings` counts
/// the spans whose recording keeps values, and only a span with a recording keeps values. Used
/// only by its thread (one per thread, in its ``ThreadContext``), which is why it needs no lock.
struct WriteLog {
  /// A property of a model: its registrar and its key's identity.
  struct Property: Hashable {
    let registrar: UnsafeMutableRawPointer
    let id: UInt64
  }

  struct Entry {
    /// The property's key; unnamed until a recording names it (``named(_:)``).
    var key: TrackingKey
    /// The registrar, kept alive by `keeper`.
    let core: Unmanaged<RegistrarCore>
    /// The model for a `@Tracked` property (`hasModel`), or the registrar itself: keeps the
    /// registrar alive while the entry is in the log.
    let keeper: AnyObject
    let hasModel: Bool
    /// Whether the write is state: false for a derived value's change, which a transaction
    /// delivers and no recording lists.
    let isState: Bool
    /// Whether the property's value differs from `before` (always true once a write kept no
    /// values).
    var changed: Bool
    /// When the registrar was made (see `RegistrarCore`, "New models are not changed models").
    let creation: UInt64
    /// The position of the property's entry in the enclosing span with one, or -1.
    var outer: Int
    var before: Any?
    /// Kept only while a recording that keeps values is open (see "Entries").
    var after: Any?

    var property: Property { Property(registrar: core.toOpaque(), id: key.id) }
    var model: AnyObject? { hasModel ? keeper : nil }
  }

  /// An open span: where its entries start, whether it is the transaction's, and for a change
  /// recording, its start (creation serial) and the start of the recording it is nested in.
  ///
  /// A recording that begins right after the transaction opened, with nothing written in
  /// between (a store's logged send), shares the transaction's span instead of opening its
  /// own: both own the same entries, so one span serves both, and the recording's end leaves
  /// the entries for the transaction to deliver without moving them (``endRecording()``), or,
  /// when the transaction closes with it and notifies nobody, closes the span for both
  /// (``endRecordingClosingTransaction()``).
  struct Span {
    let first: Int
    let isTransaction: Bool
    var isRecording: Bool
    /// Whether the span's recording keeps values (counted in `valueRecordings`).
    var keepsValues: Bool
    var recordingStart: UInt64
    var enclosingRecordingStart: UInt64
  }

  private(set) var entries: [Entry] = []
  private(set) var spans: [Span] = []
  private var index: [Property: Int] = [:]
  private var indexed = false
  /// How many change recordings are open.
  private(set) var recordings = 0
  /// How many of them keep values: while any does, writes keep their `after` value.
  private(set) var valueRecordings = 0
  /// The start of the innermost open change recording; meaningless while none is open.
  private(set) var recordingStart: UInt64 = 0

  private static var scanLimit: Int { 16 }
  /// The largest log whose storage is kept between spans: a rare huge span must not hold its
  /// memory for the thread's lifetime.
  private static var keptCapacity: Int { 1_024 }

  /// A transaction opened with no span open, whose span is not made yet: it is made when
  /// something needs it (a write to log, a recording that opens), so that a send that logs
  /// nothing (no observer, no recording) costs a flag. Never set while a span is open.
  private var hasDeferredTransaction = false

  /// Whether a span is open: writes are logged.
  @inline(__always) var isOpen: Bool { hasDeferredTransaction || !spans.isEmpty }

  /// The positions of the innermost span's entries.
  var innermost: Range<Int> { (spans.last?.first ?? entries.count)..<entries.count }

  /// Opens the transaction's span (deferred when it would be the only one).
  @inline(__always)
  mutating func openTransaction() {
    if spans.isEmpty {
      hasDeferredTransaction = true
    } else {
      appendTransactionSpan()
    }
  }

  /// Makes the deferred transaction's span, if any.
  @inline(__always)
  private mutating func makeDeferredSpan() {
    if hasDeferredTransaction {
      hasDeferredTransaction = false
      appendTransactionSpan()
    }
  }

  private mutating func appendTransactionSpan() {
    spans.append(
      Span(
        first: entries.count, isTransaction: true, isRecording: false, keepsValues: false,
        recordingStart: 0, enclosingRecordingStart: 0))
  }

  /// Opens a change recording's span, which began at `recordingStart`; shares the
  /// transaction's when the transaction's is the innermost and holds nothing yet.
  ///
  /// - Parameter keepingValues: Whether the recording keeps values: its writes then keep their
  ///   `after` value.
  mutating func open(recordingAt recordingStart: UInt64, keepingValues: Bool = false) {
    let enclosing = self.recordingStart
    recordings += 1
    if keepingValues { valueRecordings += 1 }
    self.recordingStart = recordingStart
    // The store's logged send: its transaction's span, deferred, is made here with the
    // recording in it, in one append.
    let sharesTransaction: Bool
    if hasDeferredTransaction {
      hasDeferredTransaction = false
      sharesTransaction = true
    } else if let last = spans.last, last.isTransaction, !last.isRecording,
      last.first == entries.count
    {
      spans.removeLast()
      sharesTransaction = true
    } else {
      sharesTransaction = false
    }
    spans.append(
      Span(
        first: entries.count, isTransaction: sharesTransaction, isRecording: true,
        keepsValues: keepingValues, recordingStart: recordingStart,
        enclosingRecordingStart: enclosing))
  }

  /// Counts out the recording of `span`, which ends.
  @inline(__always)
  private mutating func endRecording(of span: Span) {
    recordings -= 1
    if span.keepsValues { valueRecordings -= 1 }
    recordingStart = span.enclosingRecordingStart
  }

  /// Ends the innermost span's change recording: closes its span, or leaves the span to the
  /// transaction it shares, entries and all.
  mutating func endRecording() {
    let last = spans.count &- 1
    guard spans[last].isTransaction else {
      close()
      return
    }
    // Written back whole: one uniqueness check of the array, not one per field.
    var span = spans[last]
    endRecording(of: span)
    span.isRecording = false
    span.keepsValues = false
    spans[last] = span
  }

  /// Closes the innermost span: its entries become the enclosing span's, but for those of
  /// properties the enclosing span already has, which are dropped; with no span left, the log
  /// empties.
  ///
  /// - Complexity: O(*e*) for the span's *e* entries.
  @inline(__always)
  mutating func close() {
    // The usual end of a send: its transaction alone, nothing logged.
    if hasDeferredTransaction {
      hasDeferredTransaction = false
      return
    }
    if entries.isEmpty && spans.count == 1 && !spans[0].isRecording {
      // (A span with a recording is closed by its `endRecording()` first, which this skips
      // past only to keep the count of recordings right.)
      spans.removeLast()
      return
    }
    closeSpan()
  }

  /// Ends the innermost span's change recording and closes the span, which it shares with a
  /// transaction that closes with it: ``endRecording()`` then ``close()``, without writing the
  /// span back in between (the end of a store's logged send).
  mutating func endRecordingClosingTransaction() {
    var span = spans.removeLast()
    checkSharesTransaction(span)
    endRecording(of: span)
    span.isRecording = false
    span.keepsValues = false
    closeSpan(span)
  }

  /// ``close()``, beyond its shortcut.
  private mutating func closeSpan() {
    closeSpan(spans.removeLast())
  }

  /// Closes `span`, just removed from `spans`.
  private mutating func closeSpan(_ span: Span) {
    if span.isRecording { endRecording(of: span) }
    checkNoRecordingLeft(in: span)
    guard let enclosing = spans.last else {
      if entries.capacity <= Self.keptCapacity {
        entries.removeAllKeepingStorage()
      } else {
        entries = []
      }
      if indexed {
        index.removeAll()
        indexed = false
      }
      return
    }
    var kept = span.first
    for position in span.first..<entries.count {
      let outer = entries[position].outer
      if outer >= enclosing.first {
        if indexed { index[entryProperty(at: position)] = outer }
        continue
      }
      if kept != position {
        entries.swapAt(kept, position)
        if indexed { index[entryProperty(at: kept)] = kept }
      }
      kept += 1
    }
    while entries.count > kept { entries.removeLast() }
    checkInvariants()
  }

  /// Logs a write of property `id` of `core` that kept its values: the value `before` it and the
  /// value `after` it stored, boxed by the setter, compared with `isDuplicate` (nil when either
  /// value is not of the property's type). `after` is kept only while a recording that keeps
  /// values is open.
  mutating func log(
    _ core: Unmanaged<RegistrarCore>, id: UInt64, keeper: AnyObject, hasModel: Bool,
    before: __owned Any, after: __owned Any, isDuplicate: (Any, Any) -> Bool?
  ) {
    makeDeferredSpan()
    let property = Property(registrar: core.toOpaque(), id: id)
    let next = lastEntry(of: property)
    if next.map({ $0 < spans[spans.count &- 1].first }) ?? true {
      append(
        Entry(
          key: TrackingKey(unnamed: id), core: core, keeper: keeper, hasModel: hasModel,
          isState: true, changed: true, creation: core._withUnsafeGuaranteedRef { $0.creation },
          outer: next ?? -1, before: before, after: valueRecordings > 0 ? after : nil),
        property)
    }
    if let next { update(from: next, after: after, isDuplicate: isDuplicate) }
  }

  /// Updates the property's entry at `position` and those it links to, out to the outermost
  /// span, for a write that stored `after`. Apart from
  /// ``log(_:id:keeper:hasModel:before:after:isDuplicate:)``: a property's first write in a
  /// span, the usual one, never comes here.
  @inline(never)
  private mutating func update(
    from position: Int, after: Any, isDuplicate: (Any, Any) -> Bool?
  ) {
    let keepsAfter = valueRecordings > 0
    var next: Int? = position
    while let position = next {
      if let first = entries[position].before {
        if let duplicate = isDuplicate(first, after) {
          entries[position].changed = !duplicate
          entries[position].after = keepsAfter ? after : nil
        } else {
          entries[position].keepNoValues()
        }
      }
      next = entries[position].outer >= 0 ? entries[position].outer : nil
    }
  }

  /// Logs a write of `key` of `core` that kept no values: the property is changed in every open
  /// span.
  ///
  /// - Parameter isState: False for a derived value's change, which no recording lists.
  mutating func log(
    _ core: Unmanaged<RegistrarCore>, key: TrackingKey, keeper: AnyObject, hasModel: Bool,
    isState: Bool
  ) {
    makeDeferredSpan()
    let property = Property(registrar: core.toOpaque(), id: key.id)
    var next = lastEntry(of: property)
    if next.map({ $0 < spans[spans.count &- 1].first }) ?? true {
      append(
        Entry(
          key: key, core: core, keeper: keeper, hasModel: hasModel, isState: isState,
          changed: true, creation: core._withUnsafeGuaranteedRef { $0.creation },
          outer: next ?? -1, before: nil, after: nil),
        property)
      next = entries[entries.count &- 1].outer >= 0 ? entries[entries.count &- 1].outer : nil
    }
    while let position = next {
      entries[position].keepNoValues()
      next = entries[position].outer >= 0 ? entries[position].outer : nil
    }
  }

  /// Whether the property `id` of the registrar at `registrar` ends the innermost span as it
  /// began it.
  func isUnchanged(_ registrar: UnsafeMutableRawPointer, id: UInt64) -> Bool {
    let property = Property(registrar: registrar, id: id)
    guard let position = lastEntry(of: property), position >= innermost.lowerBound else {
      return false
    }
    return !entries[position].changed
  }

  /// Gives the entry at `position` its named key, for the enclosing recordings.
  mutating func name(at position: Int, _ key: TrackingKey) {
    entries[position].key = key
  }

  private mutating func append(_ entry: consuming Entry, _ property: Property) {
    entries.append(entry)
    if indexed {
      index[property] = entries.count &- 1
    } else if entries.count > Self.scanLimit {
      for position in entries.indices { index[entryProperty(at: position)] = position }
      indexed = true
    }
    checkInvariants()
  }

  /// The property of the entry at `position`, from its stored fields (the entry's computed
  /// `property` would copy the whole entry out of the array first).
  @inline(__always)
  private func entryProperty(at position: Int) -> Property {
    Property(registrar: entries[position].core.toOpaque(), id: entries[position].key.id)
  }

  /// The position of the property's last entry: its innermost one.
  private func lastEntry(of property: Property) -> Int? {
    if indexed { return index[property] }
    var position = entries.count
    while position > 0 {
      position &-= 1
      if entries[position].key.id == property.id,
        entries[position].core.toOpaque() == property.registrar
      {
        return position
      }
    }
    return nil
  }

  #if ARBOREAL_INTERNAL_CHECKS
    /// Asserts, when built with `-DARBOREAL_INTERNAL_CHECKS`, that a transaction's span closes
    /// after the recording that shared it ended (spans close innermost first).
    @inline(never)
    private func checkNoRecordingLeft(in span: Span) {
      precondition(
        !(span.isTransaction && span.isRecording),
        "WriteLog: a transaction closed before the recording that shares its span")
    }
  #else
    /// Does nothing: the checks are built with `-DARBOREAL_INTERNAL_CHECKS`.
    @inline(__always)
    private func checkNoRecordingLeft(in span: Span) {}
  #endif

  #if ARBOREAL_INTERNAL_CHECKS
    /// Asserts, when built with `-DARBOREAL_INTERNAL_CHECKS`, that `span` is a transaction's
    /// span shared with the recording that ends.
    @inline(never)
    private func checkSharesTransaction(_ span: Span) {
      precondition(
        span.isTransaction && span.isRecording,
        "WriteLog: a recording closed with a transaction whose span it does not share")
    }
  #else
    /// Does nothing: the checks are built with `-DARBOREAL_INTERNAL_CHECKS`.
    @inline(__always)
    private func checkSharesTransaction(_ span: Span) {}
  #endif

  #if ARBOREAL_INTERNAL_CHECKS
    /// Asserts the invariants when built with `-DARBOREAL_INTERNAL_CHECKS`, for logs of up to
    /// 64 entries (a larger one would make the checked build quadratic); does nothing otherwise.
    @inline(never)
    func checkInvariants() {
      precondition(!hasDeferredTransaction || spans.isEmpty, "WriteLog: a deferred span")
      precondition(
        valueRecordings == spans.count(where: \.keepsValues)
          && spans.allSatisfy { $0.isRecording || !$0.keepsValues },
        "WriteLog: the count of recordings that keep values")
      guard entries.count <= 64 else { return }
      var previous = 0
      for span in spans {
        precondition(span.first >= previous && span.first <= entries.count, "WriteLog: spans")
        previous = span.first
      }
      for (number, span) in spans.enumerated() {
        let end = number + 1 < spans.count ? spans[number + 1].first : entries.count
        let region = entries[span.first..<end].map(\.property)
        precondition(Set(region).count == region.count, "WriteLog: two entries in one span")
      }
      for position in entries.indices where entries[position].outer >= 0 {
        let outer = entries[position].outer
        precondition(
          outer < position && entries[outer].property == entries[position].property,
          "WriteLog: an outer link names the wrong entry")
      }
      if indexed {
        for position in entries.indices {
          let property = entries[position].property
          if !entries[(position + 1)...].contains(where: { $0.property == property }) {
            precondition(index[property] == position, "WriteLog: the index is stale")
          }
        }
      }
    }
  #else
    /// Does nothing: the checks are built with `-DARBOREAL_INTERNAL_CHECKS`.
    @inline(__always)
    func checkInvariants() {}
  #endif
}

extension WriteLog.Entry {
  /// Drops the values: a write kept none, so the property is changed for the rest of the span.
  @inline(__always)
  mutating func keepNoValues() {
    changed = true
    before = nil
    after = nil
  }
}
