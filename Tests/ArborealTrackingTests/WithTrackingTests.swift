import ArborealTestSupport
import ArborealTracking
import Testing

@MainActor @Suite struct WithTrackingTests {
  @Test func returnsWhatApplyReturns() {
    let person = Person()
    let name = withTracking {
      person.fullName
    } onChange: { _ in
    }
    #expect(name == "Ada Lovelace")
  }

  @Test func onlyObserversOfTheChangedPropertyAreNotified() {
    let person = Person()
    let other = Person()
    let log = Log<String>()
    _ = withTracking {
      person.firstName
    } onChange: { _ in
      log.append("first")
    }
    _ = withTracking {
      person.age
    } onChange: { _ in
      log.append("age")
    }
    _ = withTracking {
      other.firstName
    } onChange: { _ in
      log.append("other")
    }
    person.firstName = "Grace"
    #expect(log.all == ["first"])
  }

  @Test func deliveryIsAfterTheChangeAndSeesTheNewValue() {
    let counter = Counter()
    let seen = Log<Int>()
    _ = withTracking {
      counter.count
    } onChange: { _ in
      seen.append(counter.count)
    }
    counter.count = 5
    #expect(seen.all == [5])
  }

  @Test func firesOnceThenIsGone() {
    let counter = Counter()
    let log = Log<TrackingChanges>()
    _ = withTracking {
      counter.count
    } onChange: { changes in
      log.append(changes)
    }
    counter.count = 1
    counter.count = 2
    #expect(log.count == 1)
    #expect(log.all.first?.names == ["count"])
    #expect(counter.registrar.registrationCount == 0)
  }

  @Test func equalEquatableValuesNotifyNobody() {
    let counter = Counter()
    let log = Log<Int>()
    _ = withTracking {
      counter.count
    } onChange: { _ in
      log.append(1)
    }
    counter.count = 0
    #expect(log.count == 0)
    counter.count = 1
    #expect(log.count == 1)
  }

  @Test func nonEquatableValuesAlwaysNotify() {
    let document = Document()
    let log = Log<Int>()
    _ = withTracking {
      document.blob
    } onChange: { _ in
      log.append(1)
    }
    document.blob = Blob(size: 0)
    #expect(log.count == 1)
  }

  @Test func observerMayReadAndWriteTrackedPropertiesDuringDelivery() {
    let counter = Counter()
    _ = withTracking {
      counter.count
    } onChange: { _ in
      counter.step = counter.count * 10
    }
    counter.count = 3
    #expect(counter.step == 30)
  }

  @Test func aWriteInsideApplyAfterTheReadIsNotLost() {
    let counter = Counter()
    let log = Log<[String]>()
    withTracking {
      _ = counter.count
      counter.count = 7
    } onChange: { changes in
      log.append(changes.names)
    }
    #expect(log.all == [["count"]])
  }

  @Test func aWriteInsideApplyBeforeTheReadDoesNotFire() {
    let counter = Counter()
    let log = Log<Int>()
    withTracking {
      counter.count = 7
      _ = counter.count
    } onChange: { _ in
      log.append(1)
    }
    #expect(log.count == 0)
    counter.count = 8
    #expect(log.count == 1)
  }

  @Test func nestedModelsTrackBothLevels() {
    let parent = Parent()
    let log = Log<[String]>()
    _ = withTracking {
      parent.child.count
    } onChange: { changes in
      log.append(changes.names)
    }
    parent.child.count = 1
    #expect(log.all == [["count"]])

    _ = withTracking {
      parent.child.count
    } onChange: { changes in
      log.append(changes.names)
    }
    parent.child = Child(count: 9)
    #expect(log.all == [["count"], ["child"]])
  }

  @Test func handWrittenAccessorsAndComputedPropertiesAreTracked() {
    let thermometer = Thermometer()
    let log = Log<TrackingChanges>()
    let value = withTracking {
      thermometer.fahrenheit
    } onChange: { changes in
      log.append(changes)
    }
    #expect(value == 68)
    thermometer.celsius = 100
    #expect(log.all.map(\.names) == [["celsius"]])
    #expect(log.all.first?.contains(Thermometer.celsiusKey) == true)
  }

