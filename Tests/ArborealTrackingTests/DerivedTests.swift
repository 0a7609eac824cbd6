import ArborealTracking
import Synchronization
import Testing

/// Derived values through the public API: lazy, cached, their own dependency, glitch-free.
/// On the main actor, where observers of non-`Sendable` models run synchronously.
@MainActor
@Suite struct DerivedTests {
  // MARK: Lazy and cached

  @Test func anUnreadDerivedValueIsNeverComputed() {
    let cart = Cart()
    for price in 1...100 { cart.prices.append(price) }
    cart.discount = 5
    #expect(cart.totals.value == 0)
    #expect(cart.flags.value == 0)
  }

  @Test func aCachedValueIsReturnedUntilAnInputChanges() {
    let cart = Cart()
    cart.prices = [10, 20]
    #expect(cart.total == 30)
    #expect(cart.total == 30)
    #expect(cart.totals.value == 1)

    cart.prices.append(5)
    // Nobody observes it: changing an input does not compute it.
    #expect(cart.totals.value == 1)
    #expect(cart.total == 35)
    #expect(cart.total == 35)
    #expect(cart.totals.value == 2)
  }

  @Test func severalChangedInputsRecomputeOnceOnTheNextRead() {
    let cart = Cart()
    _ = cart.total
    cart.prices = [1]
    cart.prices.append(2)
    cart.discount = 1
    cart.prices.append(3)
    #expect(cart.total == 5)
    #expect(cart.totals.value == 2)
  }

