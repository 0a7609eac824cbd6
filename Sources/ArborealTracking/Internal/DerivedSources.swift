import Synchronization

/// The reads one computation made of one registrar: a range of the value's `records`, kept
/// to tell later whether any of those properties changed since.
struct DerivedSourceRun {
  let core: RegistrarCore
  let range: Range<Int>

  /// Whether a property read here was written after the read. An entry that is gone counts as
  /// a change: the registrar only drops entries without observers, and the value's input link
  /// stays in each entry its last computation read, unless a newer computation relinked it.
  func hasChanged(in records: [AccessRecord]) -> Bool {
    let now = core.epoch.load(ordering: .sequentiallyConsistent)
    guard records[range].contains(where: { $0.epoch != now }) else { return false }
    return core.withState { state in
      records[range].contains { record in
        guard let index = state.index(of: record.id) else { return true }
        return state.entries[index].lastWrite > record.epoch
      }
    }
  }
}

/// Moves on every write recorded by a registrar that some derived value depends on (see
/// ``RegistrarCore/countWritesForDerivedValues()``): while it reads what it read at a value's
/// last check, none of its stamps can have moved.
let derivedInputClock = Atomic<UInt64>(0)

/// A registrar epoch seen by a computation: while every registrar a value depends on, directly
/// or through other derived values, still has the epoch it had, none of their properties was
/// written (the input links keep those properties' writes on the registrars' slow path,
/// where each write moves the epoch).
struct DerivedStamp {
  let core: RegistrarCore
  var epoch: UInt64
}

/// A derived value that depends on another, held strongly (see ``DerivedHandle``: a disposed
/// source reports no version, so it counts as changed). `serial` names the source for
/// comparisons (a serial is never reused).
struct DerivedSourceEdge {
  let node: DerivedNodeBase
  let serial: UInt64
  let version: UInt64
}

/// The derived values that read a value (see `DerivedNodeBase`, "dependents"): strong edges
/// in an array, named by serial, with an index by serial once there are many. A disposed
/// dependent removes its edge from every source that has one (it lists them, see
/// `DerivedNodeBase.State.linkedSources`); a walk also skips and drops disposed ones.
struct DerivedDependents {
  struct Edge {
    let serial: UInt64
    let node: DerivedNodeBase
  }

  private(set) var edges: [Edge] = []
  /// The position of each edge by serial; built once there are more than `scanLimit` edges,
  /// dropped when released edges are removed.
  private var index: [UInt64: Int] = [:]
  private static let scanLimit = 16

  var count: Int { edges.count }

  /// Adds an edge to `node` unless there is one.
  ///
  /// - Complexity: O(1) expected; a scan of at most `scanLimit` edges.
  /// - Returns: Whether the edge is new.
  mutating func add(_ node: DerivedNodeBase) -> Bool {
    let serial = node.serial
    if edges.count < Self.scanLimit {
      if edges.contains(where: { $0.serial == serial }) { return false }
    } else {
      if index.count != edges.count {
        index.removeAll(keepingCapacity: true)
        for position in edges.indices { index[edges[position].serial] = position }
      }
      guard index.updateValue(edges.count, forKey: serial) == nil else { return false }
    }
    edges.append(Edge(serial: serial, node: node))
    return true
  }

  /// The only dependent, when there is exactly one and it is live.
  var single: DerivedNodeBase? {
    guard edges.count == 1, !edges[0].node.isDisposed else { return nil }
    return edges[0].node
  }

  /// Appends the live dependents to `list`; removes the edges of disposed ones.
  mutating func appendLive(to list: inout [DerivedNodeBase]) {
    var disposed = false
    for edge in edges {
      if edge.node.isDisposed { disposed = true } else { list.append(edge.node) }
    }
    if disposed {
      edges.removeAll { $0.node.isDisposed }
      index.removeAll()
    }
  }

  /// Removes the edge to the value named `serial`, if there is one.
  ///
  /// - Complexity: O(*n*) for *n* edges.
  mutating func remove(serial: UInt64) {
    guard let position = edges.firstIndex(where: { $0.serial == serial }) else { return }
    edges.remove(at: position)
    index.removeAll()
  }

  /// Lets go of every edge.
  mutating func removeAll() {
    edges = []
    index = [:]
  }
}

/// The serials of derived values (see ``DerivedSourceEdge``).
let derivedSerials = Atomic<UInt64>(0)
/// The bases of the threads' computation identifiers (see ``DerivedContext/nextUseID()``).
let derivedUseBases = Atomic<UInt64>(0)
