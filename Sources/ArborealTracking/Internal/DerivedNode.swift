import Synchronization

/// One derived value: a cached result of a computation over tracked properties and other
/// derived values, the record of what it read, and its place in the graph of derived values.
///
/// ## Data (behind `lock`)
/// - `status`: the phase, version, generation and marks (``DerivedStatus``, a pure state
///   machine: read its invariants there).
/// - `runs` and `records`: the tracked properties the last computation read, by registrar;
///   `derivedSources`: the derived values it read, in first-read order, with the version it saw.
/// - `stamps`: the registrar epochs of everything it depends on, transitively.
/// - `dependents`: the derived values that read this one in some computation. An edge
///   is added by the first computation of a dependent that reads this value after one that did
///   not, and stays until the dependent is disposed, even once it no longer reads this value: a
///   stale edge only marks its dependent `check`, which its next refresh finds unchanged.
///   Never removing edges is what makes them safe without ordering the dependent's
///   computations: each of them adds the edges its predecessor had not, then compares every
///   source's version with the one it read (see `recompute`), so a change that lands before
///   an edge exists is caught by the computation that adds it.
/// - `inputLink`: an observer of the tracked properties the last computation read, made at
///   the first computation that reads one and kept for the value's life: it stays registered
///   across changes and is relinked after each computation, in place (``ObserverCore``,
///   "input links"), so that a computation that reads what the previous one read makes no
///   observer and no registration. It marks the value `check` (not `dirty`): a notification
///   may come from a write the computation already saw (one inside a transaction, read after
///   it), which the check tells apart by epochs.
///
/// A computation builds its record of sources in its thread's frame (``DerivedFrame``) and
/// swaps it with the node's when it stores its result; the frame takes the old record away
/// and, emptied, builds the next computation's in the same storage: a steady-state
/// recomputation allocates nothing for its record. Storing is a transition of `State` alone
/// (``State/store(_:duplicate:versionBefore:readsTracked:isDisposed:)``), which returns what
/// the node does next (``DerivedStoreOutput``); the node applies the value cache beside it,
/// under the same lock, and the rest (edges, marks, the input link's relink) after it.
///
/// The node is type-erased: the graph holds `DerivedNodeBase` references, and what needs the
/// value type (a recomputation copies, compares and stores values) goes through `kind`, the
/// metatype of ``DerivedNodeKindOf`` for that type.
///
/// ## Reading
/// A clean value whose stamps all still hold is returned from the cache: one lock and one
/// atomic load (``derivedInputClock``) when no registrar it depends on recorded a write since
/// its last check, else one atomic load per registrar it depends on. Otherwise the value
/// checks its sources (tracked properties by their registrars' records, derived values with
/// an explicit stack, ``refreshedVersion(of:adopt:)``, which recomputes those that changed)
/// and recomputes only if one of them
/// changed. The checks make reads glitch-free: a value read during a transaction, or while
/// other observers of the same write are being notified, sees every source as it is now,
/// never a mix.
///
/// ## Pushing
/// When the input link fires (after the write, or at the end of the transaction), the value
/// marks itself `check` and every derived value that depends on it, transitively, `check`.
/// The marked values that have observers of their own are then brought up to date, each
/// once, and notify their observers only if their result changed. Unobserved values stay
/// marked until they are read.
///
/// ## Locking
/// `lock` is held only for bookkeeping: never while the computation, an `==`, an observer or
/// another node's lock runs. A registrar's lock may be taken under it (to check the tracked
/// properties the value read): registrars take no other lock while they hold theirs. Two threads that read a dirty value at once may both compute
/// it; the later result is kept, and the input link ends up registered for the reads of the
/// latest stored computation (``linkedGeneration``).
///
/// Invariant (why `@unchecked Sendable` holds): the state (and a subclass's cache and owner)
/// is only accessed inside `withState`, under `lock`; `linkedGeneration` only under the input
/// link's lock; `publishedVersion` is atomic; the other stored properties are immutable. The
/// computation runs only in the value's isolation: a model's where the model is used (the
/// model is reached only there), a nonisolated one's closure is `Sendable`, and an
/// actor-isolated one's reads are checked to run on its actor, as are its pushed
/// recomputations (through `delivery`).
@usableFromInline
class DerivedNodeBase: @unchecked Sendable {
  typealias Phase = DerivedStatus.Phase

