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

/// A derived value that depends on another, by a weak reference: a dependent never keeps its
/// source alive (a released source simply counts as changed). `serial` names the source for
/// comparisons without loading the weak reference (an address may be reused by a new value
/// once the old one is released; a serial never is).
struct DerivedSourceEdge {
  weak var node: DerivedNodeBase?
  let serial: UInt64
  let version: UInt64
}

/// The derived values that read a value (see `DerivedNodeBase`, "dependents"): weak edges in
/// an array, named by serial (no weak reference is loaded to find one), with an index by
/// serial once there are many.
struct DerivedDependents {
  struct Edge {
    let serial: UInt64
    weak var node: DerivedNodeBase?
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
  mutating func add(_ node: DerivedNodeBase) {
    let serial = node.serial
    if edges.count < Self.scanLimit {
      if edges.contains(where: { $0.serial == serial }) { return }
    } else {
      if index.count != edges.count {
        index.removeAll(keepingCapacity: true)
        for position in edges.indices { index[edges[position].serial] = position }
      }
      guard index.updateValue(edges.count, forKey: serial) == nil else { return }
    }
    edges.append(Edge(serial: serial, node: node))
  }

  /// The live dependents; removes the edges of released ones.
  mutating func live() -> SmallList<DerivedNodeBase> {
    var live = SmallList<DerivedNodeBase>()
    var released = false
    for edge in edges {
      if let node = edge.node { live.append(node) } else { released = true }
    }
    if released {
      edges.removeAll { $0.node == nil }
      index.removeAll()
    }
    return live
  }
}

/// The serials of derived values (see ``DerivedSourceEdge``) and of their computations'
/// frames (see ``DerivedFrame/useID``).
let derivedSerials = Atomic<UInt64>(0)
