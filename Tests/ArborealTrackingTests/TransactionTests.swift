import ArborealTestSupport
import ArborealTracking
import Testing

@MainActor @Suite struct TransactionTests {
  @Test func eachObserverIsNotifiedOnceWithEveryChangedProperty() {
    let person = Person()
    let log = Log<String>()
    let token = observe { changes in
      _ = person.fullName
      _ = person.age
      if !changes.isEmpty { log.append(changes.description) }
    }
    withTransaction {
      person.firstName = "Grace"
      person.lastName = "Hopper"
      person.age = 40
      person.firstName = "Grace"
    }
    #expect(log.all == ["firstName, lastName, age"])
    token.cancel()
  }

  @Test func oneShotObserversFireOnceAtTheEnd() {
    let person = Person()
    let log = Log<String>()
    withTracking {
      person.fullName
    } onChange: { changes in
      log.append("\(changes) -> \(person.fullName)")
    }
    withTransaction {
      person.firstName = "Grace"
      #expect(log.count == 0)
      person.lastName = "Hopper"
    }
    #expect(log.all == ["firstName, lastName -> Grace Hopper"])
  }

  @Test func nestedTransactionsJoinTheOutermost() {
    let counter = Counter()
    let runs = Log<Int>()
    let token = observe { _ in runs.append(counter.count) }
    withTransaction {
      counter.count = 1
      withTransaction { counter.count = 2 }
      #expect(runs.all == [0])
      counter.count = 3
    }
    #expect(runs.all == [0, 3])
    token.cancel()
  }

  @Test func aThrowingTransactionStillDeliversWhatChanged() {
    struct Failure: Error {}
    let counter = Counter()
    let runs = Log<Int>()
    let token = observe { _ in runs.append(counter.count) }
    #expect(throws: Failure.self) {
      try withTransaction {
        counter.count = 1
        throw Failure()
      }
    }
    #expect(runs.all == [0, 1])
    token.cancel()
  }

  @Test func returnsWhatTheBodyReturns() {
    let value = withTransaction { 42 }
    #expect(value == 42)
  }
}