  @Test(arguments: [1, 1_000_000])
  func aSumIsComputedOnceHoweverOftenItIsRead(count: Int) {
    let numbers = Numbers(count: count)
    for _ in 0..<1_000 { #expect(numbers.sum == count) }
    #expect(numbers.sums.value == 1)
    numbers.items[0] = 2
    for _ in 0..<1_000 { #expect(numbers.sum == count + 1) }
    #expect(numbers.sums.value == 2)
  }

  /// A cached read over many models skips checking each of them while nothing they belong to
  /// was written; a write to any one of them, or between two reads of another value, is
  /// still seen, and a write elsewhere recomputes nothing.
  @Test func aTotalOverAThousandModelsSeesAWriteToAnyOfThem() {
    let ledger = Ledger(rows: 1_000)
    let other = Ledger(rows: 2)
    #expect(ledger.total == 1_000)
    #expect(other.total == 2)
    #expect(ledger.total == 1_000)
    #expect(ledger.totals.value == 1)
    for index in [999, 0, 500] {
      ledger.rows[index].amount += 1
      #expect(ledger.total == 1_000 + [999, 0, 500].firstIndex(of: index)! + 1)
    }
    #expect(ledger.totals.value == 4)
    // Writes to rows of another ledger move the shared clock but none of this one's stamps.
    other.rows[0].amount = 5
    #expect(other.total == 6)
    #expect(ledger.total == 1_003)
    #expect(ledger.totals.value == 4)
  }

  @Test func aFreeStandingDerivedValueIsLazyAndCached() {
    let shared = SharedCounter()
    let tally = Tally()
    let doubled = Derived("doubled") {
      tally.add()
      return shared.value * 2
    }
    shared.value = 3
    #expect(tally.value == 0)
    #expect(doubled.value == 6)
    #expect(doubled.value == 6)
    #expect(tally.value == 1)
    shared.other = 1  // not read: no recomputation
    #expect(doubled.value == 6)
    #expect(tally.value == 1)
    shared.value = 4
    #expect(doubled.value == 8)
    #expect(tally.value == 2)
  }

  // MARK: Its own dependency

  @Test func observersOfAnEqualResultAreNotNotified() {
    let cart = Cart()
    cart.prices = [60]
    let runs = Mutex<[Bool]>([])
    let token = observe { _ in runs.withLock { $0.append(cart.isLarge) } }
    cart.prices = [70]  // total changes, isLarge does not
    cart.discount = 1
    #expect(runs.withLock { $0 } == [false])
    cart.prices = [200]
    #expect(runs.withLock { $0 } == [false, true])
    cart.prices = [300]
    #expect(runs.withLock { $0 } == [false, true])
    token.cancel()
  }

  @Test func aOneShotObserverOfADerivedValueFiresOnlyWhenItChanges() {
    let cart = Cart()
    let fired = Mutex<[String]>([])
    let large = withTracking {
      cart.isLarge
    } onChange: { changes in
      fired.withLock { $0.append(changes.description) }
    }
    #expect(large == false)
    cart.prices = [50]
    #expect(fired.withLock { $0 }.isEmpty)
    cart.prices = [150]
    #expect(fired.withLock { $0 } == ["isLarge"])
  }

  @Test func changesNameTheDerivedValueAndItsModel() {
    let cart = Cart()
    let seen = Mutex<[String]>([])
    let token = observe { changes in
      _ = cart.total
      if !changes.isEmpty { seen.withLock { $0 += changes.qualifiedNames } }
    }
    cart.prices = [1]
    #expect(seen.withLock { $0 } == ["Cart#\(cart.$total.owner?.label ?? "?").total"])
    #expect(cart.$total.name == "total")
    token.cancel()
  }

  @Test func aNonEquatableResultNotifiesOnEveryRecomputation() {
    let model = Diamond()
    let runs = Mutex(0)
    let token = observe { _ in
      _ = model.summary
      runs.withLock { $0 += 1 }
    }
    model.a = 2
    model.x = 5  // not read by `summary`
    #expect(runs.withLock { $0 } == 2)
    token.cancel()
  }

  @Test func anObservedValueIsRecomputedOncePerTransaction() {
    let cart = Cart()
    let runs = Mutex<[Int]>([])
    let token = observe { _ in runs.withLock { $0.append(cart.total) } }
    withTransaction {
      cart.prices = [1]
      cart.prices.append(2)
      cart.discount = 1
    }
    #expect(runs.withLock { $0 } == [0, 2])
    #expect(cart.totals.value == 2)
    token.cancel()
  }

  @Test func aTransactionThatSetsAnInputBackRecomputesNothingForObservers() {
    let cart = Cart()
    let runs = Mutex(0)
    let token = observe { _ in
      _ = cart.total
      runs.withLock { $0 += 1 }
    }
    withTransaction {
      cart.discount = 3
      cart.discount = 0
    }
    #expect(runs.withLock { $0 } == 1)
    #expect(cart.totals.value == 1)
    token.cancel()
  }

  @Test func aValueReadInsideATransactionThatSetsAnInputBackEndsOnTheValueItBeganWith() {
    let cart = Cart()
    cart.prices = [10]
    let seen = Mutex<[Int]>([])
    let token = observe { _ in seen.withLock { $0.append(cart.total) } }
    let inside = withTransaction {
      cart.discount = 3
      let inside = cart.total
      cart.discount = 0
      return inside
    }
    #expect(inside == 7)
    #expect(cart.total == 10)
    // At most one run for the transaction, which saw the value it ended on.
    #if ARBOREAL_NEW_DERIVED
      #expect(seen.withLock { $0.count } <= 2)
    #else
      // The current engine runs the observer twice: once for the change the read inside the
      // transaction made (delivered at its end), and again when that run reads it back.
      withKnownIssue("two runs for one transaction on the current engine") {
        #expect(seen.withLock { $0.count } <= 2)
      }
    #endif
    #expect(seen.withLock { $0.last } == 10)
    token.cancel()
  }

  @Test func anInputSetBackBesideOneThatChangedRecomputesOnce() {
    let cart = Cart()
    cart.prices = [10]
    let seen = Mutex<[Int]>([])
    let token = observe { _ in seen.withLock { $0.append(cart.total) } }
    let before = cart.totals.value
    withTransaction {
      cart.discount = 3
      cart.prices = [20]
      cart.discount = 0
    }
    #expect(cart.totals.value == before + 1)
    #expect(seen.withLock { $0 } == [10, 20])
    token.cancel()
  }

  @Test func aValueComputedOnAnotherThreadDuringATransactionThatSetsAnInputBackIsNotLeftStale() {
    let cart = TurnTakingCart()
    #expect(cart.total == 10)
    let elsewhere = Locked.make(0)
    withTransaction {
      cart.discount = 3
      // Read after the write returned, outside the transaction: it sees the write, and
      // stores a result computed from it.
      onAnotherThread { elsewhere.withLock { $0 = cart.total } }
      cart.discount = 0
    }
    #expect(elsewhere.withLock { $0 } == 7)
    #expect(cart.total == 10)
  }

  @Test func readsInsideATransactionSeeTheNewInputs() {
    let cart = Cart()
    cart.prices = [10]
    #expect(cart.total == 10)
    let seen = withTransaction {
      cart.prices.append(5)
      let inside = cart.total
      cart.discount = 1
      return [inside, cart.total]
    }
    #expect(seen == [15, 14])
  }

  @Test func previousAndNewValuesReachOnChange() {
    let cart = Cart()
    let pairs = Mutex<[String]>([])
    let token = observe({ cart.total }) { old, new in
      pairs.withLock { $0.append("\(old)→\(new)") }
    }
    cart.prices = [5]
    cart.discount = 0  // equal: nothing
    withTransaction {
      cart.prices.append(5)
      cart.discount = 2
    }
    cart.prices = [10, 0]  // total stays 8
    #expect(pairs.withLock { $0 } == ["0→5", "5→8"])
    token.cancel()
  }

  @Test func valuesOfADerivedValueSkipEqualResults() async {
    let shared = SharedCounter()
    let parity = Derived("parity") { shared.value % 2 }
    var iterator = values(of: { parity.value }).makeAsyncIterator()
    #expect(await iterator.next() == 0)
    shared.value = 2
    shared.value = 3
    #expect(await iterator.next() == 1)
  }

  // MARK: Graphs

  @Test func theDiamondRecomputesEachValueOnceAndIsGlitchFree() {
    let model = Diamond()
    let seen = Mutex<[Int]>([])
    let token = observe { _ in seen.withLock { $0.append(model.d) } }
    for value in 2...5 { model.a = value }
    // d = 2a + (a + 1): one run per write, each with b and c from the same a.
    #expect(seen.withLock { $0 } == [4, 7, 10, 13, 16])
    #expect(model.bCount.value == 5)
    #expect(model.cCount.value == 5)
    #expect(model.dCount.value == 5)
    token.cancel()
  }

  @Test func aWideDiamondRecomputesEachValueOncePerWriteAndTransaction() {
    // One write notifies every middle value's input observer in turn; the bottom is brought
    // up to date once they all have been, so each value computes once per write.
    let input = Counter()
    let computations = Mutex(0)
    let middle = (0..<200).map { offset in
      Derived { () -> Int in
        computations.withLock { $0 += 1 }
        return input.count + offset
      }
    }
    let bottom = Derived { middle.reduce(0) { $0 + $1.value } }
    let seen = Mutex<[Int]>([])
    let token = observe { _ in seen.withLock { $0.append(bottom.value) } }
    #expect(computations.withLock { $0 } == 200)
    input.count = 1
    #expect(computations.withLock { $0 } == 400)
    withTransaction {
      input.count = 2
      input.count = 3
    }
    #expect(computations.withLock { $0 } == 600)
    let base = (0..<200).reduce(0, +)
    #expect(seen.withLock { $0 } == [base, base + 200, base + 600])
    token.cancel()
  }

  @Test func anObserverOfAnInputThatReadsTheDerivedValueNeverSeesAMix() {
    let model = Diamond()
    _ = model.d  // the derived values register before the observer
    let mixes = Mutex<[String]>([])
    let runs = Mutex(0)
    let token = observe { _ in
      let (a, b, c, d) = (model.a, model.b, model.c, model.d)
      runs.withLock { $0 += 1 }
      if b != a * 2 || c != a + 1 || d != b + c {
        mixes.withLock { $0.append("a=\(a) b=\(b) c=\(c) d=\(d)") }
      }
    }
    for value in 2...20 { model.a = value }
    // The observer hears of `a` and of `d` at once: one run per write or transaction (and
    // the first run), each consistent.
    let outside = runs.withLock { $0 }
    #expect(outside == 20)
    withTransaction {
      model.a = 50
      model.a = 51
    }
    let delta = runs.withLock { $0 } - outside
    #expect(delta == 1)
    #expect(mixes.withLock { $0 }.isEmpty)
    #expect(model.dCount.value == 21)
    token.cancel()
  }

  @Test func aChainOfAHundredRecomputesEachValueOnce() {
    let shared = SharedCounter()
    let tallies = (0..<100).map { _ in Tally() }
    var chain: [Derived<Int>] = []
    for index in 0..<100 {
      let tally = tallies[index]
      if let previous = chain.last {
        chain.append(
          Derived("link\(index)") { [previous] in
            tally.add()
            return previous.value + 1
          })
      } else {
        chain.append(
          Derived("link0") {
            tally.add()
            return shared.value
          })
      }
    }
    let last = chain[99]
    let seen = Mutex<[Int]>([])
    let token = observe { _ in seen.withLock { $0.append(last.value) } }
    shared.value = 1
    shared.value = 2
    #expect(seen.withLock { $0 } == [99, 100, 101])
    #expect(tallies.allSatisfy { $0.value == 3 })
    token.cancel()
  }

  @Test func anUnobservedChainIsOnlyMarkedUntilRead() {
    let shared = SharedCounter()
    let tally = Tally()
    let first = Derived("first") {
      tally.add()
      return shared.value
    }
    let second = Derived("second") {
      tally.add()
      return first.value + 1
    }
    #expect(second.value == 1)
    #expect(tally.value == 2)
    shared.value = 5
    #expect(tally.value == 2)
    #expect(second.value == 6)
    #expect(tally.value == 4)
  }

  @Test func aBranchSwitchMovesTheDependencies() {
    let model = Diamond()
    #expect(model.branch == 10)
    model.y = 21  // not read by the branch taken
    #expect(model.branch == 10)
    #expect(model.branchCount.value == 1)

    model.useX = false
    #expect(model.branch == 21)
    model.x = 11  // no longer read
    #expect(model.branch == 21)
    #expect(model.branchCount.value == 2)
    model.y = 22
    #expect(model.branch == 22)
    #expect(model.branchCount.value == 3)
  }

  @Test func anObservedBranchSwitchNotifiesOnlyForTheBranchTaken() {
    let model = Diamond()
    let seen = Mutex<[Int]>([])
    let token = observe { _ in seen.withLock { $0.append(model.branch) } }
    model.y = 30
    model.useX = false
    model.x = 40
    model.y = 31
    #expect(seen.withLock { $0 } == [10, 30, 31])
    token.cancel()
  }

  @Test func aDerivedValueOfAnotherModelFollowsIt() {
    let source = Counter()
    let follower = Follower(source: source)
    let seen = Mutex<[Int]>([])
    let token = observe { _ in seen.withLock { $0.append(follower.scaled) } }
    source.count = 2
    source.step = 5  // not read
    #expect(seen.withLock { $0 } == [0, 20])
    token.cancel()
  }

  // MARK: Lifetime

  @Test func aDerivedValueIsReleasedWithItsModel() {
    let source = Counter()
    weak var released: Follower?
    do {
      let follower = Follower(source: source)
      released = follower
      #expect(follower.scaled == 0)
      #expect(source.registrar.registrationCount == 1)
    }
    #expect(released == nil)
    #expect(source.registrar.registrationCount == 0)
    source.count = 1  // nothing left to notify
  }

  @Test func anObservedDerivedValueIsReleasedWithItsModelAndTheToken() {
    let source = Counter()
    weak var released: Follower?
    do {
      let follower = Follower(source: source)
      released = follower
      let token = observe { _ in _ = follower.scaled }
      source.count = 3
      token.cancel()
    }
    #expect(released == nil)
    #expect(source.registrar.registrationCount == 0)
  }

  // MARK: Cycles

  @Test func aCycleStopsTheProgramNamingTheValues() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let loop = Loop()
      _ = loop.first
    }
    .map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("a derived value depends on itself"), "\(message)")
      #expect(message.contains("Loop.first → Loop.second → Loop.first"), "\(message)")
    }
  }

  @Test func aValueThatReadsItselfStopsTheProgram() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Loop().itself
    }
    .map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("Loop.itself → Loop.itself"), "\(message)")
    }
  }
}

