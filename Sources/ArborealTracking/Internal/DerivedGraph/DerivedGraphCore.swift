/// The new derived engine's graph (issue "A new derived engine"): a pure state machine over an
/// arena, which says what to do (which values to compute, which observers a write reached) and
/// never runs user code itself. It is built beside the current engine (`DerivedNode` and its
/// helpers); `Derived` runs on it when built with the internal switch `ARBOREAL_NEW_DERIVED`
/// (off by default), and the stop that turns the switch on deletes the old engine.
///
/// ## Data
/// Nodes and links are rows of arrays indexed by `Int32`: no object per node or link, no
/// reference counting, no `Set` or `Dictionary`, and a freed row is reused, so that a warm
/// graph allocates nothing per write or per recomputation.
/// - A **node** is a source (a tracked property, written from outside) or a computed value.
///   `flags` holds its kind and marks: `dirty` (a source it read changed: it must recompute),
///   `pending` (something upstream may have changed: check its sources first), `computing`
///   (its computation runs now: reading it is a cycle), `watched` (an observer depends on it:
///   a write that reaches it reports it), `published` (its caller published its clean value
///   for readers that take no lock). `version` goes up each time its value changes.
/// - A **link** says that `sub` read `dep` in its last computation, and `seen` is the version
///   of `dep` it read. A node's links to its sources (`firstDep`…, through `nextDep`/`prevDep`)
///   are in first-read order; a node's links from its dependents (`firstSub`, `lastSub`,
///   through `nextSub`/`prevSub`) in no particular order.
/// - While a node computes, `depCursor` is its last link confirmed by this computation (`-1`
///   before the first): reading the source the link after it names reuses that link in place;
///   reading another inserts a link there. When the computation ends, the links after the
///   cursor (sources no longer read) are purged.
/// - For a caller that computes outside its lock, on several threads at once (``DerivedGraph``):
///   `generation` goes up when a row is freed (a computation that began on a row knows at its
///   end whether the row still holds its node), `epoch` goes up at every write and removal
///   (a computation notes it when it begins), `committedAt` is the epoch at which the
///   computation whose result a node holds began, and `computingCount` how many computations
///   of it run now (kept by the caller). The caller records a computation's reads itself and
///   replays them at its end, under its lock (``beginCompute(_:)``, ``track(_:by:seen:)``,
///   ``endCompute(_:changed:)``, then ``staleness(of:)``).
/// - `unpublished`: the nodes whose `published` bit a mark (or ``unpublish(_:)``) took off,
///   for the caller to take their published values back before it lets go of its lock
///   (``DerivedGraph``, "Clean reads without the lock").
/// - `stack` and a ``Walk``'s frames are scratch space that the operations reuse: every walk
///   is a loop over them, never a recursion, so a chain of 100,000 values is walked like one
///   of two. `depEpoch` goes up whenever a node's dependency list gains or loses a link: a
///   walk's frame notes its node's generation and `depEpoch`, and checks them each time it is
///   on top again (the caller's lock may have been let go meanwhile). A frame whose node was
///   freed is dropped; one whose dependencies changed checks them again from the first. Only
///   that frame pays: another thread's change elsewhere costs the walk nothing (a walk that
///   started again from its root at each change cost O(depth) per step, which made a refresh
///   of a 100,000-deep chain quadratic while other threads computed).
///
/// ## Operations
/// - ``write(_:reached:)``: a source changed. Its version goes up; its direct dependents are marked
///   `dirty` and theirs, transitively, `pending`; the `watched` nodes reached for the first
///   time since their last refresh are returned, each once, for their observers to run.
/// - ``beginRefresh(_:)`` and ``nextStep()``: bring a node up to date. The steps return the
///   nodes to compute, innermost first (a source computed value before what reads it); the
///   caller computes each (``beginCompute(_:)``, ``track(_:by:)`` per read, ``endCompute(_:changed:)``)
///   and asks for the next step, until ``RefreshStep/done``. A `pending` node whose sources'
///   versions all equal what it saw is up to date without computing (equal-result cutoff).
/// - ``remove(_:)``: a node is disposed; its links go, and its row is reused.
/// - ``markStale(_:_:reached:)`` and ``markDependents(of:reached:)``: a computation that ended
///   found what it read moved, or its value changed while dependents were clean: they are
///   marked as a write would.
/// - ``settle(_:source:writes:)``: writes of a source came to nothing for a node (a
///   transaction set back what they wrote): the node's link takes the source's version, and
///   the node is clean again if nothing else moved (`lostSource`: a source of it was removed,
///   which only a computation settles).
///
/// ## Cost
/// Every operation reads and writes the columns: each is a buffer the core owns (``Column``),
/// written through its pointer, in a stored property marked `@exclusivity(unchecked)` (the
/// graph's lock, or its actor, is what excludes). Arrays cost a uniqueness check per write,
/// and a dynamic exclusivity check per access of a class's stored property; together they
/// doubled the core's cost when measured. Measured alone with a driver that adds integers
/// (release build, one core, CPU time): 31–36 ns per recomputed value on a chain of 1,000, on
/// 1,000 observed values of one source and on a diamond of 998 (65–83 with arrays;
/// alien-signals, whole values and observers included, 39–65 on this machine).
///
/// ## Invariants (checked by ``checkInvariants()`` under `ARBOREAL_INTERNAL_CHECKS`)
/// 1. Every link of a live node is in exactly two lists: its sub's dependency list and its
///    dep's dependent list; the lists are consistent both ways (`prev` of `next` is itself).
/// 2. No node is both free and linked; a free row has no links.
/// 3. A node's dependency list holds each source at most once outside a computation.
/// 4. Outside a refresh, a node is `computing` only while its computation runs, and no node
///    is both `dirty` and free. (``DerivedGraph`` sets `computing` only while it replays an
///    ended computation under its lock, and keeps its own count of running ones.)
/// 5. `watched` nodes reached by a write are reported once until refreshed (a reported node
///    is `dirty` or `pending`, and a second write that reaches it reports nothing).
/// 6. A node that lost a source (`lostSource`) is `dirty` until it computes.
/// 7. A walk (``nextStep(in:)``) computes a node at most once: a node whose `committedAt` is at
///    least the epoch the walk began at is up to date for it, even if marked again; a node it
///    passes over that way keeps its marks, and so does each node that read it.
/// 8. A `published` node is clean (neither `dirty`, `pending` nor `computing`): the mark that
///    makes it stale takes the bit off and lists it in `unpublished`, in the same operation.
final class DerivedGraphCore {
  /// A node's row in the arena.
  typealias Node = Int32
  /// A link's row in the arena.
  typealias Link = Int32
  /// No node, no link.
  static let none: Int32 = -1

