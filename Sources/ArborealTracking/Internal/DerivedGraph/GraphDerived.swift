#if ARBOREAL_NEW_DERIVED
  import Synchronization

  /// The public ``Derived`` on the new engine (issue "A new derived engine", stop 4), built
  /// with `-Xswiftc -DARBOREAL_NEW_DERIVED`: each derived value is a computed row of one
  /// process-wide ``DerivedGraph`` (``DerivedGraph/shared``), with the same public behaviour
  /// as the current engine's `DerivedNode`.
  ///
  /// ## Rows
  /// A value owns two rows of the graph, added when it is made and removed when its last
  /// ``Derived`` goes (``GraphDerivedHandle``):
  /// - its **computed row**, which the values that read it link to (the graph's own links:
  ///   cursor reuse, versions, dirty and pending marks, cutoff on an equal result);
  /// - its **input row**, a source that stands for the tracked properties its last
  ///   computation read. Every computation reads it first (so the computed row always links
  ///   to it), and runs inside a tracking scope (``AccessScope``) that records its reads of
  ///   `@Tracked` properties. After the computation, the value's **input link** (an
  ///   ``ObserverCore`` of kind `.input`, delivered synchronously on the writing thread) is
  ///   relinked in place to exactly those properties: a write of one of them marks the input
  ///   row, which marks the computed row `dirty` and everything that read it `pending`. The
  ///   computation runs outside the graph's lock; the relink happens as it ends
  ///   (``DerivedGraph/commit(_:_:)``, under the lock), and only for a result the graph
  ///   stores: a computation that a later one superseded, or whose value was disposed
  ///   meanwhile, lets go of its scope's reads instead. A property written between the
  ///   computation's read and the relink is reported by the relink, and the commit marks the
  ///   input row then. The input row is freed with the computed row, in the same trip under
  ///   the lock as the link is taken out (so a computation that ends afterwards makes no
  ///   link); a notification already under way finds the row gone
  ///   (``DerivedGraph/markSource(_:holding:)`` checks that the row still holds this value's
  ///   input node).
  ///
  /// ## Writes, transactions and observers
  /// A write marks at once, also inside a transaction (the registrar hands the input links
  /// their notification at the write rather than at the transaction's end), so a read inside
  /// the transaction, on this thread or another, recomputes what the write made stale.
  /// Inside a transaction the thread notes each mark with the property written
  /// (``DerivedContext/noteMark(input:node:computed:)``); as the transaction ends, a value
  /// whose marks all came from properties that ended as they began, whose result was stored
  /// before the transaction opened (``DerivedGraph/storedResults``) and whose input row no
  /// one else wrote since is clean again without computing (``DerivedGraph/settle(_:since:)``):
  /// setting an input back recomputes nothing. Refreshing the observed values and telling
  /// their observers waits for the end of the thread's notification loop or transaction
  /// (``DerivedContext.graphReached``): then each observed value is refreshed once, and
  /// reports a change if its version moved (once per transaction). A value is observed
  /// through its own registrar and key, as before: a read outside any computation records
  /// the key in the thread's tracking scope, and a read inside one (a computation of the
  /// graph runs on this thread) only links the rows. A read inside a tracking scope marks the
  /// computed row watched; a flush unwatches a row whose key no observer holds any more.
  ///
  /// ## Stack hops
  /// A first read of a long chain nests one computation per value; every
  /// ``DerivedGraph/stackHop`` levels the graph moves the next ones to a thread with a fresh
  /// stack while the reader waits. Nothing thread-local needs to travel with them: each
  /// computation opens its own tracking scope on the thread it runs on (and consumes it
  /// there), a read inside a computation links through the reader's `GraphThread` (which the
  /// hop works on while the reader waits), and the outer reader records the value's key in its
  /// own scope on its own thread once the graph returns. What does not travel is the
  /// thread's identity: a value isolated to an actor (the main actor) is computed on the hop
  /// while its thread waits, so the read's isolation check is skipped there
  /// (``GraphThread/hopDepth``); a computation that checks its isolation itself
  /// (`MainActor.assumeIsolated`) would still fail 256 values deep in a first read.
  ///
  /// ## Clean reads without the lock
  /// A value that is plain data of at most two words (``isPublishable``) is published by the
  /// graph while it is clean (``DerivedGraph``, "Clean reads without the lock"): its bits in
  /// `publishedLow` and `publishedHigh`, under `publishedStamp`. ``read(owner:)``, inlined
  /// where `Value` is known, returns them with three or four loads and no call when no
  /// tracking scope runs anywhere and the value needs no isolation check; while a scope runs
  /// on some thread, it looks the thread up first (``GraphNode/readPublishedHere(_:)``): a
  /// read on a thread with no scope and no computation of its own still takes no lock, nor
  /// does a read inside a computation of the graph on this thread (noted for its commit).
  /// Otherwise it takes the graph's path (``readLocked(owner:into:)``).
  ///
  /// Invariant (why `@unchecked Sendable` holds): `owner`, the value's slot, `inputLink` and
  /// `namedKey` are read and written only under the graph's lock; the published words and
  /// stamp are atomics, stored under the graph's lock and loaded without it; the other stored
  /// properties are immutable. The computation runs outside the graph's lock, in the value's
  /// isolation: a model's where the model is used, a nonisolated one's closure is `Sendable`,
  /// and an actor-isolated one's reads are checked to run on its actor, and its refreshes
  /// after a write happen there (``refreshesHere``).
  @usableFromInline
  final class GraphDerivedNode<Value>: GraphNode, @unchecked Sendable {
    /// The registrar of the value's own key: its observers are the observers of the value.
    let registrar = TrackingRegistrar()
    /// The registrar's activity (what says whether a tracking scope runs anywhere), reached in
    /// one load by a read without the lock. The registrar holds it.
    @usableFromInline unowned(unsafe) let activity: TrackingActivity
    /// The key observers depend on.
    let key: TrackingKey
    /// Where the value is computed: checked on read, and where a refresh after a write runs.
    let delivery: Delivery
    /// Whether reads must happen in `delivery`'s isolation.
    @usableFromInline let checksIsolation: Bool
    private let graph: DerivedGraph
    private let compute: (() -> Value)?
    private let modelCompute: ((AnyObject) -> Value)?
    private let isDuplicate: ((Value, Value) -> Bool)?
    private let name: String
    /// The input row's storage: a source that holds no value.
    private let input = GraphInputNode()
    /// The computed row and the input row (set in `init`, before the value is shared).
    private(set) var row: DerivedGraphCore.Node = DerivedGraphCore.none
    private var storedInputRow = DerivedGraphCore.none
    /// The model owning the value, set at its first read under the graph's lock (the model
    /// stores the value, so never released before it).
    @exclusivity(unchecked) private unowned(unsafe) var owner: AnyObject?
    @exclusivity(unchecked) private var inputLink: ObserverCore?
    @exclusivity(unchecked) private var namedKey: TrackingKey?
    /// The value of the last computation, initialised while `hasValue`.
    /// At least two words long, zeroed when allocated: ``publish()`` copies two words out of it
    /// without the value's witnesses (the bits after a shorter value stay zero).
    private let slot = GraphDerivedNode.allocateSlot()
    @exclusivity(unchecked) private var hasValue = false

    /// Whether a value of this type is published for reads without the lock: plain data (its
    /// copy is its bits, and retains nothing) that fits in two words. Folded where `Value` is
    /// known.
    @inlinable static var isPublishable: Bool {
      _isPOD(Value.self) && MemoryLayout<Value>.size <= 2 * MemoryLayout<UInt>.size
        && MemoryLayout<Value>.alignment <= MemoryLayout<UInt>.alignment
    }

    /// Whether the value takes two words.
    @inlinable static var usesHighWord: Bool {
      MemoryLayout<Value>.size > MemoryLayout<UInt>.size
    }

    /// Whether `Value` is plain data (its copy is its bits, its deinitialisation nothing):
    /// a replaced value then needs no temporary to go after the lock. Found once, in `init`.
    private let isPlainData = _isPOD(Value.self)

    /// Set once, by ``dispose()``.
    private let disposed = Atomic<Bool>(false)

    /// Whether ``dispose()`` ran.
    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    /// A free-standing value, or (with `modelCompute`) a model's.
    init(
      name: String, delivery: Delivery, compute: (() -> Value)?,
      modelCompute: ((AnyObject) -> Value)?, isDuplicate: ((Value, Value) -> Bool)?
    ) {
      self.name = name
      activity = registrar.core.activity
      key = TrackingKey(name)
      self.delivery = delivery
      if case .synchronous = delivery {
        checksIsolation = false
      } else {
        checksIsolation = true
      }
      self.compute = compute
      self.modelCompute = modelCompute
      self.isDuplicate = isDuplicate
      graph = .shared
      super.init(publishes: Self.isPublishable)
      row = graph.add(self, computed: true)
      storedInputRow = graph.add(input, computed: false)
    }

    override var inputRow: DerivedGraphCore.Node { storedInputRow }

    deinit {
      if hasValue { slot.deinitialize(count: 1) }
      UnsafeMutableRawPointer(slot).deallocate()
    }

    /// A slot for one value, at least two words long and word-aligned, zeroed.
    private static func allocateSlot() -> UnsafeMutablePointer<Value> {
      let bytes = max(MemoryLayout<Value>.size, 2 * MemoryLayout<UInt>.size)
      let raw = UnsafeMutableRawPointer.allocate(
        byteCount: bytes,
        alignment: max(MemoryLayout<Value>.alignment, MemoryLayout<UInt>.alignment))
      raw.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
      return raw.bindMemory(to: Value.self, capacity: 1)
    }

    /// Takes the value out of the graph (its last ``Derived`` went): cancels the input link
    /// and frees both rows. A dependent that still links to it is marked dirty by the graph,
    /// and recomputes without it.
    override func dispose() {
      disposed.store(true, ordering: .releasing)
      // In one trip: a computation that ends afterwards finds the rows gone and makes no link.
      let link = graph.remove(inputRow, row) { () -> ObserverCore? in
        defer { inputLink = nil }
        return inputLink
      }
      link?.cancel()
    }

    // MARK: Reading

    /// The value for a reader, up to date. Inside a computation the read links the rows;
    /// elsewhere it is recorded (the value's key) in the thread's tracking scope, if any.
    ///
    /// - Parameter owner: The model, when read through its property.
    @inlinable
    func read(owner: AnyObject?) -> Value {
      // Inlined and specialised where `Value` is known: a published clean value costs its loads
      // (see "Clean reads without the lock"); a computation runs in a tracking scope, which
      // the activity word counts, so a read inside one takes the second tier, which notes it.
      if Self.isPublishable, _fastPath(!checksIsolation) {
        if _fastPath(!activity.readsTakeSlowPath) {
          let stamp = publishedStamp.load(ordering: .acquiring)
          if stamp != 0 {
            var words = (
              publishedLow.load(ordering: .acquiring),
              Self.usesHighWord ? publishedHigh.load(ordering: .acquiring) : 0
            )
            if publishedStamp.load(ordering: .relaxed) == stamp {
              return withUnsafeBytes(of: &words) { $0.load(as: Value.self) }
            }
          }
        } else {
          // A scope runs somewhere (a computation is one): the thread decides, and a read
          // inside a computation is noted for it without the lock.
          var words: (UInt, UInt) = (0, 0)
          if readPublishedHere(&words) {
            return withUnsafeBytes(of: &words) { $0.load(as: Value.self) }
          }
        }
      }
      // The temporary is made here, where `Value` is known.
      return withUnsafeTemporaryAllocation(of: Value.self, capacity: 1) { buffer in
        let value = buffer.baseAddress.unsafelyUnwrapped
        readLocked(owner: owner, into: value)
        return value.move()
      }
    }

    /// Under the graph: ``read(owner:)`` when the value is not published (or must be linked,
    /// watched or checked); initialises `value`.
    @usableFromInline
    func readLocked(owner: AnyObject?, into value: UnsafeMutablePointer<Value>) {
      // The thread's state is looked up once, and used without counting references.
      GraphThread.unmanagedCurrent(in: graph)._withUnsafeGuaranteedRef { thread in
        let inside = !thread.computations.isEmpty
        // On a stack hop the thread is not the value's, but the value's thread waits for it
        // (see "Stack hops"): the check would be wrong there.
        if checksIsolation && !(inside && thread.hopDepth > 0) {
          delivery.preconditionIsolated(displayName)
        }
        // Recorded before the value is read: a change after the read finds the key's bit set
        // (see `isObserved`), and one in between only notifies once more.
        var watch = false
        if !inside {
          registrar.access(key)
          watch =
            ThreadContext.unmanagedCurrent?._withUnsafeGuaranteedRef { $0.scope != nil } ?? false
        }
        graph.read(
          row, holding: self, watch: watch, thread: thread,
          before: {
            if self.owner == nil, let owner { self.owner = owner }
          },
          {
            precondition(hasValue, "ArborealTracking: a derived value read before it was computed")
            value.initialize(to: slot.pointee)
          })
      }
    }

    /// Under the graph's lock: publishes the stored value's bits, then a new stamp (see
    /// "Clean reads without the lock").
    override func publish() {
      precondition(publishes && hasValue, "ArborealTracking: nothing to publish")
      // The value is plain data: its bits are its copy (see `allocateSlot`).
      let raw = UnsafeRawPointer(slot)
      publishedLow.store(raw.load(as: UInt.self), ordering: .releasing)
      publishedHigh.store(
        raw.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self), ordering: .releasing)
      publishCount &+= 1
      publishedStamp.store(publishCount, ordering: .releasing)
    }

    // MARK: Computing (outside the graph's lock)

    override func recompute(in graph: DerivedGraph, thread: GraphThread) {
      let owner = modelCompute == nil ? nil : graph.withLock { self.owner }
      let (value, scope) = AccessScope.run(mergingIntoParent: false) { () -> Value in
        if let compute = self.compute { return compute() }
        guard let owner, let modelCompute = self.modelCompute else {
          fatalError("ArborealTracking: a model's derived value was read before its model")
        }
        return modelCompute(owner)
      }
      guard !isPlainData else {
        graph.commit(thread) { outcome -> (changed: Bool, inputsMoved: Bool) in
          let inputsMoved = follow(scope, if: outcome)
          if case .superseded = outcome { return (false, false) }
          return (storePlainData(value), inputsMoved)
        }
        scope.recycle()
        return
      }
      withUnsafeTemporaryAllocation(of: Value.self, capacity: 1) { replaced in
        var didReplace = false
        graph.commit(thread) { outcome -> (changed: Bool, inputsMoved: Bool) in
          let inputsMoved = follow(scope, if: outcome)
          if case .superseded = outcome { return (false, false) }
          guard hasValue else {
            slot.initialize(to: value)
            hasValue = true
            return (true, inputsMoved)
          }
          if let isDuplicate, isDuplicate(slot.pointee, value) { return (false, inputsMoved) }
          // The replaced value goes after the lock (its deinit may do anything).
          replaced.baseAddress.unsafelyUnwrapped.moveInitialize(from: slot, count: 1)
          slot.initialize(to: value)
          didReplace = true
          return (true, inputsMoved)
        }
        if didReplace { replaced.baseAddress.unsafelyUnwrapped.deinitialize(count: 1) }
      }
      scope.recycle()
    }

    /// Under the graph's lock, for a value that is plain data: stores `value` unless the
    /// stored one is a duplicate, and returns whether it did. The replaced value needs no
    /// deinitialisation (after the lock or anywhere), so no temporary holds it.
    private func storePlainData(_ value: Value) -> Bool {
      guard hasValue else {
        slot.initialize(to: value)
        hasValue = true
        return true
      }
      if let isDuplicate, isDuplicate(slot.pointee, value) { return false }
      slot.pointee = value
      return true
    }

    /// Under the graph's lock, as a computation ends: relinks the input link to what `scope`
    /// read when the result is stored (the latest stored result's reads are what its link
    /// follows), else lets go of the scope's reads. Returns whether a property it read
    /// changed before the relink.
    private func follow(_ scope: AccessScope, if outcome: DerivedGraph.CommitOutcome) -> Bool {
      guard case .stored = outcome else {
        scope.discard()
        return false
      }
      if inputLink == nil, !scope.runs.isEmpty { inputLink = makeInputLink() }
      guard let inputLink else {
        scope.discard()
        return false
      }
      return !inputLink.relink(scope, isCurrent: { true }).isEmpty
    }

    /// The input link: marks the input row when a tracked property the last computation read
    /// changes, on the writing thread. It holds the input node and the graph, not this value.
    private func makeInputLink() -> ObserverCore {
      let (graph, input, inputRow, row) = (graph, input, inputRow, row)
      return ObserverCore(
        kind: .input, delivery: .synchronous,
        callback: UncheckedCallback(
          readsNames: false,
          unchecked: { _ in
            // The thread keeps its context alive: reached without counting references.
            ThreadContext.unmanagedCurrentOrNew._withUnsafeGuaranteedRef { context in
              let marked = graph.markSource(
                inputRow, holding: input, reached: &context.derived.graphReached)
              if marked, context.isInTransaction {
                context.derived.noteMark(input: inputRow, node: input, computed: row)
              }
              if !context.isInTransaction && context.derived.batchDepth == 0 {
                context.derived.flushGraphIfPending()
              }
            }
          }),
        origin: nil)
    }

    // MARK: Observers

    override var isObserved: Bool { registrar.core.mayBeObserved(key) }

    override var refreshesHere: Bool { delivery.isImmediate }

    override func notify(in graph: DerivedGraph, row: DerivedGraphCore.Node, since: UInt32?) {
      guard let since else {
        reportChange()
        return
      }
      let refresh: @Sendable () -> Void = {
        if let version = graph.refreshedVersion(row, holding: self), version != since {
          self.reportChange()
        }
      }
      // Ahead of the observers' runs queued in the same delivery: they then see the change.
      if let context = ThreadContext.currentIfPresent, context.outbox.isOpen,
        !delivery.isImmediate
      {
        context.outbox.addFirst(refresh, for: delivery)
      } else {
        delivery.perform(refresh)
      }
    }

    /// Tells the value's observers that it changed. Derived values are not state: the change
    /// is kept out of change recordings (store logs, `TestStore`).
    private func reportChange() {
      guard registrar.core.mayBeObserved(key) else { return }
      let named = graph.withLock { namedKey } ?? nameKey()
      registrar.core.didChangeUnlogged(named)
    }

    /// The key named after the model's property and qualified by the model, when there is one.
    private func nameKey() -> TrackingKey {
      var named = key
      let owner = graph.withLock { self.owner }
      if let owner, let registrar = (owner as? any Trackable)?.registrar {
        named = registrar.core.named(key.id, of: owner)
      }
      graph.withLock { namedKey = named }
      return named
    }

    override var displayName: String {
      guard let owner else { return name.isEmpty ? "derived#\(key.id)" : name }
      let type = String(describing: type(of: owner))
      return "\(type).\(PropertyNames.name(of: key.id, in: owner) ?? "derived#\(key.id)")"
    }
  }

  /// A derived value's input row's storage: a source with no value (its version is what
  /// moves). See ``GraphDerivedNode``, "Rows".
  final class GraphInputNode: GraphNode, @unchecked Sendable {
    // Invariant (why `@unchecked Sendable` holds): it has no state of its own beyond
    // `GraphNode`'s, which only the graph touches, under its lock.
  }

  /// The owner of a derived value on the new engine on behalf of the ``Derived`` values that
  /// share it: when the last goes, the value leaves the graph.
  ///
  /// Disposal is iterative: a chain's last value holds, through its closure, the previous
  /// value's handle, so releasing one would release the next inside it, 100,000 deep. The
  /// handle holds its value by a retain taken in `init`; its `deinit` queues the value on the
  /// thread's context, and the outermost disposal on the thread disposes and releases the
  /// queued values in a loop (a release inside it only queues more).
  ///
  /// Invariant (why `@unchecked Sendable` holds): `node` is immutable, and a value is
  /// thread-safe.
  @usableFromInline
  final class GraphDerivedHandle<Value>: @unchecked Sendable {
    /// Held by the retain taken in `init` and handed over in `deinit`.
    @usableFromInline unowned(unsafe) let node: GraphDerivedNode<Value>

    init(_ node: GraphDerivedNode<Value>) {
      self.node = node
      _ = Unmanaged.passRetained(node)
    }

    deinit {
      let context = DerivedContext.current
      context.graphDisposals.append(Unmanaged<GraphNode>.passUnretained(node))
      guard !context.isDisposingGraph else { return }
      context.isDisposingGraph = true
      while let next = context.graphDisposals.popLast() {
        let node = next.takeRetainedValue()
        node.dispose()
      }
      context.isDisposingGraph = false
    }
  }

  extension DerivedGraph {
    /// The graph of every derived value on the new engine (one lock for all of them, as the
    /// issue allows).
    static let shared = DerivedGraph()
  }
#endif