  struct State {
    var status = DerivedStatus()
    var runs: [DerivedSourceRun] = []
    var records: [AccessRecord] = []
    var derivedSources: [DerivedSourceEdge] = []
    var stamps: [DerivedStamp] = []
    /// Whether `stamps` is shared with a derived source (see ``DerivedFrame/sharesStamps``).
    var sharesStamps = false
    /// The ``derivedInputClock`` reading before the last check that found every stamp
    /// holding; `.max` when none did since the stamps last changed. While the clock still
    /// reads this, no registrar a derived value depends on recorded a write, so the stamps
    /// still hold without being looked at: a cached read is O(1), however many models the
    /// value depends on.
    var checkedAt = UInt64.max
    var dependents = DerivedDependents()
    /// The values whose `dependents` hold an edge to this one: every value a computation of
    /// it read, since edges stay (see "dependents"). Its disposal removes each edge: a stale
    /// edge would otherwise hold it, and through its closure the source's own handle, in a
    /// cycle.
    var linkedSources: [DerivedNodeBase] = []
    /// Whether a computation's result is cached (the subclass's storage is initialised).
    var hasValue = false
    var inputLink: ObserverCore?
    /// The key with its name and owner, once a change needed it.
    var namedKey: TrackingKey?

    var phase: Phase { status.phase }
    var version: UInt64 { status.version }
  }

  /// The registrar of the value's own key: its observers are the observers of the value.
  @usableFromInline let registrar = TrackingRegistrar()
  @usableFromInline let key: TrackingKey
  /// Where the input link runs, and so where pushed recomputations happen.
  let delivery: Delivery
  /// `version`, published for the read path's lock-free re-check; stored under the lock.
  @usableFromInline let publishedVersion = Atomic<UInt64>(0)
  private let lock = Lock()
  @exclusivity(unchecked) private var state = State()
  /// The generation whose reads the input link is registered for. Read and written only under
  /// the link's lock, in ``ObserverCore/relink(_:isCurrent:)``.
  @exclusivity(unchecked) final var linkedGeneration: UInt64 = 0
  /// How many computations of the value are running, on any thread: a value whose count is
  /// 0 is on no thread's stack of frames (see ``checkForCycle(_:)``). Relaxed: each thread
  /// reads its own increments in order, and only its own stack matters.
  fileprivate let computations = Atomic<Int>(0)
  /// Set once, by ``dispose()``: the node has left the graph and computes nothing again.
  private let disposed = Atomic<Bool>(false)
  /// Names the value in its dependents' edges (see ``DerivedSourceEdge``).
  final let serial = derivedSerials.wrappingAdd(1, ordering: .relaxed).newValue
  /// The ``DerivedFrame/useID`` of the computation that read the value last: a computation
  /// that reads it again records no second edge. Relaxed: a computation on another thread may
  /// overwrite it between two reads, which only records the edge twice (harmless).
  final let lastReader = Atomic<UInt64>(0)

  /// What the node's value type does (``DerivedNodeKind``): an existential metatype, two
  /// words and no allocation, through which the type-erased graph recomputes a node.
  private let kind: any DerivedNodeKind.Type

  /// File-private: only ``DerivedNode``, declared below, makes one, passing the kind of its
  /// value type.
  fileprivate init(name: String, delivery: Delivery, kind: any DerivedNodeKind.Type) {
    key = TrackingKey(name)
    self.delivery = delivery
    self.kind = kind
  }

  deinit {
    // Disposed first (the input link holds the node until then), unless the node never had a
    // handle: a node made and dropped without one.
    state.inputLink?.cancel()
  }

  /// Whether ``dispose()`` ran.
  final var isDisposed: Bool { disposed.load(ordering: .acquiring) }

  /// Disposes `node`, and the nodes whose last handle goes as a result, one after another:
  /// disposing a chain's last value releases its closure, which held the previous value's
  /// handle, whose release disposes that value, and so on. Done by nested calls, a chain of
  /// 100,000 values would overflow the stack; here a nested call only queues its node on the
  /// thread's context, and the outermost call disposes them in a loop.
  ///
  /// - Parameter node: The node, with a retain that this call releases.
  static func disposeIteratively(_ node: Unmanaged<DerivedNodeBase>) {
    let context = DerivedContext.current
    context.disposals.append(node)
    guard !context.isDisposing else { return }
    context.isDisposing = true
    // Each node's retain is released in its turn, which may queue more.
    while let next = context.disposals.popLast() { next.takeRetainedValue().dispose() }
    context.isDisposing = false
  }