  /// A node's kind and marks.
  struct Flags: OptionSet {
    let rawValue: UInt16
    static let computed = Flags(rawValue: 1 << 0)
    static let dirty = Flags(rawValue: 1 << 1)
    static let pending = Flags(rawValue: 1 << 2)
    static let computing = Flags(rawValue: 1 << 3)
    static let watched = Flags(rawValue: 1 << 4)
    static let free = Flags(rawValue: 1 << 5)
    /// Reported by a write since its last refresh.
    static let notified = Flags(rawValue: 1 << 6)
    /// A source it read was removed since its last computation (its link went with it): only
    /// computing clears its `dirty` mark (see ``settle(_:source:writes:)``).
    static let lostSource = Flags(rawValue: 1 << 7)
    /// Its caller published its value for reads that take no lock (``setPublished(_:)``):
    /// the first mark that reaches it takes the bit off and lists it in ``unpublished``.
    static let published = Flags(rawValue: 1 << 8)
  }

  // Nodes.
  @exclusivity(unchecked) private(set) var flags = Column<Flags>()
  @exclusivity(unchecked) private(set) var version = Column<UInt32>()
  @exclusivity(unchecked) private var firstDep = Column<Link>()
  @exclusivity(unchecked) private var lastDep = Column<Link>()
  @exclusivity(unchecked) private var depCursor = Column<Link>()
  @exclusivity(unchecked) private var firstSub = Column<Link>()
  @exclusivity(unchecked) private var lastSub = Column<Link>()
  @exclusivity(unchecked) private var freeNodes = Column<Node>()
  /// Goes up each time the row is freed: a computation that began on a row finds out, when it
  /// ends, whether the row still holds the same node.
  @exclusivity(unchecked) private(set) var generation = Column<UInt32>()
  /// The write epoch at which the computation whose result the node holds began (0: none
  /// yet). A computation that began earlier than this ends without storing anything.
  @exclusivity(unchecked) var committedAt = Column<UInt64>()
  /// How many computations of the node run now, on any thread (kept by the caller).
  @exclusivity(unchecked) var computingCount = Column<Int32>()

