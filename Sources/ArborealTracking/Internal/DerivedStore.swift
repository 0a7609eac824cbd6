import Synchronization

/// What storing a computation's result did to a derived value's state, for the node to act
/// on: under its lock (publish the version, store the value, make the input link) and after it
/// (add edges, mark dependents). Returned by
/// ``DerivedNodeBase/State/store(_:duplicate:versionBefore:readsTracked:isDisposed:)``.
struct DerivedStoreOutput {
  /// The new version, when it moved (to publish for the lock-free re-check of reads).
  var published: UInt64?
  var generation: UInt64 = 0
  var version: UInt64 = 0
  /// The new record of derived sources, when it names a value the old one did not: the
  /// node adds its edges after the lock (see ``DerivedNodeBase``, "dependents").
  var newSources: [DerivedSourceEdge]?
  /// A derived source moved after the computation read it (or its stamps were gone): the
  /// value is stored `check`, and its dependents are to be marked.
  var moved = false
  /// The computation read tracked properties and the value has no input link yet.
  var needsInputLink = false
}

extension DerivedNodeBase {
  /// Whether a value in `sources` no longer has the version recorded.
  static func sourceMoved(_ sources: [DerivedSourceEdge]) -> Bool {
    for source in sources
    where source.node.publishedVersion.load(ordering: .acquiring) != source.version {
      return true
    }
    return false
  }
}

extension DerivedNodeBase.State {
  /// Stores the record of sources that the computation in `frame` built, and its status: a
  /// transition of the state alone (no lock taken, no value, no graph walk), run under the
  /// node's lock. The frame takes the old record away (to empty and reuse).
  ///
  /// - Parameters:
  ///   - duplicate: Whether the result equals the previous one.
  ///   - versionBefore: The version when the computation began.
  ///   - readsTracked: Whether the computation read a tracked property.
  ///   - isDisposed: Whether the node was disposed meanwhile: it then keeps no sources and
  ///     gets no input link.
  @inline(__always)
  mutating func store(
    _ frame: DerivedFrame, duplicate: Bool, versionBefore: UInt64, readsTracked: Bool,
    isDisposed: Bool
  ) -> DerivedStoreOutput {
    var output = DerivedStoreOutput()
    if status.computed(duplicate: duplicate, versionBefore: versionBefore) {
      output.published = status.version
    }
    hasValue = true
    if !isDisposed {
      let edgesExist = frame.readsMatch(derivedSources)
      frame.swapSources(with: &self)
      if !edgesExist { output.newSources = derivedSources }
      // The result is stored for what it is (the latest this computation could make) but
      // marked `check`, so that no read takes it as up to date.
      output.moved = frame.staleRead || DerivedNodeBase.sourceMoved(derivedSources)
      if output.moved { _ = status.sourceMayHaveChanged() }
    }
    checkedAt = .max
    output.needsInputLink = inputLink == nil && readsTracked && !isDisposed
    output.generation = status.generation
    output.version = status.version
    checkInvariants()
    return output
  }

  #if ARBOREAL_INTERNAL_CHECKS
    /// Asserts the invariants of the record and the status (built with
    /// `-DARBOREAL_INTERNAL_CHECKS`): a cached value exactly when computed; the tracked runs
    /// cover the records in order; shared stamps only with a single derived source and no
    /// tracked read; one stamp per registrar (pairwise, up to 64 stamps).
    @inline(never)
    func checkInvariants() {
      status.checkInvariants()
      precondition(hasValue == (status.version != 0), "DerivedNode: a value without a version")
      var end = 0
      for run in runs {
        precondition(run.range.lowerBound == end, "DerivedNode: tracked runs out of order")
        end = run.range.upperBound
      }
      precondition(end == records.count, "DerivedNode: records outside the tracked runs")
      precondition(
        !sharesStamps || (runs.isEmpty && derivedSources.count <= 1),
        "DerivedNode: shared stamps with more than one source")
      if stamps.count <= 64 {
        for first in stamps.indices {
          for second in stamps.indices where second > first {
            precondition(
              stamps[first].core !== stamps[second].core,
              "DerivedNode: two stamps of one registrar")
          }
        }
      }
    }
  #else
    /// Does nothing: the invariants are asserted when built with `-DARBOREAL_INTERNAL_CHECKS`.
    @inline(__always)
    func checkInvariants() {}
  #endif
}
