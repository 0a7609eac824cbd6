import Testing

@testable import ArborealTracking

/// `WriteLog`, the net change shared by transactions and change recordings, driven directly:
/// spans, entries decided as writes come, links to enclosing spans, the index.
@Suite struct WriteLogTests {
  private let registrar = RegistrarCore()
  private let other = RegistrarCore()

  private func write(
    _ log: inout WriteLog, _ id: UInt64, _ before: Int, _ after: Int, in core: RegistrarCore? = nil
  ) {
    let core = core ?? registrar
    log.log(
      Unmanaged.passUnretained(core), id: id, keeper: core, hasModel: false, before: before,
      after: after, isDuplicate: { Tracked<Int>.compare($0, $1, with: ==) })
  }

  private func edit(_ log: inout WriteLog, _ id: UInt64) {
    log.log(
      Unmanaged.passUnretained(registrar), key: TrackingKey(unnamed: id), keeper: registrar,
      hasModel: false, isState: true)
  }

  /// The innermost span's entries as (id, changed).
  private func span(_ log: WriteLog) -> [[UInt64]] {
    log.innermost.map { [log.entries[$0].key.id, log.entries[$0].changed ? 1 : 0] }
  }

  private func isUnchanged(_ log: WriteLog, _ id: UInt64) -> Bool {
    log.isUnchanged(Unmanaged.passUnretained(registrar).toOpaque(), id: id)
  }

  @Test func aPropertySetAndSetBackIsUnchanged() {
    var log = WriteLog()
    log.openTransaction()
    write(&log, 1, 0, 5)
    #expect(span(log) == [[1, 1]])
    write(&log, 1, 5, 0)
    #expect(span(log) == [[1, 0]])
    #expect(isUnchanged(log, 1))
    // No recording keeps values: the value after is not kept.
    #expect(log.entries[0].before as? Int == 0 && log.entries[0].after == nil)
    log.close()
    #expect(log.entries.isEmpty && !log.isOpen)
  }

  @Test func theValueAfterIsKeptOnlyWhileARecordingThatKeepsValuesIsOpen() {
    var log = WriteLog()
    log.openTransaction()
    write(&log, 1, 0, 5)  // the transaction alone: no value after
    log.open(recordingAt: 1, keepingValues: true)
    #expect(log.valueRecordings == 1)
    write(&log, 1, 5, 6)  // the recording's first write of 1, and the transaction's second
    write(&log, 2, 0, 3)
    #expect(log.entries[0].after as? Int == 6 && log.entries[1].after as? Int == 6)
    #expect(log.entries[2].before as? Int == 0 && log.entries[2].after as? Int == 3)
    log.open(recordingAt: 2)  // nested, without values: the outer one still needs them
    write(&log, 2, 3, 4)
    #expect(log.entries[3].after as? Int == 4 && log.entries[2].after as? Int == 4)
    log.close()
    log.close()
    #expect(log.valueRecordings == 0 && log.recordings == 0)
    write(&log, 2, 4, 9)  // the recording ended: the entry drops its value after, now stale
    #expect(log.entries[1].before as? Int == 0 && log.entries[1].after == nil)
    log.close()
    #expect(log.entries.isEmpty)
  }

  @Test func theFirstWritesOldValueMeetsTheLastWritesNewOne() {
    var log = WriteLog()
    log.openTransaction()
    write(&log, 1, 0, 5)
    write(&log, 1, 5, 7)
    #expect(!isUnchanged(log, 1))
    write(&log, 1, 7, 0)  // back to the first value, through a third write
    #expect(isUnchanged(log, 1))
    #expect(log.entries.count == 1)
  }

  @Test func aWriteThatKeptNoValuesMakesThePropertyChangedForTheRestOfTheSpan() {
    var log = WriteLog()
    log.openTransaction()
    write(&log, 1, 0, 5)
    edit(&log, 1)
    write(&log, 1, 5, 0)
    #expect(!isUnchanged(log, 1))
    #expect(log.entries[0].before == nil && log.entries[0].after == nil)
  }

  @Test func propertiesKeepTheirFirstWriteOrderAndRegistrarsTheirOwnEntries() {
    var log = WriteLog()
    log.openTransaction()
    write(&log, 2, 0, 1)
    write(&log, 1, 0, 1)
    write(&log, 2, 1, 0)
    write(&log, 2, 0, 1, in: other)
    #expect(span(log) == [[2, 0], [1, 1], [2, 1]])
    #expect(log.entries[2].core.toOpaque() == Unmanaged.passUnretained(other).toOpaque())
  }