  /// Takes the node out of the graph when the last ``Derived`` that holds it goes (see
  /// ``DerivedHandle``): it lets go of its dependents and sources, leaves its sources'
  /// dependents and cancels its input link. A disposed node computes nothing again: a
  /// dependent that still has an edge to it gets no version from ``refreshVersion()``, and so
  /// recomputes, without it. (A model's node may outlive its model there: its computation
  /// must not run again.)
  final func dispose() {
    // Set before the lock is taken: a computation that stores its result after the section
    // below sees it, and adds no input link or sources (see `recompute`).
    disposed.store(true, ordering: .releasing)
    let (linked, dependents, link) = withState {
      state -> ([DerivedNodeBase], DerivedDependents, ObserverCore?) in
      var dependents = DerivedDependents()
      swap(&dependents, &state.dependents)
      state.derivedSources = []
      var linked: [DerivedNodeBase] = []
      swap(&linked, &state.linkedSources)
      let link = state.inputLink
      state.inputLink = nil
      return (linked, dependents, link)
    }
    for source in linked { source.withState { $0.dependents.remove(serial: serial) } }
    // Each dependent lists this value among its linked sources: it lets go of it.
    for edge in dependents.edges {
      edge.node.withState { $0.linkedSources.removeAll { $0 === self } }
    }
    link?.cancel()
  }

