/// The identity of one started effect in an ``EffectTable``. Never reused.
struct EffectID: Hashable, Sendable {
  let rawValue: UInt64
}

/// The identity of one group in an ``EffectTable``: what one sent action started. Never
/// reused.
struct GroupID: Hashable, Sendable {
  let rawValue: UInt64
}

/// The bookkeeping of a store's running effects and of the send handles that wait for them.
///
/// A pure state machine: no tasks, no locks, no actor. The store owns one, mutates it on the
/// main actor, and performs what each mutation returns (an ``Output``: task handles to cancel,
/// waiters to resume) after the mutation is complete. Tests drive it directly with plain
/// values for `Handle` and `Waiter`.
///
/// ## Data
/// - `effects`: every effect that has started and has neither finished nor been cancelled,
///   with its group, its cancellation identifiers and its task handle (attached right after
///   the task is created).
/// - `groups`: every open group. A group gathers what one `send` started: the effects its
///   update returned and, transitively, the effects of the actions those effects delivered.
///   Its `pending` count is the number of *holds* on it (an action of the group that is queued
///   or being handled) plus the number of its effects in `effects`. Waiters are the send
///   handles awaiting the group.
/// - `byCancelID`: for each cancellation identifier, the effects tagged with it, oldest first
///   (`Members`). An effect that ends stays in the lists of its other identifiers as a stale
///   entry, skipped, until stale entries are half a list, which is then compacted: ending one
///   of *n* effects that share an identifier (the type-wide membership of a collection's
///   rows) is O(1) amortised, where removing it from the list was O(*n*), and removing every
///   row O(*n*²).
///
/// ## Invariants
/// 1. A group is in `groups` exactly while its `pending` count is above zero; the mutation
///    that brings it to zero removes it and returns its waiters to be resumed.
/// 2. `pending(g)` = holds on `g` + the number of effects in `effects` whose group is `g`.
/// 3. The live entries of `byCancelID[c]` (those in `effects`) are exactly the effects tagged
///    with `c`, each once, oldest first; `stale` counts the others; no list is without a live
///    entry.
/// 4. An effect that is not in `effects` has finished or was cancelled: the store drops any
///    action it still delivers.
/// 5. A cancelled group starts no more effects.
/// 6. Identifiers come from one counter and are never reused, so a stale identifier can never
///    name a newer effect or group.
///
/// Built with `-DARBOREAL_INTERNAL_CHECKS` (the sanitizer steps of `.ci/run`), every mutation
/// ends with ``checkInvariants()``, which asserts 1 to 3 in O(*n* + *g*).
struct EffectTable<Handle, Waiter> {
  /// What the owner must do after a mutation: cancel these tasks, resume these waiters.
  struct Output {
    var cancel: [Handle] = []
    var resume: [Waiter] = []

    /// Whether there is nothing to do.
    var isEmpty: Bool { cancel.isEmpty && resume.isEmpty }
  }

  struct Running {
    let group: GroupID
    let cancelIDs: [CancelID]
    var handle: Handle?
  }

  struct Group {
    var pending: Int
    var isCancelled = false
    var waiters: [Waiter] = []
  }

  private(set) var effects: [EffectID: Running] = [:]
  private(set) var groups: [GroupID: Group] = [:]
  private var byCancelID: [CancelID: Members] = [:]

  /// The effects tagged with one identifier, oldest first, with those that ended since left in
  /// place until they are half the list (see `byCancelID`).
  private struct Members {
    var list: [EffectID]
    /// How many entries of `list` ended.
    var stale = 0
  }
  private var nextID: UInt64 = 1

  private mutating func makeID() -> UInt64 {
    defer { nextID &+= 1 }
    return nextID
  }

  // MARK: Groups

  /// Opens a group with one hold, owned by the caller.
  mutating func openGroup() -> GroupID {
    defer { checkInvariants() }
    let group = GroupID(rawValue: makeID())
    groups[group] = Group(pending: 1)
    return group
  }

  /// Adds a hold on an open group; balance it with ``release(_:)``.
  ///
  /// - Returns: False when the group is closed (nothing was held).
  @discardableResult
  mutating func retain(_ group: GroupID) -> Bool {
    defer { checkInvariants() }
    guard groups[group] != nil else { return false }
    groups[group]!.pending += 1
    return true
  }

  /// Runs a mutation that fills an `Output`, then checks the invariants: the frame of every
  /// public mutation that only delegates.
  private mutating func producing(_ mutation: (inout Self, inout Output) -> Void) -> Output {
    defer { checkInvariants() }
    var output = Output()
    mutation(&self, &output)
    return output
  }