/// Derived values in every isolation.
@Suite struct DerivedIsolationTests {
  @MainActor @Test func onTheMainActorWithANonSendableModel() {
    let cart = Cart()
    var seen: [Bool] = []
    let token = observe { _ in seen.append(cart.isLarge) }
    cart.prices = [50, 60]
    cart.prices = [200]
    #expect(seen == [false, true])
    let label = Derived { cart.isLarge ? "large" : "small" }
    #expect(label.value == "large")
    token.cancel()
  }

  @MainActor @Test func aMainActorModelsDerivedValue() {
    let sheet = MainActorSheet()
    var seen: [Int] = []
    let token = observe { _ in seen.append(sheet.doubled) }
    sheet.width = 3
    sheet.width = 3  // equal: nothing
    withTransaction {
      sheet.width = 4
      sheet.width = 5
    }
    #expect(seen == [4, 6, 10])
    #expect(sheet.doubled == 10)
    token.cancel()
  }

  @SheetActor @Test func aGlobalActorModelsDerivedValue() {
    // The closure's `@SheetActor` makes the value the actor's: computed there, once per
    // change, and cached between changes.
    let sheet = ActorSheet()
    #expect(sheet.tripled == 6)
    #expect(sheet.tripled == 6)
    sheet.width = 3
    withTransaction {
      sheet.width = 4
      sheet.width = 5
    }
    #expect(sheet.tripled == 15)
    #expect(sheet.computations == 2)
  }