  /// Runs `body` with exclusive access to the state. Subclasses keep their cache under the
  /// same lock, through this.
  @inline(__always)
  final func withState<R>(_ body: (inout State) -> R) -> R {
    lock.withLock(owner: UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())) {
      body(&state)
    }
  }

  /// Runs `body` under the lock when the value is clean and nothing it depends on was written
  /// since it was last checked, and returns its version; returns 0 (no version) otherwise.
  @usableFromInline
  final func withCleanState(_ body: () -> Void) -> UInt64 {
    withState { state in
      guard state.status.isClean, Self.stampsHold(&state) else { return 0 }
      body()
      return state.status.version
    }
  }

  /// Whether no registrar the value depends on recorded a write since the stamps were taken.
  /// O(1) while ``derivedInputClock`` has not moved since the last check that found them
  /// holding; otherwise one atomic load per registrar. Called under the lock.
  static func stampsHold(_ state: inout State) -> Bool {
    // Read before the stamps: a write that lands after this reading moves the clock past it,
    // so the next check looks at the stamps again.
    let now = derivedInputClock.load(ordering: .sequentiallyConsistent)
    if now == state.checkedAt { return true }
    for stamp in state.stamps
    where stamp.core.epoch.load(ordering: .sequentiallyConsistent) != stamp.epoch {
      return false
    }
    state.checkedAt = now
    return true
  }

  /// Whether a derived value is being computed on this thread (reads then record edges and
  /// look for cycles).
  @usableFromInline
  static var isComputingOnThisThread: Bool {
    guard let context = DerivedContext.currentIfPresent else { return false }
    return !context.frames.isEmpty
  }

  /// Brings the value up to date and returns its version; 0 for a disposed value. Checks
  /// iteratively (``refreshedVersion(of:adopt:)``).
  final func refreshVersion() -> UInt64 {
    guard !isDisposed else { return 0 }
    if let context = DerivedContext.currentIfPresent, !context.frames.isEmpty {
      checkForCycle(context)
    }
    return Self.refreshedVersion(of: self)
  }

  /// Stops with a message naming the values when this one is already being computed on this
  /// thread: it depends on itself.
  final func checkForCycle(_ context: DerivedContext) {
    // Not being computed anywhere: not on this thread's stack either, which is then not
    // scanned (a read during a deep nesting of computations would cost its depth).
    guard computations.load(ordering: .relaxed) > 0,
      let start = context.frames.firstIndex(where: { $0.node === self })
    else { return }
    let names = context.frames[start...].map(\.node.displayName) + [displayName]
    fatalError(
      "ArborealTracking: a derived value depends on itself: \(names.joined(separator: " → "))")
  }

  /// Runs the computation, stores its result and returns its version (through the node's
  /// kind, which knows its value type).
  final func recomputeVersion() -> UInt64 { kind.recomputeVersion(of: self) }

  // MARK: Overridden by DerivedNode

  /// The value's name, for the cycle message.
  var displayName: String { key.name }

  /// The model that owns the value, if any (for its name and owner in changes).
  var ownerObject: AnyObject? { nil }

  // MARK: Graph

  /// Records that a computation of `dependent` read this value (see "dependents"), and
  /// lists this value among the dependent's linked sources, so that its disposal removes the
  /// edge. A dependent disposed meanwhile (its flag is set before it takes its list) takes the
  /// edge back here.
  final func addDependent(_ dependent: DerivedNodeBase) {
    guard withState({ !isDisposed && $0.dependents.add(dependent) }) else { return }
    let disposed = dependent.withState { state -> Bool in
      guard !dependent.isDisposed else { return true }
      state.linkedSources.append(self)
      return false
    }
    if disposed { withState { $0.dependents.remove(serial: dependent.serial) } }
  }

  /// Whether an observer (not another derived value) depends on this value.
  final var isObserved: Bool {
    let core = registrar.core
    guard core.observedMask.load(ordering: .relaxed) & key.maskBit != 0 else { return false }
    return core.withState { state in
      guard let index = state.index(of: key.id) else { return false }
      return !state.entries[index].observers.isEmpty
    }
  }

  /// Called by the input link: a tracked property the value read may have changed. Marks the
  /// value and its dependents `check`, then brings the marked values that have observers up
  /// to date.
  final func inputsMayHaveChanged() {
    if withState({ $0.status.inputMayHaveChanged() }) { markDependents() }
  }

  /// A tracked property that computation `generation` read changed after the read (found when
  /// the computation relinked): marks the value `dirty` and its dependents `check`, then brings
  /// the marked values that have observers up to date.
  final func inputsChanged(generation: UInt64) {
    if withState({ $0.status.inputChanged(generation: generation) }) { markDependents() }
  }

  /// A derived value this one read may have changed before this one's edge from it existed:
  /// marks the value and its dependents `check`, then brings the marked values that have
  /// observers up to date.
  final func sourcesMayHaveChanged() {
    if withState({ $0.status.sourceMayHaveChanged() }) { markDependents() }
  }

  /// Marks every value that depends on this one, transitively, `check`, then brings the marked
  /// values that have observers (this one included) up to date.
  ///
  /// One lock trip per value: a value is marked and its dependents listed in the same
  /// critical section (``markListingDependents(_:into:single:)``). The walk is depth-first from this
  /// value, first dependent first; a value reached twice (a diamond) is marked, and so
  /// visited, once.
  fileprivate func markDependents() {
    let context = DerivedContext.current
    // The lists are taken out of the context while in use (a refresh below may mark again)
    // and given back emptied, with their storage, so that a warm graph allocates nothing.
    var visit: [DerivedNodeBase] = []
    var observed: [DerivedNodeBase] = []
    swap(&visit, &context.spareVisitList)
    swap(&observed, &context.spareObservedList)
    if isObserved { observed.append(self) }
    // The next value to mark is kept apart from the list, so that a chain (one dependent
    // each) moves nothing through it.
    var next = withState { state in Self.listDependents(&state, into: &visit) }
    Self.putFirstListedLast(&visit, from: 0, next: &next)
    while let node = next ?? visit.popLast() {
      next = nil
      let start = visit.count
      let marked = node.withState { state -> Bool in
        Self.markListingDependents(&state, into: &visit, single: &next)
      }
      guard marked else { continue }
      if node.isObserved { observed.append(node) }
      Self.putFirstListedLast(&visit, from: start, next: &next)
    }
    if !observed.isEmpty {
      // Inside a notification loop, the refreshes wait until it has marked the whole graph
      // (see `DerivedContext`, "Deferred refreshes").
      if context.batchDepth > 0 {
        for node in observed { context.pendingRefreshes.append(node) }
      } else {
        // Their changes reach each observer once (see `ThreadContext.delivering(_:)`).
        ThreadContext.current.delivering {
          for node in observed { node.refreshInItsIsolation() }
        }
      }
    }
    observed.removeAll(keepingCapacity: observed.capacity <= 4_096)
    if visit.capacity > 4_096 { visit = [] }
    if context.spareVisitList.capacity <= visit.capacity { swap(&visit, &context.spareVisitList) }
    if context.spareObservedList.capacity <= observed.capacity {
      swap(&observed, &context.spareObservedList)
    }
  }

  /// Marks a value `check` and lists its live dependents: the only one in `single` (a chain),
  /// several appended to `visit`. Returns false, listing nothing, when it was already marked.
  /// Called under the value's lock.
  private static func markListingDependents(
    _ state: inout State, into visit: inout [DerivedNodeBase], single: inout DerivedNodeBase?
  ) -> Bool {
    guard state.status.sourceMayHaveChanged() else { return false }
    single = listDependents(&state, into: &visit)
    return true
  }

  /// The only live dependent, or nil after appending several to `visit`. Called under the
  /// value's lock.
  private static func listDependents(
    _ state: inout State, into visit: inout [DerivedNodeBase]
  ) -> DerivedNodeBase? {
    if let single = state.dependents.single { return single }
    state.dependents.appendLive(to: &visit)
    return nil
  }

  /// Makes the first of the values listed from `start` the next to visit and leaves the others
  /// to be visited last first, so that the walk stays depth-first in the graph's order.
  private static func putFirstListedLast(
    _ visit: inout [DerivedNodeBase], from start: Int, next: inout DerivedNodeBase?
  ) {
    let count = visit.count &- start
    guard next == nil, count > 0 else { return }
    if count > 1 {
      // Rotates the first to the end, moving the others down: no reference counting.
      visit.withUnsafeMutableBufferPointer { buffer in
        let first = buffer.baseAddress.unsafelyUnwrapped + start
        let moved = first.move()
        first.moveInitialize(from: first + 1, count: count &- 1)
        (first + (count &- 1)).initialize(to: moved)
      }
    }
    next = visit.removeLast()
  }

  /// Brings the value up to date in its isolation: at once when the caller is there (no
  /// closure to allocate), otherwise later, there.
  final func refreshInItsIsolation() {
    if delivery.isImmediate {
      _ = refreshVersion()
    } else {
      delivery.perform { _ = self.refreshVersion() }
    }
  }

  /// Tells the value's observers that it changed. Derived values are not state: the change is
  /// kept out of change recordings (store logs, `TestStore`).
  final func reportChange() {
    // Nobody observes the value (another derived value reads it through an edge, not its
    // registrar), and no change recording runs: nothing to name or tell.
    guard registrar.core.mayBeObserved(key) else { return }
    let key = withState { $0.namedKey } ?? nameKey()
    registrar.core.didChangeUnlogged(key)
  }

  /// The key named after the model's property and qualified by the model, when there is one.
  private func nameKey() -> TrackingKey {
    var named = key
    if let owner = ownerObject, let registrar = (owner as? any Trackable)?.registrar {
      named = registrar.core.named(key.id, of: owner)
    }
    withState { $0.namedKey = named }
    return named
  }
}

