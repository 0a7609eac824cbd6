/// One derived value being computed on the calling thread.
///
/// - `node`: the value being computed; the computing call keeps it alive while the frame is
///   on the stack.
/// - `scope`: the tracking scope installed for the computation (an `AccessScope`, by
///   address). A derived value read while this scope is the innermost one is read by the
///   computation itself, and becomes an edge of the graph instead of a registrar read; a read
///   made inside a nested scope (an observer that the computation's own write woke) is an
///   ordinary tracked read.
/// - `reads`: the derived values the computation read, with the version it saw of each, in
///   first-read order; a value read again is not recorded again (see
///   ``DerivedNodeBase/lastReader``). Each is recorded with its stamps, under the source's
///   lock, in the same critical section that copies its value (``record(_:version:in:)``),
///   so that the stamps are those of the version read.
/// - `runs`, `records`, `stamps`: the rest of the record of sources the computation builds
///   (see ``DerivedNodeBase``).
/// - `staleRead`: a derived value was read at a version whose stamps were gone by the time
///   they could be taken; the result must not be stored as clean.
///
/// When the node stores its result, the record (`reads` included, which becomes the node's
/// `derivedSources` without a copy) is swapped with the node's; afterwards the frame holds the
/// node's old record, which ``DerivedContext/giveBack(_:)`` empties.
///
/// Frames are reused: a recomputation takes one from its thread's context
/// (``DerivedContext/takeFrame(for:)``) and gives it back when it is done, which keeps the
/// arrays' capacity, so a steady-state recomputation allocates none of them.
///
/// Invariant: a frame is used only by the thread whose context holds it (the dynamic
/// exclusivity checks are off for that reason).
final class DerivedFrame {
  unowned(unsafe) var node: DerivedNodeBase
  @exclusivity(unchecked) var scope: UnsafeMutableRawPointer?
  @exclusivity(unchecked) var reads: [DerivedSourceEdge] = []
  @exclusivity(unchecked) var runs: [DerivedSourceRun] = []
  @exclusivity(unchecked) var records: [AccessRecord] = []
  @exclusivity(unchecked) var stamps: [DerivedStamp] = []
  @exclusivity(unchecked) var staleRead = false
  /// Whether `stamps` is a derived source's own array, shared rather than merged (see
  /// ``record(_:version:in:)``): emptied or added to in place, it would be copied first.
  @exclusivity(unchecked) var sharesStamps = false
  /// The frame's own storage for stamps, kept aside while `stamps` shares a source's array,
  /// so that the frame does not come back from a sharing computation without storage.
  @exclusivity(unchecked) private var ownStamps: [DerivedStamp] = []
  /// The position in `stamps` of each registrar's stamp, by registrar, for the stamps
  /// `stampIndex.count` first (built when there are many; emptied with the frame).
  @exclusivity(unchecked) private var stampIndex: [ObjectIdentifier: Int] = [:]
  /// Names this use of the frame, a computation, in its sources' ``DerivedNodeBase/lastReader``;
  /// new for every use, never reused (see ``DerivedContext/nextUseID()``).
  @exclusivity(unchecked) private(set) var useID: UInt64

  init(node: DerivedNodeBase, useID: UInt64) {
    self.node = node
    self.useID = useID
  }

  /// Records that the computation read `source` at `version`, with the source's stamps.
  /// Called under the source's lock, with its state.
  ///
  /// The stamps are the ones the source holds now, which are those of `version` only while
  /// that is still its version: once it has moved (recomputed from a later write), they are the
  /// later write's, and would vouch for a result computed before it. So a read whose version is
  /// gone marks the frame's result stale instead.
  func record(_ source: DerivedNodeBase, version: UInt64, in state: borrowing DerivedNodeBase.State)
  {
    reads.append(DerivedSourceEdge(node: source, serial: source.serial, version: version))
    guard state.version == version else {
      staleRead = true
      return
    }
    // The only source of a computation, with many stamps (a value that splits one gathered
    // from many models): its array is shared, copy on write, instead of merged stamp by stamp
    // through the index; a check that finds the source unchanged shares the source's array
    // again (`DerivedNodeBase.finishCheck`). A later source or tracked read unshares it.
    if reads.count == 1 && stamps.isEmpty && state.stamps.count > Self.stampScanLimit {
      swap(&stamps, &ownStamps)
      stamps = state.stamps
      sharesStamps = true
      return
    }
    for inner in state.stamps { stamp(inner.core, inner.epoch) }
  }

  /// Records the computation's tracked reads, from `scope`. A tracked property's stamp is the
  /// epoch its read saw.
  ///
  /// Writes to the registrars read now move the clock that lets cached reads skip the stamps
  /// (``RegistrarCore/countWritesForDerivedValues()``), before the stamps are stored: no read
  /// can rely on them before the registrars count. A derived source's stamps were counted so
  /// by the computation that first took them from a tracked read.
  func recordTracked(of scope: AccessScope) {
    for run in scope.runs {
      run.core.countWritesForDerivedValues()
      let start = records.count
      let read = scope.records(of: run)
      records.append(contentsOf: read)
      runs.append(DerivedSourceRun(core: run.core, range: start..<records.count))
      for record in read { stamp(run.core, record.epoch) }
    }
  }

