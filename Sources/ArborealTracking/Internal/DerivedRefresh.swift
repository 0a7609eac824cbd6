import Synchronization

/// What a check of a derived value's sources found when it began (see
/// ``DerivedNodeBase/beginCheck(_:)``).
enum DerivedCheckStart {
  /// The value is clean and nothing it depends on was written since: this is its version (0
  /// for a disposed value, which matches no edge).
  case upToDate(UInt64)
  /// Only a computation will do: never computed, marked `dirty`, or a tracked property it
  /// read changed.
  case mustRecompute
  /// The value may be kept if its derived sources, brought up to date in order, still have
  /// the versions it read.
  case check(DerivedCheck)
}

/// A check in progress: the marks it started at, the derived sources to compare, and the
/// registrar epochs read before it began (see ``DerivedNodeBase/finishCheck(_:_:)``).
struct DerivedCheck {
  var marks: UInt64 = 0
  var sources: [DerivedSourceEdge] = []
  var sharesStamps = false
  var epochs = DerivedEpochs()
}

/// The registrar epochs a check read, in the order of the value's stamps: the first inline,
/// the others in an array made only when there are several (most values depend on one
/// registrar). No array at all while empty, where a `SmallList`'s empty array would still be
/// retained and released with every check.
struct DerivedEpochs {
  private var first: UInt64 = 0
  private var rest: [UInt64]?
  private(set) var count = 0

  /// Makes room for `count` epochs in all.
  mutating func reserveCapacity(_ count: Int) {
    guard count > 1 else { return }
    rest = []
    rest?.reserveCapacity(count &- 1)
  }

  mutating func append(_ epoch: UInt64) {
    if count == 0 {
      first = epoch
    } else if rest == nil {
      rest = [epoch]
    } else {
      rest?.append(epoch)
    }
    count &+= 1
  }

  subscript(index: Int) -> UInt64 {
    index == 0 ? first : rest.unsafelyUnwrapped[index &- 1]
  }
}

/// One value on the stack of ``DerivedNodeBase/refreshedVersion(of:adopt:)``: the check it
/// began, the source it has reached, and whether it waits for that source's version.
///
/// The node is not retained: the entry below it holds its check, whose `sources` hold it (the
/// bottom entry's node is held by the caller of ``DerivedNodeBase/refreshedVersion(of:adopt:)``).
struct DerivedCheckEntry {
  unowned(unsafe) let node: DerivedNodeBase
  /// Whether the check began (`check` holds it).
  var began = false
  var check = DerivedCheck()
  var next = 0
  var awaitsSource = false
}

extension DerivedNodeBase {
  /// Brings `root` up to date and returns its version, without recursion: a chain of any
  /// length is checked with an explicit stack (storage reused from the calling thread's
  /// context) instead of the call stack.
  ///
  /// The state machine, per value on the stack: *begin* (``beginCheck(_:)``: up to date, must
  /// recompute, or check); *check* its derived sources in first-read order, each brought up to
  /// date first (pushed, and compared with the version read when it pops); at the first that
  /// moved, *recompute* (the sources it reads next are refreshed by its reads); when none
  /// moved, *finish* (``finishCheck(_:_:)``), recomputing if a notification or another
  /// computation intervened. A recomputation runs the value's closure, whose reads are
  /// cached ones when the check brought its sources up to date; a read that is not (another
  /// thread wrote meanwhile, or a dirty value's sources) refreshes through this function
  /// again, on a stack of its own.
  ///
  /// - Parameter adopt: Runs under the root's lock when its check begins (a model's value
  ///   learns its model there).
  static func refreshedVersion(of root: DerivedNodeBase, adopt: () -> Void = {}) -> UInt64 {
    // Unmanaged: the thread keeps its context alive.
    let thread: Unmanaged<ThreadContext>
    var checks: [DerivedCheckEntry]
    switch root.beginCheck(adopt) {
    case .upToDate(let version): return version
    case .mustRecompute: return root.recomputeVersion()
    case .check(let check):
      // The check moves into the stack: a copy of its source list left here, held across a
      // recomputation, would make the record's storage shared.
      thread = ThreadContext.unmanagedCurrentOrNew
      checks = thread._withUnsafeGuaranteedRef { $0.derived.takeCheckStack() }
      checks.append(DerivedCheckEntry(node: root, began: true, check: consume check))
    }
    let result = refresh(&checks)
    thread._withUnsafeGuaranteedRef { $0.derived.giveBack(checkStack: &checks) }
    return result
  }