  // Links.
  @exclusivity(unchecked) private var dep = Column<Node>()
  @exclusivity(unchecked) private var sub = Column<Node>()
  @exclusivity(unchecked) private var seen = Column<UInt32>()
  @exclusivity(unchecked) private var nextDep = Column<Link>()
  @exclusivity(unchecked) private var prevDep = Column<Link>()
  @exclusivity(unchecked) private var nextSub = Column<Link>()
  @exclusivity(unchecked) private var prevSub = Column<Link>()
  /// The first free link; free links are chained through `nextDep`.
  @exclusivity(unchecked) private var freeLink: Link = none
  /// How many links are in use.
  @exclusivity(unchecked) private(set) var linkCount = 0
  /// Goes up at every write and removal: a computation notes it when it begins.
  @exclusivity(unchecked) private(set) var epoch: UInt64 = 1
  /// The nodes that lost their `published` bit (marked, or their value replaced) since the
  /// caller last emptied it: it takes their published value back before it lets others in.
  @exclusivity(unchecked) private(set) var unpublished = Column<Node>()
  /// Goes up whenever the node's dependency list gains or loses a link: a walk's frame checks
  /// it before trusting its place in that list (see ``Walk``).
  @exclusivity(unchecked) private var depEpoch = Column<UInt32>()

  // Scratch.
  @exclusivity(unchecked) private var stack = Column<Node>()
  /// The walk of ``beginRefresh(_:)`` and ``nextStep()`` (a caller with one thread); a caller
  /// whose refreshes run on several threads gives each thread a ``Walk`` of its own.
  private let ownWalk = Walk()

  /// An empty graph.
  init() {}

  deinit {
    flags.deallocate()
    version.deallocate()
    firstDep.deallocate()
    lastDep.deallocate()
    depCursor.deallocate()
    firstSub.deallocate()
    lastSub.deallocate()
    freeNodes.deallocate()
    generation.deallocate()
    committedAt.deallocate()
    computingCount.deallocate()
    depEpoch.deallocate()
    dep.deallocate()
    sub.deallocate()
    seen.deallocate()
    nextDep.deallocate()
    prevDep.deallocate()
    nextSub.deallocate()
    prevSub.deallocate()
    stack.deallocate()
    unpublished.deallocate()
  }

  /// How many nodes are live.
  var nodeCount: Int { flags.count - freeNodes.count }

  /// How many rows the arena has for nodes and for links: a warm graph's do not grow.
  var capacity: (nodes: Int, links: Int) { (flags.count, dep.count) }

  // MARK: Nodes

  /// Adds a source (a tracked property's place in the graph).
  func addSource() -> Node { addNode([]) }

  /// Adds a computed value, `dirty` until its first computation.
  func addComputed(watched: Bool = false) -> Node {
    addNode(watched ? [.computed, .dirty, .watched] : [.computed, .dirty])
  }

  private func addNode(_ initial: Flags) -> Node {
    if let node = freeNodes.popLast() {
      let index = Int(node)
      flags[index] = initial
      version[index] = 0
      committedAt[index] = 0
      computingCount[index] = 0
      return node
    }
    flags.append(initial)
    version.append(0)
    generation.append(0)
    committedAt.append(0)
    computingCount.append(0)
    depEpoch.append(0)
    firstDep.append(Self.none)
    lastDep.append(Self.none)
    depCursor.append(Self.none)
    firstSub.append(Self.none)
    lastSub.append(Self.none)
    return Node(flags.count - 1)
  }

  /// Marks a node watched (an observer depends on it) or not.
  func setWatched(_ node: Node, _ watched: Bool) {
    if watched {
      flags[Int(node)].insert(.watched)
    } else {
      flags[Int(node)].remove([.watched, .notified])
    }
  }

  /// Notes that the caller published the clean `node`'s value (see ``Flags/published``).
  func setPublished(_ node: Node) {
    flags[Int(node)].insert(.published)
  }

  /// Whether `node`'s value is published.
  func isPublished(_ node: Node) -> Bool { flags[Int(node)].contains(.published) }

  /// Takes `node`'s `published` bit off, listing it in ``unpublished`` if it had it: its
  /// value is about to change, or it is no longer clean.
  @inline(__always)
  func unpublish(_ node: Node) {
    let index = Int(node)
    guard flags[index].contains(.published) else { return }
    flags[index].remove(.published)
    unpublished.append(node)
  }