/// What a type-erased node needs from its value type: the recomputation, which copies,
/// compares and stores values of that type. Implemented once, by ``DerivedNodeKindOf``: a node
/// holds the metatype (see ``DerivedNodeBase``), so that edges hold plain `DerivedNodeBase`
/// references and no method of the base is abstract.
protocol DerivedNodeKind {
  /// Recomputes `node`, which is a ``DerivedNode`` of this kind's value type.
  static func recomputeVersion(of node: DerivedNodeBase) -> UInt64
}

/// The kind of the nodes whose value type is `Value`.
enum DerivedNodeKindOf<Value>: DerivedNodeKind {
  static func recomputeVersion(of node: DerivedNodeBase) -> UInt64 {
    // A node holds the kind of its own value type (see `DerivedNode.init`).
    unsafeDowncast(node, to: DerivedNode<Value>.self).recomputeDroppingValue()
  }
}

/// A derived value of type `Value` (see ``DerivedNodeBase``).
@usableFromInline
final class DerivedNode<Value>: DerivedNodeBase, @unchecked Sendable {
  /// The free-standing computation, or nil for a model's value.
  private let compute: (() -> Value)?
  /// A model's computation, given the model.
  private let modelCompute: ((AnyObject) -> Value)?
  private let isDuplicate: ((Value, Value) -> Bool)?
  /// The model owning the value: set at its first read, never released before the node (the
  /// model stores the node), so unowned.
  @exclusivity(unchecked) private unowned(unsafe) var owner: AnyObject?
  /// The cached value: allocated with the node, initialised while `hasCached`; read and
  /// written under the lock. Not a `Value?`: the slow paths are not specialised, and every
  /// `Value?` there looks up `Optional<Value>`'s metadata in the runtime's cache (several
  /// per recomputation); values move through this storage and uninitialised temporaries
  /// instead.
  @usableFromInline let storage: UnsafeMutablePointer<Value>
  @usableFromInline @exclusivity(unchecked) var hasCached = false
  private let name: String
  /// Whether the computation is isolated to an actor, so that every read must happen there.
  @usableFromInline let checksIsolation: Bool

  init(
    name: String, delivery: Delivery, compute: @escaping () -> Value,
    isDuplicate: ((Value, Value) -> Bool)?
  ) {
    self.compute = compute
    self.modelCompute = nil
    self.isDuplicate = isDuplicate
    self.name = name
    if case .synchronous = delivery {
      checksIsolation = false
    } else {
      checksIsolation = true
    }
    storage = .allocate(capacity: 1)
    super.init(name: name, delivery: delivery, kind: DerivedNodeKindOf<Value>.self)
  }

