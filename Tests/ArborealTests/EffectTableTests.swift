import Testing

@testable import Arboreal

/// The effect bookkeeping, driven directly: handles and waiters are plain strings.
@Suite struct EffectTableTests {
  typealias Table = EffectTable<String, String>

  @Test func aGroupClosesWhenItsLastHoldIsReleasedAndResumesItsWaiters() {
    var table = Table()
    let group = table.openGroup()
    #expect(table.isOpen(group))
    let added = [table.addWaiter("w1", to: group), table.addWaiter("w2", to: group)]
    #expect(added == [true, true])
    table.retain(group)
    #expect(table.release(group).isEmpty)
    let output = table.release(group)
    #expect(output.resume == ["w1", "w2"])
    #expect(!table.isOpen(group))
    let addedLate = table.addWaiter("late", to: group)
    #expect(!addedLate)
  }

  @Test func aGroupStaysOpenUntilItsEffectsFinish() {
    var table = Table()
    let group = table.openGroup()
    let first = table.start(in: group, cancelIDs: [])
    let second = table.start(in: group, cancelIDs: [])
    #expect(table.attach("t1", to: first!) == nil)
    #expect(table.attach("t2", to: second!) == nil)
    _ = table.addWaiter("w", to: group)
    #expect(table.release(group).isEmpty)
    #expect(table.group(ofRunning: first!) == group)
    #expect(table.finish(first!).isEmpty)
    let output = table.finish(second!)
    #expect(output.resume == ["w"])
    #expect(output.cancel.isEmpty)  // finishing cancels nothing
    #expect(table.effects.isEmpty && table.groups.isEmpty)
  }

  @Test func cancellingByIDReturnsTheTasksAndForgetsTheEffects() {
    var table = Table()
    let group = table.openGroup()
    let search = CancelID("search")
    let a = table.start(in: group, cancelIDs: [search])
    let b = table.start(in: group, cancelIDs: [CancelID("other")])
    _ = table.attach("a", to: a!)
    _ = table.attach("b", to: b!)
    let output = table.cancel(search)
    #expect(output.cancel == ["a"])
    #expect(table.group(ofRunning: a!) == nil)  // its deliveries are dropped from now on
    #expect(table.group(ofRunning: b!) == group)
    #expect(table.finish(a!).isEmpty)  // the task ending later changes nothing
    #expect(table.cancel(search).isEmpty)  // nothing left with that id
  }

  @Test func cancellingInFlightBeforeStartingCancelsOnlyEffectsWithTheSameID() {
    // What the store does for `cancelInFlight`: cancel the identifier, then start.
    var table = Table()
    let group = table.openGroup()
    let old = table.start(in: group, cancelIDs: [CancelID(1)])
    let other = table.start(in: group, cancelIDs: [CancelID(2)])
    _ = table.attach("old", to: old!)
    _ = table.attach("other", to: other!)
    let output = table.cancel(CancelID(1))
    let new = table.start(in: group, cancelIDs: [CancelID(1)])
    #expect(output.cancel == ["old"])
    #expect(table.group(ofRunning: new!) == group)
    #expect(table.group(ofRunning: other!) == group)
    #expect(table.group(ofRunning: old!) == nil)
  }

  @Test func identifiersOfDifferentTypesDoNotCollide() {
    var table = Table()
    let group = table.openGroup()
    let a = table.start(in: group, cancelIDs: [CancelID(1)])
    _ = table.attach("a", to: a!)
    #expect(table.cancel(CancelID("1")).isEmpty)
    #expect(table.cancel(CancelID(1)).cancel == ["a"])
  }

  @Test func cancellingAGroupCancelsItsEffectsAndStartsNoMore() {
    var table = Table()
    let group = table.openGroup()
    let otherGroup = table.openGroup()
    let a = table.start(in: group, cancelIDs: [])
    let b = table.start(in: otherGroup, cancelIDs: [])
    _ = table.attach("a", to: a!)
    _ = table.attach("b", to: b!)
    _ = table.addWaiter("w", to: group)
    #expect(table.cancel(group: group).cancel == ["a"])
    let late = table.start(in: group, cancelIDs: [])
    #expect(late == nil)
    #expect(table.release(group).resume == ["w"])
    #expect(table.group(ofRunning: b!) == otherGroup)
    #expect(table.cancel(group: group).isEmpty)  // closed: nothing to do
  }