  /// Empties ``unpublished`` (the caller took those values back).
  func clearUnpublished() {
    unpublished.removeAll(keepingCapacity: true)
  }

  /// Disposes of a node: its links to its sources and from its dependents go (a dependent
  /// is marked `dirty`: what it read is gone), and its row is reused.
  func remove(_ node: Node) {
    let index = Int(node)
    var link = firstDep[index]
    while link != Self.none {
      let next = nextDep[Int(link)]
      unsubscribe(link)
      freeLinkRow(link)
      link = next
    }
    firstDep[index] = Self.none
    lastDep[index] = Self.none
    link = firstSub[index]
    while link != Self.none {
      let next = nextSub[Int(link)]
      let dependent = sub[Int(link)]
      detachFromDependent(link)
      unpublish(dependent)
      flags[Int(dependent)].insert([.dirty, .lostSource])
      freeLinkRow(link)
      link = next
    }
    firstSub[index] = Self.none
    lastSub[index] = Self.none
    flags[index] = .free
    generation[index] &+= 1
    committedAt[index] = 0
    computingCount[index] = 0
    epoch &+= 1
    freeNodes.append(node)
  }

  /// Whether `node` is live and still the row it was at `generation`.
  func isLive(_ node: Node, generation expected: UInt32) -> Bool {
    let index = Int(node)
    return !flags[index].contains(.free) && generation[index] == expected
  }

  /// Whether a node must be refreshed before its value is read.
  func isStale(_ node: Node) -> Bool {
    !flags[Int(node)].isDisjoint(with: [.dirty, .pending])
  }

  // MARK: Writing

  /// A source changed: marks what depends on it and returns the watched nodes reached for the
  /// first time since their last refresh (appended to `reached`, which the caller reuses).
  func write(_ source: Node, reached: inout [Node]) {
    version[Int(source)] &+= 1
    epoch &+= 1
    stack.removeAll(keepingCapacity: true)
    var link = firstSub[Int(source)]
    while link != Self.none {
      let node = sub[Int(link)]
      mark(node, .dirty, reached: &reached)
      link = nextSub[Int(link)]
    }
    passPendingOn(reached: &reached)
  }

  /// Marks the computed `node` itself `dirty` or `pending` (its last computation read
  /// something that moved meanwhile), and what depends on it `pending`, as a write would;
  /// reports the watched nodes reached for the first time (`node` included).
  func markStale(_ node: Node, _ how: Flags, reached: inout [Node]) {
    stack.removeAll(keepingCapacity: true)
    mark(node, how, reached: &reached)
    passPendingOn(reached: &reached)
  }

  /// Marks the clean dependents of `node` `dirty` (its value changed), and theirs `pending`.
  func markDependents(of node: Node, reached: inout [Node]) {
    stack.removeAll(keepingCapacity: true)
    var link = firstSub[Int(node)]
    while link != Self.none {
      let dependent = sub[Int(link)]
      if !isStale(dependent) { mark(dependent, .dirty, reached: &reached) }
      link = nextSub[Int(link)]
    }
    passPendingOn(reached: &reached)
  }

  /// Iteratively: the nodes on `stack`, whose marks went from clean to marked, pass `pending`
  /// on.
  private func passPendingOn(reached: inout [Node]) {
    while let node = stack.popLast() {
      var link = firstSub[Int(node)]
      while link != Self.none {
        mark(sub[Int(link)], .pending, reached: &reached)
        link = nextSub[Int(link)]
      }
    }
  }

  /// Marks `node` (`dirty` or `pending`); a node that was clean passes `pending` on (pushed on
  /// `stack`), and a watched one is reported once.
  private func mark(_ node: Node, _ mark: Flags, reached: inout [Node]) {
    let index = Int(node)
    let was = flags[index]
    flags[index].insert(mark)
    guard was.isDisjoint(with: [.dirty, .pending]) else { return }
    if was.contains(.published) {
      flags[index].remove(.published)
      unpublished.append(node)
    }
    stack.append(node)
    if was.contains(.watched), !was.contains(.notified) {
      flags[index].insert(.notified)
      reached.append(node)
    }
  }

  // MARK: Refreshing