  /// A model's value, computed where the model is used (`.synchronous`), or on the actor its
  /// closure is isolated to (a main-actor model's).
  init(
    modelCompute: @escaping (AnyObject) -> Value, isDuplicate: ((Value, Value) -> Bool)?,
    delivery: Delivery = .synchronous
  ) {
    self.compute = nil
    self.modelCompute = modelCompute
    self.isDuplicate = isDuplicate
    self.name = ""
    if case .synchronous = delivery {
      checksIsolation = false
    } else {
      checksIsolation = true
    }
    storage = .allocate(capacity: 1)
    super.init(name: "", delivery: delivery, kind: DerivedNodeKindOf<Value>.self)
  }

  deinit {
    if hasCached { storage.deinitialize(count: 1) }
    storage.deallocate()
  }

  override var displayName: String {
    guard let owner = withState({ _ in self.owner }) else {
      return name.isEmpty ? "derived#\(key.id)" : name
    }
    let type = String(describing: type(of: owner))
    return "\(type).\(PropertyNames.name(of: key.id, in: owner) ?? "derived#\(key.id)")"
  }

  override var ownerObject: AnyObject? { withState { _ in owner } }

  /// Runs the computation, stores its result and returns its version, dropping the value
  /// (the graph's recomputation: its readers copy the value from the cache).
  fileprivate func recomputeDroppingValue() -> UInt64 {
    withTemporary { previous in recompute(into: nil, previous: previous) }
  }

  /// Runs `body` with uninitialised storage for one value; `body` leaves it uninitialised.
  @inline(__always)
  private func withTemporary<R>(_ body: (UnsafeMutablePointer<Value>) -> R) -> R {
    withUnsafeTemporaryAllocation(of: Value.self, capacity: 1) { buffer in
      body(buffer.baseAddress.unsafelyUnwrapped)
    }
  }

  // MARK: Reading

  /// The value for a reader, up to date; the read is recorded as a dependency of the running
  /// computation, or of the running tracking scope.
  ///
  /// - Parameter owner: The model, when read through its property.
  @inlinable
  func read(owner: AnyObject?) -> Value {
    // Inlined and specialised in the caller: a cached value costs one lock and a load per
    // registrar it depends on, with no generic code in the way.
    // A computation runs inside a tracking scope, which the activity word counts: while no
    // scope runs anywhere, none runs on this thread, and its context need not be looked up.
    let mayBeComputing =
      registrar.core.activity.readsTakeSlowPath && DerivedNodeBase.isComputingOnThisThread
    if _fastPath(!checksIsolation && !mayBeComputing) {
      var value: Value?
      let version = withCleanState { if hasCached { value = storage.pointee } }
      if version != 0, let value {
        registrar.access(key)
        if publishedVersion.load(ordering: .acquiring) == version { return value }
      }
    }
    // The temporary is made here, where `Value` is known: made in the unspecialised slow path,
    // the runtime would look up the metadata of the `Result` that carries it out on every
    // read.
    return withUnsafeTemporaryAllocation(of: Value.self, capacity: 1) { buffer in
      let value = buffer.baseAddress.unsafelyUnwrapped
      readSlow(owner: owner, into: value)
      return value.move()
    }
  }

  /// ``read(owner:)`` when the cache cannot answer at once: initialises `value`.
  @usableFromInline
  func readSlow(owner: AnyObject?, into value: UnsafeMutablePointer<Value>) {
    if checksIsolation { delivery.preconditionIsolated(displayName) }
    // Unmanaged: the thread keeps its context alive.
    if let thread = ThreadContext.unmanagedCurrent,
      thread._withUnsafeGuaranteedRef({ !$0.derived.frames.isEmpty })
    {
      readInsideComputation(owner: owner, thread, into: value)
      return
    }
    recordRead(of: upToDate(owner: owner, into: value), owner: owner, into: value)
  }

  /// Records the read of `version`, just put in `value`, with the value's registrar, and reads
  /// again if a change landed between the check and the access: that change reached no
  /// registration of this reader. Later ones are caught by the registration.
  private func recordRead(
    of version: UInt64, owner: AnyObject?, into value: UnsafeMutablePointer<Value>
  ) {
    registrar.access(key)
    if publishedVersion.load(ordering: .acquiring) != version {
      value.deinitialize(count: 1)
      _ = current(owner: owner, into: value)
    }
  }