  @Test func aHeldGroupSurvivesTheCancellationOfTheEffectThatKeptItOpen() {
    // An effect delivers an action whose update cancels that very effect in flight.
    var table = Table()
    let group = table.openGroup()
    let id = CancelID("timer")
    let effect = table.start(in: group, cancelIDs: [id])
    _ = table.attach("t", to: effect!)
    #expect(table.release(group).isEmpty)  // the sending action is done; the effect runs on
    let held = table.retain(group)  // the store holds the group while handling the delivery
    #expect(held)
    let output = table.cancel(id)  // the delivered action's update cancels it in flight
    #expect(output.cancel == ["t"])
    #expect(table.isOpen(group))
    let replacement = table.start(in: group, cancelIDs: [id])
    #expect(replacement != nil)
    #expect(table.release(group).isEmpty)
    #expect(table.isOpen(group))
    _ = table.finish(replacement!)
    #expect(!table.isOpen(group))
  }

  @Test func aTaskAttachedToAnEffectThatIsGoneIsHandedBackToCancel() {
    var table = Table()
    let group = table.openGroup()
    let effect = table.start(in: group, cancelIDs: [CancelID(0)])
    _ = table.cancel(CancelID(0))
    #expect(table.attach("orphan", to: effect!) == "orphan")
  }

  @Test func removeAllCancelsEverythingAndResumesEveryWaiter() {
    var table = Table()
    let first = table.openGroup()
    let second = table.openGroup()
    let a = table.start(in: first, cancelIDs: [CancelID("x")])
    _ = table.attach("a", to: a!)
    _ = table.addWaiter("w1", to: first)
    _ = table.addWaiter("w2", to: second)
    let output = table.removeAll()
    #expect(output.cancel == ["a"])
    #expect(Set(output.resume) == ["w1", "w2"])
    #expect(table.effects.isEmpty && table.groups.isEmpty)
    #expect(table.cancel(CancelID("x")).isEmpty)
  }

  @Test func identifiersAreNeverReused() {
    var table = Table()
    var seen = Set<UInt64>()
    for _ in 0..<100 {
      let group = table.openGroup()
      let effect = table.start(in: group, cancelIDs: [])
      #expect(seen.insert(group.rawValue).inserted)
      #expect(seen.insert(effect!.rawValue).inserted)
      _ = table.release(group)
      _ = table.finish(effect!)
    }
    #expect(table.groups.isEmpty)
  }

  @Test func runningListsTheEffectsOfAnIdentifierOldestFirstAndCancelEffectRemovesOne() {
    var table = Table()
    let queue = CancelID("queue")
    let group = table.openGroup()
    let first = table.start(in: group, cancelIDs: [queue])
    let second = table.start(in: group, cancelIDs: [queue])
    _ = table.attach("t1", to: first!)
    _ = table.attach("t2", to: second!)
    #expect(table.running(queue) == [first!, second!])
    #expect(table.isRunning(queue))
    #expect(table.cancel(effect: first!).cancel == ["t1"])
    #expect(table.running(queue) == [second!])
    #expect(table.finish(second!).isEmpty)  // the caller still holds the group
    #expect(!table.isRunning(queue))
    #expect(table.running(queue).isEmpty)
    #expect(table.release(group).isEmpty)
    #expect(table.groups.isEmpty)
  }

  /// A thousand effects; two hundred in the sanitizer steps' builds, whose internal checks
  /// walk every effect and list after each change (O(*n*²) over the test).
  #if ARBOREAL_INTERNAL_CHECKS
    static let many = 200
  #else
    static let many = 1_000
  #endif