  /// What to do next to bring a node up to date.
  enum RefreshStep: Equatable {
    /// Compute this node now (its sources are up to date), then ask again.
    case compute(Node)
    /// The node is up to date.
    case done
    /// Reading this node again while it computes: a cycle through it.
    case cycle(Node)
  }

  /// The frames of a thread's refreshes: a node being brought up to date, with its generation
  /// and `depEpoch` when the frame last looked at it, the link of its sources it checks now
  /// (`none` before the first), and whether a source it checked is still stale though
  /// computed for this refresh. Refreshes nest (a computation reads a value it never read
  /// before, which is refreshed then and there): each base holds where one began and the
  /// write epoch it began at.
  ///
  /// Used by one thread at a time (its owner's, or a stack hop's while the owner waits).
  final class Walk {
    struct Frame {
      var node: Node
      var generation: UInt32
      var deps: UInt32
      var link: Link
      var sawStale: Bool
    }
    struct Base {
      var frame: Int
      var epoch: UInt64
    }
    @exclusivity(unchecked) var frames = Column<Frame>()
    @exclusivity(unchecked) var bases = Column<Base>()

    init() {}

    deinit {
      frames.deallocate()
      bases.deallocate()
    }
  }

  /// Starts bringing `node` up to date; ask ``nextStep()`` what to do until it says
  /// ``RefreshStep/done`` or ``RefreshStep/cycle(_:)``. A refresh may begin while another one's
  /// computation runs (it nests).
  func beginRefresh(_ node: Node) {
    beginRefresh(node, in: ownWalk)
  }

  /// The next step of the refresh begun with ``beginRefresh(_:)``: each `.compute` is
  /// answered by computing that node (``beginCompute(_:)`` … ``endCompute(_:changed:)``).
  func nextStep() -> RefreshStep {
    nextStep(in: ownWalk)
  }

  /// ``beginRefresh(_:)`` with the frames in `walk`, for a caller that computes outside its
  /// lock: a node whose result was computed by a computation that began after the refresh did
  /// (``committedAt``) is up to date for it, even if a later write marked it again, so a
  /// refresh computes each node at most once, however busy the writers.
  func beginRefresh(_ node: Node, in walk: Walk) {
    walk.bases.append(Walk.Base(frame: walk.frames.count, epoch: epoch))
    walk.frames.append(frame(for: node))
  }

  /// A new frame for `node`, checking its sources from the first.
  private func frame(for node: Node) -> Walk.Frame {
    Walk.Frame(
      node: node, generation: generation[Int(node)], deps: depEpoch[Int(node)], link: Self.none,
      sawStale: false)
  }

  /// ``nextStep()`` over `walk`. Each frame is checked as it comes on top (the lock may have
  /// been let go since it was last there): a node freed meanwhile is dropped, and one whose
  /// dependencies changed checks them again from the first.
  func nextStep(in walk: Walk) -> RefreshStep {
    let base = walk.bases[walk.bases.count - 1]
    while walk.frames.count > base.frame {
      var frame = walk.frames[walk.frames.count - 1]
      let index = Int(frame.node)
      guard isLive(frame.node, generation: frame.generation) else {
        popFrame(walk)  // the frame below finds its dependencies changed (the link went)
        continue
      }
      if depEpoch[index] != frame.deps {
        frame = self.frame(for: frame.node)
        walk.frames[walk.frames.count - 1] = frame
      }
      let state = flags[index]
      if state.contains(.computing) { return abandonRefresh(walk, .cycle(frame.node)) }
      let settled = committedAt[index] >= base.epoch
      if state.contains(.dirty) {
        if settled {
          popFrame(walk)
          continue
        }
        return .compute(frame.node)
      }
      guard state.contains(.pending), !settled else {
        popFrame(walk)
        continue
      }
      // Pending: check its sources in the order they were read, from the one checked last.
      var link = frame.link == Self.none ? firstDep[index] : frame.link
      var descended = false
      var sawStale = frame.sawStale
      while link != Self.none {
        let source = dep[Int(link)]
        let sourceIndex = Int(source)
        let stale = isStale(source)
        if stale && committedAt[sourceIndex] < base.epoch {
          if flags[sourceIndex].contains(.computing) {
            return abandonRefresh(walk, .cycle(source))
          }
          walk.frames[walk.frames.count - 1].link = link
          walk.frames[walk.frames.count - 1].sawStale = sawStale
          walk.frames.append(self.frame(for: source))
          descended = true
          break
        }
        if version[sourceIndex] != seen[Int(link)] {
          // Dirty now, and not settled (checked above): computed next, without coming back.
          flags[index].insert(.dirty)
          return .compute(frame.node)
        }
        if stale { sawStale = true }
        link = nextDep[Int(link)]
      }
      if descended || flags[index].contains(.dirty) { continue }
      // Every source is as it saw it: up to date without computing (still `pending` if one of
      // them was marked again after this refresh computed it).
      if !sawStale { flags[index].remove([.pending, .notified]) }
      popFrame(walk)
    }
    walk.bases.removeLast()
    return .done
  }