  /// A read while derived values are being computed on this thread: checks for a cycle, and
  /// records an edge when the reader is the innermost computation itself. Initialises
  /// `value`.
  ///
  /// The first read by a computation of a value that is up to date copies the value and
  /// records the edge with the value's stamps in one critical section
  /// (``DerivedFrame/record(_:version:in:)``); a value that must be brought up to date first
  /// is recorded under its lock again afterwards.
  private func readInsideComputation(
    owner: AnyObject?, _ thread: Unmanaged<ThreadContext>, into value: UnsafeMutablePointer<Value>
  ) {
    thread._withUnsafeGuaranteedRef { checkForCycle($0.derived) }
    guard let frame = thread._withUnsafeGuaranteedRef({ DerivedContext.readingFrame($0) }) else {
      recordRead(of: upToDate(owner: owner, into: value), owner: owner, into: value)
      return
    }
    // Read before by the same computation: its edge is recorded.
    if lastReader.load(ordering: .relaxed) == frame.useID {
      _ = upToDate(owner: owner, into: value)
      return
    }
    // Relaxed: a computation on another thread may overwrite it between two reads, which only
    // records the edge twice (harmless).
    lastReader.store(frame.useID, ordering: .relaxed)
    let cached = withState { state -> Bool in
      guard state.status.isClean, hasCached, Self.stampsHold(&state) else { return false }
      value.initialize(to: storage.pointee)
      frame.record(self, version: state.status.version, in: state)
      return true
    }
    if cached { return }
    let version = upToDate(owner: owner, into: value)
    withState { state in frame.record(self, version: version, in: state) }
  }

  // The methods below initialise the uninitialised storage `value` with the value and return
  // its version (never 0 once computed), rather than returning a `(Value, UInt64)` tuple or
  // filling a `Value?`: this class is generic and its methods are not specialised, and each
  // tuple or optional that involves `Value` is looked up in the runtime's metadata caches on
  // every call.

  /// Puts the value, recomputed first if a source changed, in `value` and returns its version.
  private func current(owner: AnyObject?, into value: UnsafeMutablePointer<Value>) -> UInt64 {
    if let context = DerivedContext.currentIfPresent, !context.frames.isEmpty {
      checkForCycle(context)
    }
    return upToDate(owner: owner, into: value)
  }

  /// Puts the value, from the cache or refreshed, in `value` and returns its version.
  @inline(__always)
  private func upToDate(owner: AnyObject?, into value: UnsafeMutablePointer<Value>) -> UInt64 {
    let version = cachedIfValid(into: value)
    return version != 0 ? version : refresh(owner: owner, into: value)
  }

  /// Puts the cached value in `value` and returns its version when the value is clean and
  /// nothing it depends on was written since it was last checked (one lock, and one atomic
  /// load per registrar); returns 0 otherwise, with `value` left uninitialised.
  private func cachedIfValid(into value: UnsafeMutablePointer<Value>) -> UInt64 {
    withState { state -> UInt64 in
      guard state.status.isClean, hasCached, Self.stampsHold(&state) else { return 0 }
      value.initialize(to: storage.pointee)
      return state.status.version
    }
  }

  /// The slow path of a read: checks the sources, each brought up to date iteratively, then
  /// recomputes if one changed. Puts the value in `value` and returns its version.
  ///
  /// The tracked properties are checked under the value's lock (a registrar's lock is always
  /// the innermost one taken, so holding this one meanwhile cannot deadlock), without copying
  /// the record; the derived sources outside it, since checking one may compute it.
  ///
  /// The computation runs after the check is gone: a copy of the record's source list held
  /// across it would make its storage shared, and emptying it for reuse would copy it.
  private func refresh(owner: AnyObject?, into value: UnsafeMutablePointer<Value>) -> UInt64 {
    let version = checkedVersion(owner: owner, into: value)
    return version != 0 ? version : recompute(into: value)
  }

  /// The check of ``refresh(owner:into:)``: puts the cached value in `value` and returns its
  /// version when the value is up to date or its sources have not moved; returns 0 otherwise,
  /// with `value` left uninitialised.
  @inline(never)
  private func checkedVersion(owner: AnyObject?, into value: UnsafeMutablePointer<Value>) -> UInt64
  {
    switch beginCheck({ if self.owner == nil, let owner { self.owner = owner } }) {
    case .upToDate:
      return cachedIfValid(into: value)
    case .mustRecompute:
      return 0
    case .check(let check):
      for source in check.sources where source.node.refreshVersion() != source.version {
        return 0
      }
      return finishCheck(check) { value.initialize(to: storage.pointee) }
    }
  }

  // MARK: Computing

  /// Runs the computation, records what it read, and replaces the cache. Puts the new value
  /// in `result` and returns its version.
  private func recompute(into result: UnsafeMutablePointer<Value>) -> UInt64 {
    withTemporary { previous in recompute(into: result, previous: previous) }
  }

