/// Where a derived value stands: its phase, the version of its cached result, the generation
/// of its last computation, and a count of the marks notifications made. A pure state
/// machine (no locks, no graph, no values), kept by ``DerivedNodeBase`` under its lock and
/// tested directly by `DerivedStatusTests`.
///
/// ## Phases
/// - `uncomputed`: never computed; nothing marks it, the first read computes it.
/// - `clean`: the cache was valid when last checked.
/// - `check`: something it read may have changed (a tracked property's registrar said so, or
///   a derived value it read was marked): the next refresh checks its sources before deciding
///   to recompute.
/// - `dirty`: something it read did change: the next refresh recomputes without checking.
///
/// ## Invariants
/// - `version` is 0 only while `uncomputed`; it moves when a computation's result is not a
///   duplicate of the previous one (and always for the first result), never otherwise.
/// - `generation` moves with every stored computation; a change found by an older
///   computation's relink names an older generation and marks nothing.
/// - `marks` moves with every phase change a notification makes, so that a check that raced
///   a notification (it started before, finished after) does not mark the value clean.
///
/// ``checkInvariants()`` asserts the first two after every transition when built with
/// `-DARBOREAL_INTERNAL_CHECKS`.
struct DerivedStatus: Equatable {
  enum Phase { case uncomputed, clean, check, dirty }

  private(set) var phase = Phase.uncomputed
  private(set) var version: UInt64 = 0
  private(set) var generation: UInt64 = 0
  private(set) var marks: UInt64 = 0

  /// Whether the cached result may be returned once its stamps hold.
  var isClean: Bool { phase == .clean }

  /// Whether a check of the sources may keep the cached result (the value is `clean` or
  /// `check`), and the marks to hand back to ``checked(sinceMarks:)``; nil when only a
  /// computation will do.
  var checkStart: UInt64? {
    phase == .clean || phase == .check ? marks : nil
  }

  /// A tracked property the value read may have changed: `clean` becomes `check`. Returns
  /// whether the phase changed (the caller then marks the value's dependents).
  mutating func inputMayHaveChanged() -> Bool { markForCheck() }

  /// A tracked property that computation `generation` read changed after the read: `clean`
  /// or `check` becomes `dirty`, unless a newer computation is stored. Returns whether the
  /// phase changed.
  mutating func inputChanged(generation: UInt64) -> Bool {
    defer { checkInvariants() }
    guard generation == self.generation, phase == .clean || phase == .check else {
      return false
    }
    phase = .dirty
    marks &+= 1
    return true
  }

  /// A derived value the value read may have changed (it was marked, or changed before the
  /// edge from it existed): `clean` becomes `check`. Returns whether the phase changed. No
  /// generation: an edge may be older than the computation that relies on it, and a mark
  /// that was not needed costs a check, never a wrong result.
  mutating func sourceMayHaveChanged() -> Bool { markForCheck() }

  /// `clean` becomes `check`, counted as a mark; what both kinds of "may have changed" do.
  private mutating func markForCheck() -> Bool {
    defer { checkInvariants() }
    guard phase == .clean else { return false }
    phase = .check
    marks &+= 1
    return true
  }

  /// A check that started at `marks` (``checkStart``) found every source unchanged: the value
  /// is `clean` again, unless a notification marked it meanwhile. Returns whether it is.
  mutating func checked(sinceMarks marks: UInt64) -> Bool {
    defer { checkInvariants() }
    guard marks == self.marks, phase == .clean || phase == .check else { return false }
    phase = .clean
    return true
  }

  /// A computation that started when the version was `versionBefore` is stored: the value is
  /// `clean`, in a new generation, and its version moves unless the result duplicates the
  /// previous one and no other computation moved the version meanwhile. Returns whether the
  /// version moved.
  mutating func computed(duplicate: Bool, versionBefore: UInt64) -> Bool {
    defer { checkInvariants() }
    generation &+= 1
    phase = .clean
    guard !duplicate || version != versionBefore else { return false }
    version &+= 1
    return true
  }

  #if ARBOREAL_INTERNAL_CHECKS
    /// Asserts the invariants (built with `-DARBOREAL_INTERNAL_CHECKS`). O(1).
    @inline(never)
    func checkInvariants() {
      precondition(
        (phase == .uncomputed) == (version == 0),
        "DerivedStatus: a version without a computation, or a computation without one")
      precondition(
        (phase == .uncomputed) == (generation == 0),
        "DerivedStatus: a generation without a computation, or a computation without one")
    }
  #else
    /// Does nothing: the invariants are asserted when built with `-DARBOREAL_INTERNAL_CHECKS`.
    @inline(__always)
    func checkInvariants() {}
  #endif
}