  @Test func changesCarryThePropertysOwnName() {
    let person = Person()
    let log = Log<TrackingChanges>()
    _ = withTracking {
      person.firstName
    } onChange: { changes in
      log.append(changes)
    }
    person.firstName = "Grace"
    let changes = try! #require(log.all.first)
    #expect(changes.description == "firstName")
    #expect(changes.contains(person.$firstName))
    #expect(!changes.contains(person.$lastName))
  }

  @Test func nestedScopesAlsoRecordIntoTheOuterOne() {
    let person = Person()
    let outer = Log<Int>()
    withTracking {
      _ = withTracking {
        person.age
      } onChange: { _ in
      }
    } onChange: { _ in
      outer.append(1)
    }
    person.age = 40
    #expect(outer.count == 1)
  }

  @Test func withoutTrackingReadsAreNotRecorded() {
    let person = Person()
    let log = Log<Int>()
    _ = withTracking {
      withoutTracking { person.age }
    } onChange: { _ in
      log.append(1)
    }
    person.age = 1
    #expect(log.count == 0)
  }

  @Test func applyThatThrowsRegistersNothing() {
    struct Failure: Error {}
    let counter = Counter()
    #expect(throws: Failure.self) {
      try withTracking {
        _ = counter.count
        throw Failure()
      } onChange: { _ in
        Issue.record("must not fire")
      }
    }
    counter.count = 1
    #expect(counter.registrar.registrationCount == 0)
  }

  @Test @MainActor func mainActorCallersAreNotifiedOnTheMainActor() async {
    let counter = Counter()
    var seen: [Int] = []  // main-actor state, captured without Sendable
    _ = withTracking {
      counter.count
    } onChange: { _ in
      seen.append(counter.count)
    }
    counter.count = 2
    #expect(seen == [2])
  }
}

@MainActor @Suite struct InPlaceMutationTests {
  final class Inventory: Trackable {
    let registrar = TrackingRegistrar()
    @Tracked var items: [Int] = []
    @Tracked var count = 0
  }

  @Test func appendingNotifiesOnceWithTheProperty() {
    let inventory = Inventory()
    let log = Log<String>()
    withTracking {
      inventory.items
    } onChange: { changes in
      log.append("\(changes) \(inventory.items)")
    }
    inventory.items.append(1)
    #expect(log.all == ["items [1]"])
  }

  @Test func anInPlaceMutationThatChangesNothingNotifiesNobody() {
    let inventory = Inventory()
    let log = Log<Int>()
    let token = observe { _ in log.append(inventory.count) }
    inventory.count += 0
    inventory.items.append(contentsOf: [])
    inventory.count += 2
    #expect(log.all == [0, 2])
    token.cancel()
  }

  @Test func unobservedInPlaceMutationsStillChangeTheValue() {
    let inventory = Inventory()
    for value in 0..<100 { inventory.items.append(value) }
    inventory.count += 5
    #expect(inventory.items.count == 100)
    #expect(inventory.count == 5)
  }
}

/// Registration groups reads by registrar: each registrar once, however its reads interleave
/// with other registrars' (a, b, a), and however many registrars one closure reads.
@MainActor @Suite struct RegistrationGroupingTests {
  @Test func readsOfOneModelAroundAnotherRegisterOnceWithBothProperties() {
    let first = Counter()
    let second = Counter()
    var fired: [String] = []
    withTracking {
      _ = first.count
      _ = second.count
      _ = first.step
    } onChange: { changes in
      fired.append(changes.description)
    }
    #expect(first.registrar.registrationCount == 2)
    #expect(second.registrar.registrationCount == 1)
    first.step = 5
    #expect(fired == ["step"])
    #expect(first.registrar.registrationCount == 0)
    #expect(second.registrar.registrationCount == 0)
  }

  @Test func aContinuousObserverOfManyModelsMovesWithItsReads() {
    let models = (0..<1_000).map { _ in Counter() }
    var runs = 0
    var sum = 0
    let token = observe { _ in
      runs += 1
      // Each model twice, apart: the second pass repeats every registrar.
      sum = models.reduce(0) { $0 + $1.count } + models.reduce(0) { $0 + $1.step }
    }
    #expect(models.allSatisfy { $0.registrar.registrationCount == 2 })
    models[999].step = 2
    #expect(runs == 2)
    #expect(sum == 1_001)
    models[0].count = 1
    #expect(runs == 3)
    token.cancel()
    #expect(models.allSatisfy { $0.registrar.registrationCount == 0 })
  }
}