  /// ``recompute(into:)`` with uninitialised storage for the previous value, which it leaves
  /// uninitialised; without `result`, the value stays in the cache only.
  private func recompute(
    into result: UnsafeMutablePointer<Value>?, previous: UnsafeMutablePointer<Value>
  ) -> UInt64 {
    var hadPrevious = false
    var versionBefore: UInt64 = 0
    var owner: AnyObject?
    withState { state in
      if hasCached {
        previous.initialize(to: storage.pointee)
        hadPrevious = true
      }
      versionBefore = state.status.version
      owner = self.owner
    }
    // Unmanaged: the thread keeps its context alive, and a managed reference would cost a
    // retain and a release for each use.
    let thread = ThreadContext.unmanagedCurrentOrNew
    let frame = thread._withUnsafeGuaranteedRef { thread in
      let frame = thread.derived.takeFrame(for: self)
      thread.derived.frames.append(frame)
      return frame
    }
    computations.wrappingAdd(1, ordering: .relaxed)
    let (value, scope) = AccessScope.run(
      mergingIntoParent: false, on: thread
    ) { () -> Value in
      frame.scope = thread._withUnsafeGuaranteedRef { $0.scope?.toOpaque() }
      if let compute = self.compute { return compute() }
      guard let owner, let modelCompute = self.modelCompute else {
        fatalError("ArborealTracking: a model's derived value was read before its model")
      }
      return modelCompute(owner)
    }
    _ = thread._withUnsafeGuaranteedRef { $0.derived.frames.removeLast() }
    computations.wrappingSubtract(1, ordering: .relaxed)
    frame.recordTracked(of: scope)

    // Compared outside the lock: `==` is user code.
    let same = hadPrevious && (isDuplicate?(previous.pointee, value) ?? false)
    let first = !hadPrevious
    // The copy goes now; the slot then takes the value the cache lets go of.
    if hadPrevious { previous.deinitialize(count: 1) }
    var released = false
    let readsTracked = !scope.runs.isEmpty
    let (stored, link) = withState { state -> (DerivedStoreOutput, ObserverCore?) in
      // A node disposed meanwhile keeps no sources and gets no input link (see `dispose()`).
      let stored = state.store(
        frame, duplicate: same, versionBefore: versionBefore, readsTracked: readsTracked,
        isDisposed: isDisposed)
      if let published = stored.published {
        publishedVersion.store(published, ordering: .releasing)
      }
      if hasCached {
        previous.moveInitialize(from: storage, count: 1)
        released = true
      }
      storage.initialize(to: value)
      hasCached = true
      if stored.needsInputLink { state.inputLink = makeInputLink() }
      return (stored, state.inputLink)
    }
    let (generation, version, moved) = (stored.generation, stored.version, stored.moved)
    // The old value goes outside the lock (a deinit is user code).
    if released { previous.deinitialize(count: 1) }

    if let link {
      let changed = link.relink(scope) {
        guard generation > linkedGeneration else { return false }
        linkedGeneration = generation
        return true
      }
      scope.recycle()
      // A tracked property changed between the computation's read and the relink.
      if !changed.isEmpty { inputsChanged(generation: generation) }
    } else {
      // No input link: nothing read a tracked property, or the node was disposed meanwhile;
      // then the reads' hold on their registrars' observed bits goes here.
      if readsTracked { scope.discard() }
      scope.recycle()
    }
    // Edges from the sources this computation reads and the one it replaced did not (the
    // frame now holds the replaced record; see "dependents").
    if let newSources = stored.newSources { frame.addEdges(from: newSources, to: self) }
    if moved {
      markDependents()
    } else if let newSources = stored.newSources, DerivedNodeBase.sourceMoved(newSources) {
      // A source that changed after it was read and before its edge existed pushed nothing
      // here: caught now. Every source, including those whose edge an earlier computation
      // adds: it may not have added it yet.
      sourcesMayHaveChanged()
    }
    thread._withUnsafeGuaranteedRef { $0.derived.giveBack(frame) }
    if !same && !first { reportChange() }
    result?.initialize(to: value)
    return version
  }

  /// The input link: an observer that marks this value when a tracked property it read
  /// changes, delivered in the value's isolation. It holds the node (a weak reference would
  /// give the node a side table, see ``DerivedHandle``) until ``dispose()`` cancels it.
  private func makeInputLink() -> ObserverCore {
    ObserverCore(
      kind: .input, delivery: delivery,
      callback: UncheckedCallback(
        readsNames: false, unchecked: { [self] _ in self.inputsMayHaveChanged() }),
      origin: nil)
  }
}