  /// Gives back a hold; the group closes when nothing else keeps it open.
  mutating func release(_ group: GroupID) -> Output {
    producing { $0.decrement(group, into: &$1) }
  }

  /// Whether the group still has something queued, being handled or running.
  func isOpen(_ group: GroupID) -> Bool { groups[group] != nil }

  /// Registers a waiter to resume when the group closes.
  ///
  /// - Returns: False when the group is already closed (the caller resumes the waiter).
  mutating func addWaiter(_ waiter: Waiter, to group: GroupID) -> Bool {
    defer { checkInvariants() }
    guard groups[group] != nil else { return false }
    groups[group]!.waiters.append(waiter)
    return true
  }

  // MARK: Effects

  /// Starts an effect in `group`, tagged with `cancelIDs`.
  ///
  /// The caller must hold `group` (see ``retain(_:)``). Effects to cancel in flight are
  /// cancelled before, with ``cancel(_:)``: the store does it once per `Fx`, so that effects
  /// merged into one `Fx` under the same identifier do not cancel each other.
  ///
  /// - Returns: The new effect's identifier, or nil when the group was cancelled (start
  ///   nothing).
  /// - Complexity: O(*i*) for *i* identifiers.
  mutating func start(in group: GroupID, cancelIDs: [CancelID]) -> EffectID? {
    defer { checkInvariants() }
    guard let state = groups[group], !state.isCancelled else { return nil }
    let effect = EffectID(rawValue: makeID())
    effects[effect] = Running(group: group, cancelIDs: cancelIDs, handle: nil)
    groups[group]!.pending += 1
    for id in cancelIDs { byCancelID[id, default: Members(list: [])].list.append(effect) }
    return effect
  }

  /// Stores the task handle of a started effect.
  ///
  /// - Returns: The handle when the effect is no longer running (the caller cancels it).
  mutating func attach(_ handle: Handle, to effect: EffectID) -> Handle? {
    defer { checkInvariants() }
    guard effects[effect] != nil else { return handle }
    effects[effect]!.handle = handle
    return nil
  }

  /// The running effects tagged with `id`, oldest first.
  ///
  /// - Complexity: O(*n*) for *n* effects tagged with `id` (a queue's few, in practice).
  func running(_ id: CancelID) -> [EffectID] {
    guard let members = byCancelID[id] else { return [] }
    return members.stale == 0 ? members.list : members.list.filter { effects[$0] != nil }
  }

  /// Cancels one running effect.
  mutating func cancel(effect: EffectID) -> Output {
    producing { $0.remove(effect, cancelling: true, into: &$1) }
  }

  /// How many entries the list of `id` keeps, ended ones included; for this package's tests.
  func listedCount(_ id: CancelID) -> Int { byCancelID[id]?.list.count ?? 0 }

  /// Whether an effect tagged with `id` is running.
  func isRunning(_ id: CancelID) -> Bool { byCancelID[id] != nil }

  /// The group of a running effect, or nil when it finished or was cancelled (drop what it
  /// delivers).
  func group(ofRunning effect: EffectID) -> GroupID? { effects[effect]?.group }

  /// Records that an effect's task has ended. Does nothing for a cancelled effect.
  mutating func finish(_ effect: EffectID) -> Output {
    producing { $0.remove(effect, cancelling: false, into: &$1) }
  }

  /// Cancels every running effect tagged with `id`.
  ///
  /// - Complexity: O(*k* × *i*) for *k* effects cancelled, each tagged with *i* identifiers.
  mutating func cancel(_ id: CancelID) -> Output {
    producing { $0.cancel(id, into: &$1) }
  }

  /// Cancels a group: its running effects now, and any effect it would start later.
  ///
  /// - Complexity: O(*n*) for *n* running effects.
  mutating func cancel(group: GroupID) -> Output {
    defer { checkInvariants() }
    var output = Output()
    guard groups[group] != nil else { return output }
    groups[group]!.isCancelled = true
    let members = effects.filter { $0.value.group == group }.keys.sorted {
      $0.rawValue < $1.rawValue
    }
    for effect in members { remove(effect, cancelling: true, into: &output) }
    return output
  }