  /// The loop of ``refreshedVersion(of:adopt:)``, over its stack of checks (a local variable
  /// of the caller's), until the stack is empty. Entries are read field by field in place: a
  /// copy of one would retain its lists.
  private static func refresh(_ checks: inout [DerivedCheckEntry]) -> UInt64 {
    var result: UInt64 = 0
    while !checks.isEmpty {
      let top = checks.count - 1
      if !checks[top].began {
        switch checks[top].node.beginCheck() {
        case .upToDate(let version):
          checks.removeLast()
          result = version
          continue
        case .mustRecompute:
          let node = checks.removeLast().node
          result = node.recomputeVersion()
          continue
        case .check(let check):
          checks[top].check = check
          checks[top].began = true
        }
      }
      // No copy of the source list outlives these lines: held across a recomputation, it
      // would make the record's storage shared (see `DerivedNode.refresh`).
      if checks[top].awaitsSource {
        checks[top].awaitsSource = false
        let next = checks[top].next
        guard result == checks[top].check.sources[next].version else {
          // The entry goes first, in its own statement: its copy of the source list, held
          // across the recomputation, would make the record's storage shared.
          let node = checks.removeLast().node
          result = node.recomputeVersion()
          continue
        }
        checks[top].next = next &+ 1
      }
      let next = checks[top].next
      if next < checks[top].check.sources.count {
        checks[top].awaitsSource = true
        let source = checks[top].check.sources[next].node
        checks.append(DerivedCheckEntry(node: source))
        continue
      }
      let node = checks[top].node
      let version = node.finishCheck(checks.removeLast().check)
      result = version != 0 ? version : node.recomputeVersion()
    }
    return result
  }

  /// Begins a check under the lock: whether the value is up to date, must be recomputed, or
  /// may be kept if its derived sources have not moved. Reads the registrar epochs its stamps
  /// name before looking at its tracked sources, so that the stamps a successful check stores
  /// are no later than what it saw.
  ///
  /// - Parameter adopt: Runs first, under the lock.
  final func beginCheck(_ adopt: () -> Void = {}) -> DerivedCheckStart {
    guard !isDisposed else { return .upToDate(0) }
    // A small list: most values depend on one registrar, whose epoch then needs no array.
    var epochs = DerivedEpochs()
    return withState { state -> DerivedCheckStart in
      adopt()
      if state.status.isClean, state.hasValue, Self.stampsHold(&state) {
        return .upToDate(state.status.version)
      }
      guard let marks = state.status.checkStart, state.hasValue else { return .mustRecompute }
      // Shared stamps are taken from the source instead (see `finishCheck`).
      if !state.sharesStamps {
        epochs.reserveCapacity(state.stamps.count)
        // By index: an element bound by `for … in` is a copy, its registrar retained.
        for index in state.stamps.indices {
          epochs.append(state.stamps[index].core.epoch.load(ordering: .sequentiallyConsistent))
        }
      }
      for index in state.runs.indices where state.runs[index].hasChanged(in: state.records) {
        return .mustRecompute
      }
      return .check(
        DerivedCheck(
          marks: marks, sources: state.derivedSources, sharesStamps: state.sharesStamps,
          epochs: epochs))
    }
  }

  /// Ends a check whose derived sources all still have the versions the value read: the value
  /// is clean again, with fresh stamps, unless a notification marked it or a computation
  /// replaced it meanwhile. Returns its version, or 0 when it must be recomputed.
  ///
  /// - Parameter underLock: Runs under the lock when the check succeeds (a reader copies the
  ///   cached value there).
  final func finishCheck(_ check: DerivedCheck, _ underLock: () -> Void = {}) -> UInt64 {
    // The only source's stamps, just checked, vouch for its version if it still has it.
    var sourceStamps: [DerivedStamp]?
    if check.sharesStamps, let source = check.sources.first {
      sourceStamps = source.node.withState { $0.version == source.version ? $0.stamps : nil }
      guard sourceStamps != nil else { return 0 }
    }
    return withState { state -> UInt64 in
      guard state.hasValue, state.status.checked(sinceMarks: check.marks) else { return 0 }
      if state.sharesStamps, let sourceStamps {
        state.stamps = sourceStamps
      } else {
        for index in state.stamps.indices where index < check.epochs.count {
          state.stamps[index].epoch = check.epochs[index]
        }
      }
      state.checkedAt = .max
      underLock()
      return state.status.version
    }
  }
}
