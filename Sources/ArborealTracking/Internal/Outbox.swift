/// The deliveries to other isolations that one write or transaction makes, held while the
/// writing thread delivers it, then started as one job per isolation, in the order they were
/// made: a derived value's input link before the observers that read it, so that the value
/// is refreshed (and its change merged into theirs) before they run, as on the writing
/// thread.
///
/// Invariant: used only by its thread (it is a ``ThreadContext``'s); `depth` counts the
/// nested ``ThreadContext/delivering(_:)`` calls, and `works` is empty while it is 0.
struct Outbox {
  private(set) var depth = 0
  private var works: [(delivery: Delivery, work: @Sendable () -> Void)] = []

  var isOpen: Bool { depth > 0 }

  mutating func open() { depth += 1 }

  mutating func add(_ work: @escaping @Sendable () -> Void, for delivery: Delivery) {
    works.append((delivery, work))
  }

  /// Closes one level; at the outermost, takes the works, grouped by isolation in
  /// first-seen order.
  #if ARBOREAL_NEW_DERIVED
    /// How many works `addFirst(_:for:)` put at the front since the outbox last emptied.
    private var frontCount = 0

    /// Holds `work` for `delivery` ahead of the works added with `add(_:for:)`, after those
    /// added before with this: the new derived engine's refreshes of observed values in
    /// another isolation, which must precede the runs of their observers queued in the same
    /// notification loop.
    mutating func addFirst(_ work: @escaping @Sendable () -> Void, for delivery: Delivery) {
      works.insert((delivery, work), at: frontCount)
      frontCount += 1
    }
  #endif

  mutating func close() -> [(Delivery, [@Sendable () -> Void])] {
    depth -= 1
    guard depth == 0, !works.isEmpty else { return [] }
    var groups: [(Delivery, [@Sendable () -> Void])] = []
    for (delivery, work) in works {
      if let index = groups.firstIndex(where: { $0.0.isSameIsolation(as: delivery) }) {
        groups[index].1.append(work)
      } else {
        groups.append((delivery, [work]))
      }
    }
    works.removeAll()
    #if ARBOREAL_NEW_DERIVED
      frontCount = 0
    #endif
    return groups
  }
}
