import ArborealTestSupport
import ArborealTracking
import Testing

// The code of the "Derived state" article (ArborealTracking.docc/DerivedState.md), verbatim
// between the `article begins` and `article ends` markers, and the README's derived-values
// example (between `README derived begins` and `README derived ends`), so that both keep
// compiling and doing what they say. `.ci/check-article-code.py` checks the article.

enum DocsDerived {
  // article begins: derived-model
  struct Item: Equatable {
    var name: String
    var price: Int
    var isDone = false
  }

  final class Basket: Trackable {
    let registrar = TrackingRegistrar()
    @Tracked var items: [Item] = []
    @Tracked var showDone = true

    @Derived({ (basket: Basket) in basket.items.reduce(0) { $0 + $1.price } })
    var total: Int

    @Derived({ (basket: Basket) in basket.total > 100 })
    var needsApproval: Bool

    @Derived({ (basket: Basket) in
      basket.showDone ? basket.items : basket.items.filter { !$0.isDone }
    })
    var visible: [Item]
  }
  // article ends: derived-model

  // article begins: derived-diamond-model
  final class Sheet: Trackable {
    let registrar = TrackingRegistrar()
    @Tracked var width = 2
    @Derived({ (sheet: Sheet) in sheet.width * 2 }) var doubled: Int
    @Derived({ (sheet: Sheet) in sheet.width + 1 }) var incremented: Int
    @Derived({ (sheet: Sheet) in "\(sheet.doubled) and \(sheet.incremented)" })
    var summary: String
  }
  // article ends: derived-diamond-model

  // README derived begins
  final class Order: Trackable {
    let registrar = TrackingRegistrar()
    @Tracked var prices: [Int] = []
    @Derived({ (order: Order) in order.prices.reduce(0, +) }) var total: Int
    @Derived({ (order: Order) in order.total >= 50 }) var shipsFree: Bool
  }
  // README derived ends
}

@MainActor @Suite struct DocsDerivedTests {
  typealias Item = DocsDerived.Item
  typealias Basket = DocsDerived.Basket
  typealias Sheet = DocsDerived.Sheet

  @Test func readingCachesTheResult() {
    let lines = Log<String>()
    func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }

    // article begins: derived-reading
    let basket = Basket()
    basket.items = [Item(name: "tea", price: 4), Item(name: "pot", price: 30)]

    print(basket.total)  // 34: computed now
    print(basket.total)  // 34: from the cache
    basket.items[1].price = 120  // nothing is computed
    print(basket.total)  // 124: computed again, once
    // article ends: derived-reading

    #expect(lines.all == ["34", "34", "124"])
  }

  @Test func observersHearOnlyRealChanges() {
    let lines = Log<String>()
    func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }

    // article begins: derived-observing
    let basket = Basket()
    let token = observe { changes in
      print("needs approval:", basket.needsApproval, changes)
    }  // needs approval: false

    basket.items.append(Item(name: "tea", price: 4))  // total 4: nothing
    basket.items.append(Item(name: "pot", price: 30))  // total 34: nothing
    basket.items.append(Item(name: "kettle", price: 80))  // needs approval: true needsApproval
    token.cancel()
    // article ends: derived-observing

    #expect(lines.all == ["needs approval: false ", "needs approval: true needsApproval"])
  }

  @Test func aBranchDecidesTheDependencies() {
    let lines = Log<String>()
    func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }

    // article begins: derived-branch
    let basket = Basket()
    basket.items = [Item(name: "tea", price: 4, isDone: true), Item(name: "pot", price: 30)]
    let token = observe({ basket.visible.map(\.name) }) { old, new in
      print(old, "→", new)
    }

    basket.showDone = false  // ["tea", "pot"] → ["pot"]
    basket.items[0].price = 5  // a hidden item changed: the list is the same, nothing
    basket.showDone = true  // ["pot"] → ["tea", "pot"]
    token.cancel()
    // article ends: derived-branch

    #expect(lines.all == [#"["tea", "pot"] → ["pot"]"#, #"["pot"] → ["tea", "pot"]"#])
  }

  @Test func aDiamondIsGlitchFree() {
    let lines = Log<String>()
    func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }

    // article begins: derived-diamond
    let sheet = Sheet()
    let token = observe { _ in
      print(sheet.summary)
    }  // 4 and 3

    sheet.width = 5  // 10 and 6: never "10 and 3"
    withTransaction {
      sheet.width = 6
      sheet.width = 7
    }  // 14 and 8: one run per transaction
    token.cancel()
    // article ends: derived-diamond

    #expect(lines.all == ["4 and 3", "10 and 6", "14 and 8"])
  }

  @Test func aFreeStandingDerivedValue() {
    let lines = Log<String>()
    func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }

    // article begins: derived-free-standing
    let basket = Basket()
    let count = Derived("count") { basket.visible.count }
    let token = observe { changes in
      print("showing", count.value, changes)
    }  // showing 0

    basket.items.append(Item(name: "tea", price: 4))  // showing 1 count
    basket.items[0].price = 5  // still one item: nothing
    token.cancel()
    // article ends: derived-free-standing

    #expect(lines.all == ["showing 0 ", "showing 1 count"])
  }

  @Test func theReadmeExampleWorks() {
    typealias Order = DocsDerived.Order
    let lines = Log<String>()
    func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }

    // README derived example begins
    let order = Order()
    let token = observe { _ in
      print("free shipping:", order.shipsFree)
    }  // free shipping: false

    order.prices.append(20)  // total 20: nothing runs
    order.prices.append(40)  // free shipping: true
    order.prices.append(5)  // total 65, still true: nothing runs
    print(order.total, order.total)  // 65 65: computed once, then cached
    token.cancel()
    // README derived example ends

    #expect(
      lines.all == ["free shipping: false", "free shipping: true", "65 65"])
  }
}
