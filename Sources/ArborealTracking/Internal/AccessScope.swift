import Synchronization

/// One read recorded by a scope: which property, and the registrar epoch the read saw.
struct AccessRecord {
  var id: UInt64
  var epoch: UInt64
}

/// The reads one run of a tracking closure made, grouped in runs of consecutive reads of the
/// same registrar.
///
/// Each run holds one `pendingScopes` count on its registrar (taken at its first read), which
/// whoever consumes the scope gives back exactly once: by registering the run, or by
/// `discard()`. Records of a run are contiguous, so a run is a range of `records`.
///
/// Scopes are recycled through a small per-thread pool, so that a tracking closure run does
/// not allocate once its thread has warmed up.
///
/// Invariants: the runs tile `records[0..<recordCount]` in order, none empty, and two
/// neighbouring runs never share a registrar (``checkInvariants()`` asserts them under
/// `ARBOREAL_INTERNAL_CHECKS` whenever the scope is consumed). A scope is used only by the
/// thread that runs its closure; that is also why the dynamic exclusivity checks, which would
/// cost more than the rest of a read, are switched off.
final class AccessScope {
  struct Run {
    let core: RegistrarCore
    var range: Range<Int>
  }

  @exclusivity(unchecked) private(set) var runs: [Run] = []
  /// The records, in `records[0..<recordCount]`; the elements after are stale, kept so that a
  /// recycled scope overwrites them instead of emptying and regrowing the array.
  @exclusivity(unchecked) private var records: [AccessRecord] = []
  @exclusivity(unchecked) private var recordCount = 0
  /// The registrar of the last run, compared by identity without retaining it.
  @exclusivity(unchecked) private var lastCore: ObjectIdentifier?
  /// Slots of `groups()`'s hash table (a group's index plus one, or zero when empty), kept
  /// between uses so that grouping does not allocate.
  @exclusivity(unchecked) private var groupTable: [Int] = []
  /// The context of the thread running the scope; it outlives the scope's use.
  @exclusivity(unchecked) private var context: Unmanaged<ThreadContext>?

  /// Records a read of property `id` of `core`, stamping it with `epoch` or, when nil, the
  /// epoch the registrar has now.
  func record(_ core: RegistrarCore, id: UInt64, epoch: UInt64?) {
    let count = recordCount
    if lastCore == ObjectIdentifier(core) {
      // A property read again in the same run adds nothing: its first read already depends
      // on it, with the earlier (more cautious) epoch. Only the run's last few reads are
      // compared, which covers loops over a model's properties at a bounded cost.
      if epoch == nil {
        let lower = max(runs[runs.count &- 1].range.lowerBound, count &- 8)
        var index = count &- 1
        while index >= lower {
          if records[index].id == id { return }
          index &-= 1
        }
      }
      runs[runs.count &- 1].range = runs[runs.count &- 1].range.lowerBound..<(count &+ 1)
    } else {
      core.beginPending()
      lastCore = ObjectIdentifier(core)
      runs.append(Run(core: core, range: count..<(count &+ 1)))
    }
    let stamp = core.stampRead(of: id)
    let record = AccessRecord(id: id, epoch: epoch.map { min($0, stamp) } ?? stamp)
    if count < records.count {
      records[count] = record
    } else {
      records.append(record)
    }
    recordCount = count &+ 1
  }

  /// The records of a run.
  func records(of run: Run) -> ArraySlice<AccessRecord> { records[run.range] }

  /// The reads in `range` (a run's).
  func records(of range: Range<Int>) -> ArraySlice<AccessRecord> { records[range] }

  /// The distinct property ids of a run, in first-read order.
  ///
  /// - Complexity: O(*r*²) for *r* reads in the run; runs are short in practice.
  func ids(of run: Run) -> SmallList<UInt64> {
    ids(in: run.range)
  }

  /// The distinct property ids of the reads in `range`, in first-read order. Indexes the
  /// records in place: a slice of them would retain and release their storage.
  func ids(in range: Range<Int>) -> SmallList<UInt64> {
    var ids = SmallList<UInt64>()
    var index = range.lowerBound
    while index < range.upperBound {
      let id = records[index].id
      if !ids.contains(id) { ids.append(id) }
      index &+= 1
    }
    return ids
  }