  /// Drops the top frame (the frame below checks that node again, and notes if it is still
  /// marked).
  private func popFrame(_ walk: Walk) {
    walk.frames.removeLast()
  }

  /// Ends the innermost refresh early (a cycle), dropping its frames, and returns `step`.
  private func abandonRefresh(_ walk: Walk, _ step: RefreshStep) -> RefreshStep {
    let base = walk.bases.removeLast()
    walk.frames.truncate(to: base.frame)
    return step
  }

  // MARK: Computing

  /// Starts `node`'s computation: the reads that follow (``track(_:by:)``) reuse its links in
  /// order.
  func beginCompute(_ node: Node) {
    let index = Int(node)
    flags[index].insert(.computing)
    depCursor[index] = Self.none
  }

  /// Notes that the computing `node` read `source` (which is up to date): reuses the next
  /// link if it names `source`, else links them there. Returns false if `source` is
  /// computing (a cycle), linking nothing.
  @discardableResult
  func track(_ source: Node, by node: Node) -> Bool {
    if flags[Int(source)].contains(.computing) { return false }
    track(source, by: node, seen: version[Int(source)])
    return true
  }

  /// ``track(_:by:)`` for a computation that read `source` at version `seen` (it ran outside
  /// the caller's lock, and is recorded when it ends).
  func track(_ source: Node, by node: Node, seen read: UInt32) {
    let index = Int(node)
    let cursor = depCursor[index]
    let next = cursor == Self.none ? firstDep[index] : nextDep[Int(cursor)]
    if next != Self.none, dep[Int(next)] == source {
      seen[Int(next)] = read
      depCursor[index] = next
      return
    }
    // A source read twice in one computation keeps its first link.
    var earlier = cursor
    while earlier != Self.none {
      if dep[Int(earlier)] == source { return }
      earlier = prevDep[Int(earlier)]
    }
    let link = newLink(from: source, to: node)
    seen[Int(link)] = read
    depEpoch[index] &+= 1
    // Inserted after the cursor, before `next`.
    prevDep[Int(link)] = cursor
    nextDep[Int(link)] = next
    if cursor == Self.none { firstDep[index] = link } else { nextDep[Int(cursor)] = link }
    if next == Self.none { lastDep[index] = link } else { prevDep[Int(next)] = link }
    depCursor[index] = link
  }

  /// Ends `node`'s computation: the links after the cursor (sources it no longer read) go,
  /// its marks are cleared, and its version goes up if its value changed.
  func endCompute(_ node: Node, changed: Bool) {
    let index = Int(node)
    let cursor = depCursor[index]
    var link = cursor == Self.none ? firstDep[index] : nextDep[Int(cursor)]
    if link != Self.none { depEpoch[index] &+= 1 }
    while link != Self.none {
      let next = nextDep[Int(link)]
      unsubscribe(link)
      freeLinkRow(link)
      link = next
    }
    if cursor == Self.none {
      firstDep[index] = Self.none
    } else {
      nextDep[Int(cursor)] = Self.none
    }
    lastDep[index] = cursor
    depCursor[index] = Self.none
    flags[index].remove([.computing, .dirty, .pending, .notified, .lostSource])
    if changed { version[index] &+= 1 }
  }