  /// Cancels everything and closes every group: for the store's release.
  ///
  /// - Complexity: O(*n* + *g*) for *n* effects and *g* groups.
  mutating func removeAll() -> Output {
    defer { checkInvariants() }
    var output = Output()
    for running in effects.values {
      if let handle = running.handle { output.cancel.append(handle) }
    }
    for group in groups.values { output.resume.append(contentsOf: group.waiters) }
    effects = [:]
    groups = [:]
    byCancelID = [:]
    return output
  }

  // MARK: Helpers

  #if ARBOREAL_INTERNAL_CHECKS
    /// Asserts invariants 1 to 3 when built with `-DARBOREAL_INTERNAL_CHECKS`; does nothing
    /// otherwise.
    ///
    /// - Complexity: O(*n* × *i* + *g*) for *n* effects with *i* identifiers and *g* groups.
    @inline(never)
    func checkInvariants() {
      var members: [GroupID: Int] = [:]
      // As sets, so that the check is O(n) however many effects share an identifier (the
      // type-wide membership of a thousand rows' effects): a scan of the list per effect
      // made each check O(n²), and a thousand starts a billion steps.
      let listed = byCancelID.mapValues { Set($0.list.filter { effects[$0] != nil }) }
      for (effect, running) in effects {
        precondition(groups[running.group] != nil, "EffectTable: an effect's group is closed")
        members[running.group, default: 0] += 1
        for id in running.cancelIDs {
          precondition(
            listed[id]?.contains(effect) == true, "EffectTable: an identifier misses an effect")
        }
      }
      for (group, state) in groups {
        precondition(state.pending > 0, "EffectTable: an open group holds nothing")
        precondition(
          state.pending >= members[group] ?? 0, "EffectTable: a group's count misses effects")
      }
      for (id, members) in byCancelID {
        let live = members.list.filter { effects[$0] != nil }
        precondition(!live.isEmpty, "EffectTable: an identifier list without a live entry")
        precondition(
          members.stale == members.list.count - live.count,
          "EffectTable: an identifier list miscounts its ended entries")
        // Oldest first (identifiers count up). An effect tagged twice with one identifier
        // (a model nested in a model of its own type carries the type's membership at both
        // levels) is listed twice, side by side, and ends twice.
        precondition(
          zip(live, live.dropFirst()).allSatisfy { $0.rawValue <= $1.rawValue },
          "EffectTable: an identifier list out of order")
        for effect in live {
          precondition(
            effects[effect]?.cancelIDs.contains(id) == true,
            "EffectTable: an identifier lists an effect that is not tagged with it")
        }
      }
    }
  #else
    /// Does nothing: the checks are built with `-DARBOREAL_INTERNAL_CHECKS`.
    @inline(__always)
    func checkInvariants() {}
  #endif

  private mutating func cancel(_ id: CancelID, into output: inout Output) {
    // A copy: removing each effect changes the list. Stale entries are no longer in
    // `effects`, and `remove` skips them.
    guard let members = byCancelID[id] else { return }
    for effect in members.list { remove(effect, cancelling: true, into: &output) }
  }

  /// Removes a running effect from every index and releases its place in its group.
  private mutating func remove(_ effect: EffectID, cancelling: Bool, into output: inout Output) {
    guard let running = effects.removeValue(forKey: effect) else { return }
    for id in running.cancelIDs { markEnded(in: id) }
    if cancelling, let handle = running.handle { output.cancel.append(handle) }
    decrement(running.group, into: &output)
  }

  /// Counts one more ended entry in the list of `id`: drops the list when none is live,
  /// compacts it when half its entries ended.
  ///
  /// - Complexity: O(1) amortised.
  private mutating func markEnded(in id: CancelID) {
    guard var members = byCancelID.removeValue(forKey: id) else { return }
    members.stale += 1
    guard members.stale < members.list.count else { return }
    if members.stale * 2 > members.list.count {
      members.list.removeAll { effects[$0] == nil }
      members.stale = 0
    }
    byCancelID[id] = members
  }

  private mutating func decrement(_ group: GroupID, into output: inout Output) {
    guard var state = groups[group] else { return }
    state.pending -= 1
    if state.pending > 0 {
      groups[group] = state
    } else {
      groups[group] = nil
      output.resume.append(contentsOf: state.waiters)
    }
  }
}

extension EffectTable: Sendable where Handle: Sendable, Waiter: Sendable {}
extension EffectTable.Running: Sendable where Handle: Sendable {}
extension EffectTable.Group: Sendable where Waiter: Sendable {}
extension EffectTable.Output: Sendable where Handle: Sendable, Waiter: Sendable {}
