import Synchronization

/// How many tracking scopes are running on all threads. The read path checks it with one
/// relaxed load: when it is zero, a read of a tracked property costs nothing more.
@usableFromInline let activeTrackingScopes = Atomic<Int>(0)

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
/// Invariant: a scope is used only by the thread that runs its closure.
final class AccessScope {
  struct Run {
    let core: RegistrarCore
    var range: Range<Int>
  }

  // Only the thread running the scope's closure touches these (see the type's invariant), so
  // dynamic exclusivity checks are switched off: they cost more than the rest of a read.
  @exclusivity(unchecked) private(set) var runs: [Run] = []
  @exclusivity(unchecked) private(set) var records: [AccessRecord] = []
  /// The registrar of the last run, compared by identity without retaining it.
  @exclusivity(unchecked) private var lastCore: ObjectIdentifier?
  /// The scope this one is nested in, restored when this one ends.
  let parent: AccessScope?
  /// Whether reads recorded here are merged into `parent` when this scope ends.
  let mergesIntoParent: Bool

  init(parent: AccessScope?, mergesIntoParent: Bool) {
    self.parent = parent
    self.mergesIntoParent = mergesIntoParent
  }

  /// Records a read of property `id` of `core`, stamping it with `epoch` or, when nil, the
  /// epoch the registrar has now.
  func record(_ core: RegistrarCore, id: UInt64, epoch: UInt64?) {
    if lastCore == ObjectIdentifier(core) {
      // A property read again in the same run adds nothing: its first read already depends
      // on it, with the earlier (more cautious) epoch. Only the run's last few reads are
      // compared, which covers loops over a model's properties at a bounded cost.
      if epoch == nil {
        let lower = max(runs[runs.count - 1].range.lowerBound, records.count - 8)
        var index = records.count - 1
        while index >= lower {
          if records[index].id == id { return }
          index -= 1
        }
      }
      runs[runs.count - 1].range = runs[runs.count - 1].range.lowerBound..<(records.count + 1)
    } else {
      core.beginPending()
      lastCore = ObjectIdentifier(core)
      runs.append(Run(core: core, range: records.count..<(records.count + 1)))
    }
    let stamp = core.stampRead(of: id)
    records.append(AccessRecord(id: id, epoch: epoch.map { min($0, stamp) } ?? stamp))
  }

  /// The records of a run.
  func records(of run: Run) -> ArraySlice<AccessRecord> { records[run.range] }

  /// The distinct property ids of a run, in first-read order.
  ///
  /// - Complexity: O(*r*²) for *r* reads in the run; runs are short in practice.
  func ids(of run: Run) -> [UInt64] {
    var ids: [UInt64] = []
    for record in records[run.range] where !ids.contains(record.id) { ids.append(record.id) }
    return ids
  }

  /// Gives back the pending counts of every run without registering anything.
  func discard() {
    for run in runs { run.core.releasePending() }
    runs.removeAll()
    lastCore = nil
  }

  /// The reads of one registrar, merged over all the runs that read it.
  struct Group {
    let core: RegistrarCore
    /// Distinct property ids, in first-read order.
    var ids: [UInt64]
    var records: [AccessRecord]
    /// How many runs (pending counts) the group stands for.
    var runCount: Int
  }

  /// The reads grouped by registrar, in first-read order. Consuming the groups means giving
  /// back each group's `runCount` pending counts.
  ///
  /// - Complexity: O(*r*) expected for *r* reads.
  func groups() -> [Group] {
    if runs.count == 1, let run = runs.first {
      return [
        Group(core: run.core, ids: ids(of: run), records: Array(records(of: run)), runCount: 1)
      ]
    }
    var groups: [Group] = []
    var positions: [ObjectIdentifier: Int] = [:]
    for run in runs {
      let identity = ObjectIdentifier(run.core)
      if let position = positions[identity] {
        for record in records(of: run) {
          if !groups[position].ids.contains(record.id) { groups[position].ids.append(record.id) }
          groups[position].records.append(record)
        }
        groups[position].runCount += 1
      } else {
        positions[identity] = groups.count
        groups.append(
          Group(core: run.core, ids: ids(of: run), records: Array(records(of: run)), runCount: 1))
      }
    }
    return groups
  }

  /// Runs `body` with a new scope installed on the calling thread and returns the scope with
  /// the reads it made. The caller must consume the scope (register or `discard()`).
  static func run<T, E: Error>(
    mergingIntoParent: Bool, _ body: () throws(E) -> T
  ) throws(E) -> (T, AccessScope) {
    let context = ThreadContext.current
    let scope = AccessScope(
      parent: context.scope?.takeUnretainedValue(), mergesIntoParent: mergingIntoParent)
    context.scope = Unmanaged.passUnretained(scope)
    activeTrackingScopes.wrappingAdd(1, ordering: .relaxed)
    defer {
      activeTrackingScopes.wrappingSubtract(1, ordering: .relaxed)
      // `scope` stays alive until here, and its parent is kept alive by `scope.parent`.
      context.scope = scope.parent.map { Unmanaged.passUnretained($0) }
      withExtendedLifetime(scope) {}
      if mergingIntoParent, let parent = scope.parent {
        for run in scope.runs {
          for record in scope.records(of: run) {
            parent.record(run.core, id: record.id, epoch: record.epoch)
          }
        }
      }
    }
    do {
      let value = try body()
      return (value, scope)
    } catch {
      scope.discard()
      throw error
    }
  }
}