  /// Whether `reads` (the new record) names the same values, in the same order, as `previous`
  /// (the record it replaced): then every edge the new record needs exists already.
  func readsMatch(_ previous: [DerivedSourceEdge]) -> Bool {
    guard reads.count == previous.count else { return false }
    for index in reads.indices where reads[index].serial != previous[index].serial {
      return false
    }
    return true
  }

  /// Adds `dependent` to the dependents of each value in `sources` (the new record) that
  /// `reads` (now the record it replaced) does not name. The old record is searched in
  /// place while it is short (a value whose few sources change from one computation to the
  /// next, which would otherwise allocate a set each time), through a set past
  /// `stampScanLimit`.
  func addEdges(from sources: [DerivedSourceEdge], to dependent: DerivedNodeBase) {
    var previous: Set<UInt64>?
    for (index, source) in sources.enumerated() {
      let serial = source.serial
      if index < reads.count && reads[index].serial == serial { continue }
      if reads.count <= Self.stampScanLimit {
        if reads.contains(where: { $0.serial == serial }) { continue }
      } else {
        if previous == nil { previous = Set(reads.lazy.map(\.serial)) }
        if previous.unsafelyUnwrapped.contains(serial) { continue }
      }
      source.node.addDependent(dependent)
    }
  }

  /// Keeps the earliest epoch seen of `core`: O(1) expected, a scan of a few stamps or, once
  /// there are many (a total over thousands of models), a look in `stampIndex`.
  private func stamp(_ core: RegistrarCore, _ epoch: UInt64) {
    if sharesStamps { unshareStamps() }
    if let last = stamps.indices.last, stamps[last].core === core {
      stamps[last].epoch = min(stamps[last].epoch, epoch)
      return
    }
    let position: Int?
    if stamps.count <= Self.stampScanLimit {
      position = stamps.firstIndex { $0.core === core }
    } else {
      if stampIndex.count != stamps.count {
        for index in stampIndex.count..<stamps.count {
          stampIndex[ObjectIdentifier(stamps[index].core)] = index
        }
      }
      position = stampIndex[ObjectIdentifier(core)]
    }
    if let position {
      stamps[position].epoch = min(stamps[position].epoch, epoch)
    } else {
      stamps.append(DerivedStamp(core: core, epoch: epoch))
    }
  }

  /// Copies a shared source's stamps into the frame's own storage, before another stamp joins
  /// them. The shared stamps hold one registrar each, so they are appended as they are.
  private func unshareStamps() {
    var shared: [DerivedStamp] = []
    swap(&shared, &stamps)
    swap(&stamps, &ownStamps)
    sharesStamps = false
    stamps.append(contentsOf: shared)
  }

  /// Past this many stamps, they are found through `stampIndex` instead of a scan.
  private static let stampScanLimit = 16

  /// Gives the node the record built here and takes its old one. Called under the node's
  /// lock.
  ///
  /// Lists that are empty on both sides stay where they are: swapped, the frame's storage
  /// would move into a node that never fills it (a value that reads no tracked property) and
  /// the frame would come back without, to allocate again at the next value that does.
  func swapSources(with state: inout DerivedNodeBase.State) {
    if !(runs.isEmpty && state.runs.isEmpty) {
      swap(&runs, &state.runs)
      swap(&records, &state.records)
    }
    if !(reads.isEmpty && state.derivedSources.isEmpty) {
      swap(&reads, &state.derivedSources)
    }
    if !(stamps.isEmpty && state.stamps.isEmpty) {
      swap(&stamps, &state.stamps)
      swap(&sharesStamps, &state.sharesStamps)
    }
  }

  /// Empties the frame for its next use, keeping its arrays' storage unless it grew large.
  func reset(useID: UInt64) {
    scope = nil
    staleRead = false
    if !reads.isEmpty { reads.removeAllKeepingStorage() }
    if !runs.isEmpty { runs.removeAllKeepingStorage() }
    if sharesStamps {
      // A shared array, not the frame's: drop it and take the frame's own storage back.
      stamps = []
      swap(&stamps, &ownStamps)
      stamps.removeAllKeepingStorage()
      sharesStamps = false
    } else if !stamps.isEmpty {
      stamps.removeAllKeepingStorage()
    }
    if !stampIndex.isEmpty { stampIndex.removeAll(keepingCapacity: stampIndex.count <= 4_096) }
    if records.count > 4_096 {
      records = []
    } else if !records.isEmpty {
      records.removeAllKeepingStorage()
    }
    self.useID = useID
  }
}