  @Test func anInnerSpanUpdatesTheEnclosingSpansEntriesAndMergesIntoThem() {
    var log = WriteLog()
    log.openTransaction()  // the outer span: a transaction
    write(&log, 1, 0, 1)
    log.open(recordingAt: 7)
    #expect(log.recordings == 1 && log.recordingStart == 7)
    write(&log, 1, 1, 0)  // the inner span: 1 → 0, a change; the outer one: 0 → 0, none
    write(&log, 2, 0, 3)
    #expect(span(log) == [[1, 1], [2, 1]])
    #expect(log.entries[0].changed == false)
    #expect(log.entries[1].outer == 0 && log.entries[2].outer == -1)
    log.close()
    // The inner entry of 1 is dropped (the outer one is up to date); that of 2 is the outer's.
    #expect(log.recordings == 0)
    #expect(span(log) == [[1, 0], [2, 1]])
    #expect(log.entries[1].before as? Int == 0)
    log.close()
    #expect(log.entries.isEmpty)
  }

  @Test func aTransactionAloneMakesItsSpanOnlyWhenSomethingNeedsIt() {
    var log = WriteLog()
    log.openTransaction()
    #expect(log.isOpen && log.spans.isEmpty)
    log.close()
    #expect(!log.isOpen)
    log.openTransaction()
    write(&log, 1, 0, 1)  // the first write makes it
    #expect(log.spans.count == 1 && span(log) == [[1, 1]])
    log.close()
    #expect(!log.isOpen && log.entries.isEmpty)
  }

  @Test func aRecordingThatBeginsInAnEmptyTransactionSharesItsSpan() {
    var log = WriteLog()
    log.openTransaction()
    log.open(recordingAt: 3)
    #expect(log.spans.count == 1 && log.recordings == 1 && log.recordingStart == 3)
    write(&log, 1, 0, 1)
    log.endRecording()
    // The entries stay for the transaction, unmoved.
    #expect(log.spans.count == 1 && log.recordings == 0)
    #expect(span(log) == [[1, 1]])
    log.close()
    #expect(log.entries.isEmpty && !log.isOpen)
    // Not when the transaction holds writes already: the recording's span starts after them.
    log.openTransaction()
    write(&log, 1, 0, 1)
    log.open(recordingAt: 4)
    #expect(log.spans.count == 2 && log.innermost.isEmpty)
    log.endRecording()
    #expect(log.spans.count == 1 && log.recordings == 0)
    log.close()
  }

  @Test func aWriteInThreeSpansUpdatesEachOfThem() {
    var log = WriteLog()
    log.openTransaction()
    write(&log, 1, 0, 1)
    log.open(recordingAt: 1)
    log.open(recordingAt: 2)
    write(&log, 1, 1, 2)
    write(&log, 1, 2, 0)
    // Innermost 1 → 0 (a change), outermost 0 → 0 (none); the middle span has no entry.
    #expect(span(log) == [[1, 1]])
    #expect(log.entries[0].changed == false)
    log.close()
    #expect(span(log) == [[1, 1]])  // the middle span now holds the innermost's entry
    write(&log, 1, 0, 1)
    #expect(span(log) == [[1, 0]])  // middle: 1 → 1
    #expect(log.entries[0].changed)  // outermost: 0 → 1
    log.close()
    #expect(span(log) == [[1, 1]])
  }

  @Test func manyPropertiesAreFoundThroughTheIndex() {
    var log = WriteLog()
    log.openTransaction()
    for id in 0..<100 as Range<UInt64> { write(&log, id, 0, 1) }
    log.open(recordingAt: 0)
    for id in 0..<100 as Range<UInt64> where id.isMultiple(of: 2) { write(&log, id, 1, 0) }
    for id in 100..<110 as Range<UInt64> { write(&log, id, 0, 1) }
    #expect(log.innermost.count == 60)
    log.close()
    #expect(log.entries.count == 110)
    #expect((0..<100 as Range<UInt64>).filter { isUnchanged(log, $0) }.count == 50)
    // Found through the index after the merge: the same entries, not new ones.
    write(&log, 105, 1, 0)
    #expect(log.entries.count == 110 && isUnchanged(log, 105))
    log.close()
    log.openTransaction()
    write(&log, 7, 0, 1)
    #expect(log.entries.count == 1)
  }

  @Test func aMillionPropertiesInOneSpan() {
    // Each written twice: the index finds each entry in O(1) (a scan per write would make this
    // about 10^12 steps).
    var log = WriteLog()
    log.openTransaction()
    for id in 0..<1_000_000 as Range<UInt64> { write(&log, id, 0, 1) }
    for id in 0..<1_000_000 as Range<UInt64> { write(&log, id, 1, 0) }
    #expect(log.entries.count == 1_000_000)
    #expect(log.entries.allSatisfy { !$0.changed })
    log.close()
    #expect(log.entries.isEmpty)
  }
}