  @Test(arguments: [1, 2, many])
  func effectsSharingAnIdentifierEndInAnyOrderAndItsListStaysCompact(count: Int) {
    // A collection's rows: each effect has its row's identifier and the rows' shared one.
    var table = Table()
    let shared = CancelID("rows")
    let group = table.openGroup()
    let effects = (0..<count).map { row in
      table.start(
        in: group, cancelIDs: [CancelID("row").scoped(in: EffectScope(Int.self, key: row)), shared])!
    }
    for (row, effect) in effects.enumerated() { _ = table.attach("t\(row)", to: effect) }
    // End them in an order that is neither the start order nor its reverse.
    // (7,919 is prime, so this is a permutation of the rows for every count here.)
    let order = (0..<count).map { ($0 * 7_919) % count }
    var ended = Set<Int>()
    for row in order {
      let own = CancelID("row").scoped(in: EffectScope(Int.self, key: row))
      #expect(table.cancel(own).cancel == ["t\(row)"])
      ended.insert(row)
      let live = effects.indices.filter { !ended.contains($0) }.map { effects[$0] }
      if live.count % 97 == 0 || live.count < 3 {
        #expect(table.running(shared) == live)  // oldest first, ended ones skipped
      }
      #expect(table.isRunning(shared) == !live.isEmpty)
      // Ended entries are never more than the live ones (plus the one just ended).
      #expect(table.listedCount(shared) <= 2 * live.count + 1)
    }
    #expect(table.listedCount(shared) == 0)
    #expect(table.cancel(shared).isEmpty)
    #expect(table.release(group).isEmpty)
    #expect(table.effects.isEmpty && table.groups.isEmpty)
  }

  @Test func cancellingASharedIdentifierCancelsEachLiveEffectOnceOldestFirst() {
    var table = Table()
    let shared = CancelID("rows")
    let group = table.openGroup()
    let effects = (0..<6).map { row in
      table.start(
        in: group, cancelIDs: [CancelID("row").scoped(in: EffectScope(Int.self, key: row)), shared])!
    }
    for (row, effect) in effects.enumerated() { _ = table.attach("t\(row)", to: effect) }
    for row in [4, 1, 2] {
      _ = table.cancel(CancelID("row").scoped(in: EffectScope(Int.self, key: row)))
    }
    #expect(table.cancel(shared).cancel == ["t0", "t3", "t5"])
    #expect(!table.isRunning(shared))
    #expect(table.release(group).isEmpty)
  }

  @Test func anEffectTaggedTwiceWithOneIdentifierEndsOnce() {
    // A model nested in a model of its own type: its effect carries the type's membership
    // from both levels.
    var table = Table()
    let shared = CancelID("folders")
    let group = table.openGroup()
    let nested = table.start(in: group, cancelIDs: [shared, CancelID("own"), shared])!
    let other = table.start(in: group, cancelIDs: [shared])!
    _ = table.attach("nested", to: nested)
    _ = table.attach("other", to: other)
    #expect(table.cancel(CancelID("own")).cancel == ["nested"])
    #expect(table.running(shared) == [other])
    #expect(table.cancel(shared).cancel == ["other"])
    #expect(!table.isRunning(shared) && table.listedCount(shared) == 0)
    #expect(table.release(group).isEmpty)
  }

  @Test func scopedIdentifiersAreDistinctEntries() {
    var table = Table()
    let group = table.openGroup()
    let rowOne = CancelID("upload").scoped(in: EffectScope(Int.self, key: 1))
    let rowTwo = CancelID("upload").scoped(in: EffectScope(Int.self, key: 2))
    let first = table.start(in: group, cancelIDs: [rowOne])
    let second = table.start(in: group, cancelIDs: [rowTwo])
    _ = table.attach("t1", to: first!)
    _ = table.attach("t2", to: second!)
    #expect(table.cancel(rowOne).cancel == ["t1"])
    #expect(table.running(rowTwo) == [second!])
    #expect(table.cancel(CancelID("upload")).isEmpty)  // the unscoped identifier names neither
    _ = table.removeAll()
  }
}