  /// Calls `body` with each run's registrar, unretained (the scope keeps it alive until it is
  /// recycled), and the run's range of reads: a walk that copies no `Run` out of `runs`, each
  /// copy a retain and a release of its registrar.
  @inline(__always)
  func forEachRun(_ body: (Unmanaged<RegistrarCore>, Range<Int>) -> Void) {
    runs.withUnsafeBufferPointer { runs in
      for index in runs.indices {
        body(Unmanaged.passUnretained(runs[index].core), runs[index].range)
      }
    }
  }

  /// Whether the distinct ids of `run` are exactly `ids`, in order.
  func run(_ run: Run, readExactly ids: SmallList<UInt64>) -> Bool {
    guard run.range.count == ids.count else { return false }
    var position = 0
    var index = run.range.lowerBound
    while index < run.range.upperBound {
      guard records[index].id == ids[position] else { return false }
      position += 1
      index += 1
    }
    return true
  }

  /// The registrar and the read, when the scope read exactly one property once (the usual
  /// case). The scope keeps the registrar alive until it is recycled.
  var onlyRead: (core: Unmanaged<RegistrarCore>, record: AccessRecord)? {
    runs.withUnsafeBufferPointer { runs in
      guard runs.count == 1, runs[0].range.count == 1 else { return nil }
      return (Unmanaged.passUnretained(runs[0].core), records[runs[0].range.lowerBound])
    }
  }

  /// Gives back the pending counts of every run without registering anything.
  func discard() {
    checkInvariants()
    guard !runs.isEmpty else { return }
    for run in runs { run.core.releasePending() }
    runs.removeAll(keepingCapacity: true)
    lastCore = nil
  }

  /// The reads of one registrar, merged over all the runs that read it.
  struct Group {
    let core: RegistrarCore
    /// Distinct property ids, in first-read order.
    var ids: SmallList<UInt64>
    var records: ArraySlice<AccessRecord>
    /// How many runs (pending counts) the group stands for.
    var runCount: Int
  }

  /// Whether some registrar was read in more than one run (reads of other registrars came
  /// between). Usually not: then each run can be registered as it is, without grouping.
  ///
  /// - Complexity: O(*r*) expected for *r* runs; allocates nothing once the scope is warm.
  func readsSomeRegistrarTwice() -> Bool {
    checkInvariants()
    if runs.count < 2 { return false }
    let mask = prepareGroupTable()
    return runs.withUnsafeBufferPointer { runs in
      groupTable.withUnsafeMutableBufferPointer { table in
        for index in runs.indices {
          let identity = ObjectIdentifier(runs[index].core)
          var slot = Self.slot(of: identity, mask: mask)
          while true {
            let entry = table[slot]
            if entry == 0 {
              table[slot] = index &+ 1
              break
            }
            if ObjectIdentifier(runs[entry &- 1].core) == identity { return true }
            slot = (slot &+ 1) & mask
          }
        }
        return false
      }
    }
  }

  /// Clears ``groupTable`` for the current runs and returns its index mask.
  private func prepareGroupTable() -> Int {
    // A power of two at least twice the number of runs: probes stay short.
    var capacity = 16
    while capacity < 2 &* runs.count { capacity &<<= 1 }
    if groupTable.count < capacity {
      groupTable = Array(repeating: 0, count: capacity)
    } else {
      for index in 0..<capacity { groupTable[index] = 0 }
    }
    return capacity &- 1
  }