  /// The last `writes` writes of `source` came to nothing for `node` (a transaction set the
  /// properties it stands for back, and `node`'s result was computed before them): if they
  /// are the only writes of `source` since `node` read it, `node`'s link sees its version
  /// now, and if nothing else moved or is marked (``staleness(of:)``) and no source of it went,
  /// `node` is clean again (its marks and report cleared, without computing). Returns whether
  /// it is. What the writes marked `pending` beyond `node` stays marked: a refresh finds it up
  /// to date without computing (`node`'s version did not move).
  @discardableResult
  func settle(_ node: Node, source: Node, writes: UInt32) -> Bool {
    let index = Int(node)
    guard flags[index].isDisjoint(with: [.computing, .lostSource, .free]) else { return false }
    var link = firstDep[index]
    while link != Self.none, dep[Int(link)] != source { link = nextDep[Int(link)] }
    guard link != Self.none, version[Int(source)] &- seen[Int(link)] == writes else {
      return false
    }
    seen[Int(link)] = version[Int(source)]
    guard staleness(of: node).isEmpty else { return false }
    flags[index].remove([.dirty, .pending, .notified])
    return true
  }

  /// Whether a computed node's last computation is still up to date: `.dirty` if a source's
  /// version is not the one it read, `.pending` if a source is marked, else empty.
  func staleness(of node: Node) -> Flags {
    var result: Flags = []
    var link = firstDep[Int(node)]
    while link != Self.none {
      let source = Int(dep[Int(link)])
      if version[source] != seen[Int(link)] { return .dirty }
      if !flags[source].isDisjoint(with: [.dirty, .pending]) { result = .pending }
      link = nextDep[Int(link)]
    }
    return result
  }

  // MARK: Links

  private func newLink(from source: Node, to node: Node) -> Link {
    let link: Link
    if freeLink != Self.none {
      link = freeLink
      freeLink = nextDep[Int(link)]
      dep[Int(link)] = source
      sub[Int(link)] = node
      seen[Int(link)] = version[Int(source)]
    } else {
      dep.append(source)
      sub.append(node)
      seen.append(version[Int(source)])
      nextDep.append(Self.none)
      prevDep.append(Self.none)
      nextSub.append(Self.none)
      prevSub.append(Self.none)
      link = Link(dep.count - 1)
    }
    linkCount += 1
    // Appended to the source's dependents.
    let source = Int(source)
    prevSub[Int(link)] = lastSub[source]
    nextSub[Int(link)] = Self.none
    if lastSub[source] == Self.none {
      firstSub[source] = link
    } else {
      nextSub[Int(lastSub[source])] = link
    }
    lastSub[source] = link
    return link
  }

  /// Takes a link out of its source's dependents.
  private func unsubscribe(_ link: Link) {
    let source = Int(dep[Int(link)])
    let previous = prevSub[Int(link)]
    let next = nextSub[Int(link)]
    if previous == Self.none { firstSub[source] = next } else { nextSub[Int(previous)] = next }
    if next == Self.none { lastSub[source] = previous } else { prevSub[Int(next)] = previous }
  }

  /// Takes a link out of its dependent's sources (the source is being removed).
  private func detachFromDependent(_ link: Link) {
    let node = Int(sub[Int(link)])
    depEpoch[node] &+= 1
    let previous = prevDep[Int(link)]
    let next = nextDep[Int(link)]
    if previous == Self.none { firstDep[node] = next } else { nextDep[Int(previous)] = next }
    if next == Self.none { lastDep[node] = previous } else { prevDep[Int(next)] = previous }
    if depCursor[node] == link { depCursor[node] = previous }
  }

  private func freeLinkRow(_ link: Link) {
    dep[Int(link)] = Self.none
    sub[Int(link)] = Self.none
    nextDep[Int(link)] = freeLink
    prevDep[Int(link)] = Self.none
    nextSub[Int(link)] = Self.none
    prevSub[Int(link)] = Self.none
    freeLink = link
    linkCount -= 1
  }

  // MARK: Reading the graph

  /// The sources `node` read in its last computation, in first-read order.
  func sources(of node: Node) -> [Node] {
    var result: [Node] = []
    var link = firstDep[Int(node)]
    while link != Self.none {
      result.append(dep[Int(link)])
      link = nextDep[Int(link)]
    }
    return result
  }

  /// The nodes that read `node` in their last computation.
  func dependents(of node: Node) -> [Node] {
    var result: [Node] = []
    var link = firstSub[Int(node)]
    while link != Self.none {
      result.append(sub[Int(link)])
      link = nextSub[Int(link)]
    }
    return result
  }

