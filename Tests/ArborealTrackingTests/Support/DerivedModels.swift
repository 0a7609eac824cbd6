import ArborealTracking
import Synchronization

/// Counts computations, from any thread.
final class Tally: Sendable {
  private let count = Atomic(0)

  /// Counts one and returns nothing, for use inside a computation.
  func add() { count.add(1, ordering: .relaxed) }

  var value: Int { count.load(ordering: .relaxed) }
}

/// A cart whose total and item count are derived values.
final class Cart: Trackable {
  let registrar = TrackingRegistrar()
  let totals = Tally()
  let flags = Tally()
  @Tracked var prices: [Int] = []
  @Tracked var discount = 0
  @Derived({ (cart: Cart) -> Int in
    cart.totals.add()
    return cart.prices.reduce(0, +) - cart.discount
  })
  var total: Int
  @Derived({ (cart: Cart) -> Bool in
    cart.flags.add()
    return cart.total > 100
  })
  var isLarge: Bool
}

/// A cart used from two threads in turn, never at once (`onAnotherThread` blocks its caller
/// until the other thread is done): that order is the invariant that makes
/// `@unchecked Sendable` hold.
final class TurnTakingCart: Trackable, @unchecked Sendable {
  let registrar = TrackingRegistrar()
  let totals = Tally()
  @Tracked var price = 10
  @Tracked var discount = 0
  @Derived({ (cart: TurnTakingCart) -> Int in
    cart.totals.add()
    return cart.price - cart.discount
  })
  var total: Int
}

/// A value that is not `Equatable`: every new result notifies.
struct Summary {
  var count: Int
}

/// Derived values over one input in the shape of a diamond (`a` → `b`, `a` → `c`,
/// `b` + `c` → `d`), with a branch and a non-`Equatable` result.
final class Diamond: Trackable {
  let registrar = TrackingRegistrar()
  let bCount = Tally()
  let cCount = Tally()
  let dCount = Tally()
  let branchCount = Tally()
  @Tracked var a = 1
  @Tracked var x = 10
  @Tracked var y = 20
  @Tracked var useX = true
  @Derived({ (model: Diamond) -> Int in
    model.bCount.add()
    return model.a * 2
  })
  var b: Int
  @Derived({ (model: Diamond) -> Int in
    model.cCount.add()
    return model.a + 1
  })
  var c: Int
  @Derived({ (model: Diamond) -> Int in
    model.dCount.add()
    return model.b + model.c
  })
  var d: Int
  @Derived({ (model: Diamond) -> Int in
    model.branchCount.add()
    return model.useX ? model.x : model.y
  })
  var branch: Int
  @Derived({ (model: Diamond) in Summary(count: model.a) }) var summary: Summary
}

/// Derived values that read each other in a circle.
final class Loop: Trackable {
  let registrar = TrackingRegistrar()
  @Tracked var seed = 1
  @Derived({ (loop: Loop) -> Int in loop.seed + loop.second }) var first: Int
  @Derived({ (loop: Loop) -> Int in loop.first * 2 }) var second: Int
  @Derived({ (loop: Loop) -> Int in loop.itself + 1 }) var itself: Int
}

/// A list whose sum is derived, at any size.
final class Numbers: Trackable {
  let registrar = TrackingRegistrar()
  let sums = Tally()
  @Tracked var items: [Int]
  @Derived({ (numbers: Numbers) -> Int in
    numbers.sums.add()
    return numbers.items.reduce(0, &+)
  })
  var sum: Int

  init(count: Int) {
    items = Array(repeating: 1, count: count)
  }
}

/// A model that holds a derived value over another model's property.
final class Follower: Trackable {
  let registrar = TrackingRegistrar()
  let source: Counter
  @Derived({ (follower: Follower) -> Int in follower.source.count * 10 }) var scaled: Int

  init(source: Counter) {
    self.source = source
  }
}

/// `Sendable` state whose derived values are read from several threads.
///
/// Invariant (why `@unchecked Sendable` holds): its one tracked input is `SharedCounter`,
/// whose storage is locked, and `Derived` nodes are thread-safe; nothing else is mutable.
final class SharedSheet: Trackable, @unchecked Sendable {
  let registrar = TrackingRegistrar()
  let counter = SharedCounter()
  let computations = Tally()
  @Derived({ (sheet: SharedSheet) -> Int in
    sheet.computations.add()
    return sheet.counter.value * 2
  })
  var doubled: Int
  @Derived({ (sheet: SharedSheet) -> Bool in sheet.doubled % 4 == 0 }) var isMultipleOfFour: Bool
}

/// A main-actor model with a derived value.
@MainActor
final class MainActorSheet: Trackable {
  let registrar = TrackingRegistrar()
  @Tracked var width = 2
  @Derived({ @MainActor (sheet: MainActorSheet) in sheet.width * 2 }) var doubled: Int
}

/// A global actor other than the main actor, for ``ActorSheet``.
@globalActor actor SheetActor {
  static let shared = SheetActor()
}

/// A model isolated to ``SheetActor``, whose derived value's closure says so.
@SheetActor
final class ActorSheet: Trackable {
  let registrar = TrackingRegistrar()
  @Tracked var width = 2
  /// How many times `tripled` was computed (not tracked).
  var computations = 0
  @Derived({ @SheetActor (sheet: ActorSheet) in
    SheetActor.preconditionIsolated()
    sheet.computations += 1
    return sheet.width * 3
  })
  var tripled: Int
}

/// One row of a ``Ledger``.
final class LedgerRow: Trackable {
  let registrar = TrackingRegistrar()
  @Tracked var amount = 1
}

/// A total over many row models: a derived value that depends on many registrars.
final class Ledger: Trackable {
  let registrar = TrackingRegistrar()
  let totals = Tally()
  let rows: [LedgerRow]
  @Derived({ (ledger: Ledger) -> Int in
    ledger.totals.add()
    return ledger.rows.reduce(0) { $0 + $1.amount }
  })
  var total: Int

  init(rows: Int) {
    self.rows = (0..<rows).map { _ in LedgerRow() }
  }
}

/// A ``Ledger`` passed between tasks: written from one task, read from another, one after the
/// other (each awaited), never at once. That order is the invariant that makes
/// `@unchecked Sendable` hold.
final class SharedLedger: @unchecked Sendable {
  let ledger = Ledger(rows: 1_000)
}