  /// The first slot to probe for `core`.
  @inline(__always)
  private static func slot(of identity: ObjectIdentifier, mask: Int) -> Int {
    // The address itself: `hashValue` would run the standard hasher.
    let address = UInt(bitPattern: identity)
    // Fibonacci hashing of the address, whose low bits are alignment zeros.
    return Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) &>> 40) & mask
  }

  /// The reads grouped by registrar, in first-read order. Consuming the groups means giving
  /// back each group's `runCount` pending counts.
  ///
  /// Runs are matched to groups through ``groupTable``, an open-addressing table kept by the
  /// scope between uses, so that grouping allocates nothing once the scope has warmed up.
  ///
  /// - Complexity: O(*r*) expected for *r* reads.
  func groups() -> [Group] {
    checkInvariants()
    if runs.count == 1, let run = runs.first {
      return [Group(core: run.core, ids: ids(of: run), records: records(of: run), runCount: 1)]
    }
    var groups: [Group] = []
    groups.reserveCapacity(runs.count)
    let mask = prepareGroupTable()
    for run in runs {
      var slot = Self.slot(of: ObjectIdentifier(run.core), mask: mask)
      while true {
        let entry = groupTable[slot]
        if entry == 0 {
          groupTable[slot] = groups.count &+ 1
          groups.append(
            Group(core: run.core, ids: ids(of: run), records: records(of: run), runCount: 1))
          break
        }
        let position = entry &- 1
        if groups[position].core === run.core {
          var merged = Array(groups[position].records)
          for record in records(of: run) {
            if !groups[position].ids.contains(record.id) { groups[position].ids.append(record.id) }
            merged.append(record)
          }
          groups[position].records = merged[...]
          groups[position].runCount &+= 1
          break
        }
        slot = (slot &+ 1) & mask
      }
    }
    return groups
  }

  #if ARBOREAL_INTERNAL_CHECKS
    /// Asserts the invariants (built with `-DARBOREAL_INTERNAL_CHECKS`). O(*r*) for *r* runs.
    @inline(never)
    func checkInvariants() {
      var next = 0
      for index in runs.indices {
        let run = runs[index]
        precondition(
          run.range.lowerBound == next && !run.range.isEmpty,
          "AccessScope: the runs do not tile the records")
        precondition(
          index == 0 || runs[index - 1].core !== run.core,
          "AccessScope: two neighbouring runs of one registrar")
        next = run.range.upperBound
      }
      precondition(
        runs.isEmpty || next == recordCount, "AccessScope: records after the last run")
    }
  #else
    /// Does nothing: the invariants are asserted when built with `-DARBOREAL_INTERNAL_CHECKS`.
    @inline(__always)
    func checkInvariants() {}
  #endif

  /// Returns the scope to its thread's pool. Call once the scope is consumed, on the thread
  /// that ran it.
  func recycle() {
    if !runs.isEmpty { runs.removeAllKeepingStorage() }
    if records.count > 1_024 { records = [] }
    if groupTable.count > 4_096 { groupTable = [] }
    recordCount = 0
    lastCore = nil
    (context ?? ThreadContext.unmanagedCurrentOrNew)._withUnsafeGuaranteedRef { context in
      // One spare in a slot of its own (no array to keep unique), the next few in the pool.
      if context.spareScope == nil {
        context.spareScope = self
      } else if context.spareScopes.count < 4 {
        context.spareScopes.append(self)
      }
    }
  }

  /// Runs `body` with a scope installed on the calling thread and returns the scope with the
  /// reads it made. The caller must consume the scope (register or `discard()`), then
  /// `recycle()` it.
  ///
  /// The thread's context is reached unmanaged: the thread keeps it alive, and a managed
  /// reference would cost a retain and a release per run.
  ///
  /// - Parameters:
  ///   - mergingIntoParent: Whether the reads are also recorded in the enclosing scope.
  ///   - context: The calling thread's context, when the caller has it at hand.
  static func run<T, E: Error>(
    mergingIntoParent: Bool,
    on context: Unmanaged<ThreadContext> = ThreadContext.unmanagedCurrentOrNew,
    _ body: () throws(E) -> T
  ) throws(E) -> (T, AccessScope) {
    let (scope, installed) = context._withUnsafeGuaranteedRef {
      context -> (AccessScope, Unmanaged<AccessScope>?) in
      let scope = context.spareScope.take() ?? context.spareScopes.popLast() ?? AccessScope()
      let installed = context.scope
      context.scope = Unmanaged.passUnretained(scope)
      return (scope, installed)
    }
    scope.context = context
    TrackingActivity.shared.countScope(true)
    // No `Result` here: with `T` unknown it costs a generic metadata lookup per run.
    defer {
      TrackingActivity.shared.countScope(false)
      // `installed` is kept alive by the code that installed it.
      context._withUnsafeGuaranteedRef { $0.scope = installed }
      if mergingIntoParent, let installed {
        installed._withUnsafeGuaranteedRef { parent in
          for run in scope.runs {  // empty when `body` threw: the scope was discarded
            for record in scope.records(of: run) {
              parent.record(run.core, id: record.id, epoch: record.epoch)
            }
          }
        }
      }
    }
    do {
      return (try body(), scope)
    } catch {
      scope.discard()
      scope.recycle()
      throw error
    }
  }
}