  actor Ledger {
    let cart = Cart()

    func run() -> [Int] {
      var seen: [Int] = []
      let total = Derived { self.cart.total * 2 }
      seen.append(total.value)
      cart.prices = [4]
      seen.append(total.value)
      seen.append(total.value)
      seen.append(cart.totals.value)
      return seen
    }
  }

  @Test func onAnotherActor() async {
    #expect(await Ledger().run() == [0, 8, 8, 2])
  }

  @Test func inADetachedTask() async {
    let result = await Task.detached { () -> [Int] in
      let numbers = Numbers(count: 10)
      let first = numbers.sum
      numbers.items.append(5)
      return [first, numbers.sum, numbers.sum, numbers.sums.value]
    }.value
    #expect(result == [10, 15, 15, 2])
  }

  /// A total over 1,000 models read on the main actor sees writes made to any of them by a
  /// detached task, though its cached reads skip checking the models while nothing moved.
  @MainActor @Test func aTotalReadOnTheMainActorSeesWritesFromADetachedTask() async {
    let shared = SharedLedger()
    #expect(shared.ledger.total == 1_000)
    #expect(shared.ledger.total == 1_000)
    for index in [0, 500, 999] {
      await Task.detached { shared.ledger.rows[index].amount += 1 }.value
      #expect(shared.ledger.total == 1_000 + [0, 500, 999].firstIndex(of: index)! + 1)
    }
    #expect(shared.ledger.totals.value == 4)
  }