  /// Stops the program if an invariant of the type's doc comment does not hold; costs
  /// O(nodes + links). Tests call it; under `ARBOREAL_INTERNAL_CHECKS` the engine will too.
  func checkInvariants() {
    var linksSeen = 0
    for index in 0..<flags.count {
      let state = flags[index]
      if state.contains(.free) {
        precondition(
          firstDep[index] == Self.none && firstSub[index] == Self.none,
          "DerivedGraphCore: free node \(index) has links")
        continue
      }
      var link = firstDep[index]
      var previous = Self.none
      var sourcesRead: [Node] = []
      while link != Self.none {
        let row = Int(link)
        precondition(sub[row] == Int32(index), "DerivedGraphCore: link \(row) in the wrong list")
        precondition(prevDep[row] == previous, "DerivedGraphCore: dependency list broken")
        precondition(!flags[Int(dep[row])].contains(.free), "DerivedGraphCore: link to a free node")
        if !state.contains(.computing) {
          precondition(
            !sourcesRead.contains(dep[row]), "DerivedGraphCore: node \(index) reads twice")
        }
        sourcesRead.append(dep[row])
        // The link is in its source's dependents.
        var other = firstSub[Int(dep[row])]
        var found = false
        while other != Self.none {
          if other == link { found = true }
          other = nextSub[Int(other)]
        }
        precondition(found, "DerivedGraphCore: link \(row) missing from its source's dependents")
        linksSeen += 1
        previous = link
        link = nextDep[row]
      }
      precondition(lastDep[index] == previous, "DerivedGraphCore: lastDep of \(index) is wrong")
      if !state.contains(.computing) {
        precondition(depCursor[index] == Self.none, "DerivedGraphCore: cursor left set")
      }
      if state.contains(.notified) {
        precondition(
          !state.isDisjoint(with: [.dirty, .pending]), "DerivedGraphCore: notified but clean")
      }
      if state.contains(.lostSource) {
        precondition(state.contains(.dirty), "DerivedGraphCore: lost a source but not dirty")
      }
      if state.contains(.published) {
        precondition(
          state.isDisjoint(with: [.dirty, .pending, .computing]),
          "DerivedGraphCore: node \(index) published but not clean")
      }
    }
    precondition(linksSeen == linkCount, "DerivedGraphCore: \(linksSeen) links ≠ \(linkCount)")
  }
}

/// A column of the core's arena: a buffer the core owns (it deallocates it in its `deinit`),
/// grown by doubling. Its subscript writes through the pointer: no uniqueness check and no
/// exclusivity check per access, which arrays of a struct kept in a class cost on every
/// write. Indices are checked under `ARBOREAL_INTERNAL_CHECKS` only; the core only uses rows
/// it made.
///
/// Invariant: `base` holds `capacity` elements, the first `count` initialised. Not copied
/// outside its core (a copy would share the buffer).
struct Column<Element> {
  private var base: UnsafeMutablePointer<Element>
  private(set) var count = 0
  private var capacity = 8

  init() {
    base = .allocate(capacity: 8)
  }

  subscript(index: Int) -> Element {
    @inline(__always) get {
      #if ARBOREAL_INTERNAL_CHECKS
        precondition(index >= 0 && index < count, "Column: index \(index) out of 0..<\(count)")
      #endif
      return base[index]
    }
    @inline(__always) nonmutating set {
      #if ARBOREAL_INTERNAL_CHECKS
        precondition(index >= 0 && index < count, "Column: index \(index) out of 0..<\(count)")
      #endif
      base[index] = newValue
    }
  }

  /// The last element, if any.
  var last: Element? { count == 0 ? nil : base[count - 1] }

  mutating func append(_ element: Element) {
    if count == capacity { grow() }
    (base + count).initialize(to: element)
    count += 1
  }

  mutating func popLast() -> Element? {
    guard count > 0 else { return nil }
    count -= 1
    return (base + count).move()
  }

  @discardableResult
  mutating func removeLast() -> Element {
    count -= 1
    return (base + count).move()
  }

  /// Keeps the first `newCount` elements.
  mutating func truncate(to newCount: Int) {
    guard newCount < count else { return }
    (base + newCount).deinitialize(count: count - newCount)
    count = newCount
  }

  mutating func removeAll(keepingCapacity: Bool) {
    truncate(to: 0)
  }

  private mutating func grow() {
    let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
    larger.moveInitialize(from: base, count: count)
    base.deallocate()
    base = larger
    capacity *= 2
  }

  /// Frees the buffer; the column is not used afterwards.
  func deallocate() {
    base.deinitialize(count: count)
    base.deallocate()
  }
}