  @Test func nonisolatedObserversOfASendableModel() {
    let sheet = SharedSheet()
    let seen = Mutex<[Bool]>([])
    let token = observe { _ in seen.withLock { $0.append(sheet.isMultipleOfFour) } }
    sheet.counter.value = 1
    sheet.counter.value = 2
    sheet.counter.value = 4
    #expect(seen.withLock { $0 } == [true, false, true])
    #expect(sheet.computations.value == 4)
    token.cancel()
  }

  @Test func aMainActorObserverOfAValueChangedOnAnotherThread() async {
    let sheet = SharedSheet()
    let seen = await MainActor.run { () -> TrackingToken in
      observe { _ in _ = sheet.doubled }
    }
    let before = sheet.computations.value
    await Task.detached { sheet.counter.value = 21 }.value
    #expect(sheet.doubled == 42)
    #expect(sheet.computations.value <= before + 1)
    seen.cancel()
  }

  @Test func aValueMadeOnTheMainActorAndReadOffItStopsTheProgram() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let label = await MainActor.run { Derived("label") { "main" } }
      _ = await Task.detached { label.value }.value
    }
    .map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("label was made on the main actor and read off it"), "\(message)")
    }
  }

  @Test func aNonisolatedGraphIsSendable() async {
    let shared = SharedCounter()
    let doubled = Derived("doubled") { shared.value * 2 }
    let label = Derived("label") { "\(doubled.value)" }
    shared.value = 4
    #expect(await Task.detached { label.value }.value == "8")
    #expect(label.value == "8")
  }

  @Test func manyThreadsReadWhileOneWrites() async {
    let sheet = SharedSheet()
    let readers = 4
    await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        for value in 1...500 { sheet.counter.value = value }
        return true
      }
      for _ in 0..<readers {
        group.addTask {
          var consistent = true
          for _ in 0..<500 {
            let doubled = sheet.doubled
            consistent = consistent && doubled % 2 == 0
            _ = sheet.isMultipleOfFour
          }
          return consistent
        }
      }
      for await consistent in group { #expect(consistent) }
    }
    #expect(sheet.doubled == 1_000)
    #expect(sheet.isMultipleOfFour == true)
  }

  @Test func observersRegisteringAndCancellingWhileAnotherThreadWritesEndOnTheLastValue() async {
    let sheet = SharedSheet()
    let observers = 4
    // `Locked`, not `Mutex`: ThreadSanitizer does not see a `Mutex`'s hand-off on Linux.
    final class Shared: Sendable {
      let lastSeen = Locked.make([Int: Int]())
      let tokens = Locked.make([TrackingToken]())
    }
    let shared = Shared()
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        for value in 1...400 { sheet.counter.value = value }
      }
      for index in 0..<observers {
        group.addTask {
          for round in 0..<20 {
            // Read outside the lock: reading an out-of-date value computes it, and its change
            // runs the other observers' bodies right here, which take the same lock.
            let token = observe { _ in
              let doubled = sheet.doubled
              shared.lastSeen.withLock { $0[index] = doubled }
            }
            if round == 19 {
              shared.tokens.withLock { $0.append(token) }
            } else {
              token.cancel()
            }
          }
        }
      }
    }
    // Every observer still registered saw the last write.
    #expect(shared.lastSeen.withLock { $0.values.allSatisfy { $0 == 800 } })
    #expect(shared.lastSeen.withLock { $0.count } == observers)
    shared.tokens.withLock { $0.forEach { $0.cancel() } }
    // One input observer of the cached value is left on the counter, nothing more.
    #expect(sheet.counter.registrar.registrationCount == 1)
  }

  /// Computations of one value on several threads at once, each reading other dependencies
  /// (the branch moves with every write), leave its input link and its edges following the
  /// last stored computation: afterwards every change of what it reads now is seen, and
  /// nothing it no longer reads is registered. Whatever the interleaving.
  @Test func concurrentRecomputationsOfABranchingValueLeaveItFollowingItsLastReads() async {
    let shared = SharedCounter()
    let choice = Derived("choice") { shared.value % 2 == 0 ? shared.other : -shared.value }
    let total = Derived("total") { choice.value + 1 }
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        for value in 1...400 {
          shared.other = value
          shared.value = value
        }
      }
      for _ in 0..<4 {
        group.addTask {
          for _ in 0..<400 { _ = total.value }
        }
      }
    }
    #expect(total.value == 401)
    let seen = Mutex<[Int]>([])
    let token = observe { _ in
      let value = total.value
      seen.withLock { $0.append(value) }
    }
    shared.value = 401  // odd: reads `value` only
    shared.other = 7  // no longer read
    shared.value = 402  // even: reads `other` again
    shared.other = 8
    #expect(seen.withLock { $0 } == [401, -400, 8, 9])
    token.cancel()
    // The link is registered for what the last computation read (`value` and `other`).
    #expect(shared.registrar.registrationCount == 2)
  }
}
