import ArborealTestSupport
import ArborealTracking
import Testing

// The code of the "How tracking works" article (ArborealTracking.docc/HowTrackingWorks.md) and
// of the module's landing page (ArborealTracking.docc/ArborealTracking.md), verbatim between
// the `article begins` and `article ends` markers, so that it keeps compiling and doing what
// the articles say. `.ci/check-article-code.py` checks that the articles still show it.

enum DocsTracking {
  // article begins: models
  final class Address: Trackable {
    let registrar = TrackingRegistrar()
    @Tracked var city = "London"
  }

  final class Person: Trackable {
    let registrar = TrackingRegistrar()
    @Tracked var name = "Ada"
    @Tracked var age = 36
    @Tracked var address = Address()
    @Tracked var tags: [String] = []  // not read by the observers below
  }
  // article ends: models

  // article begins: hand-written
  final class Thermometer: Trackable {
    let registrar = TrackingRegistrar()
    static let celsiusKey = TrackingKey("celsius")
    private var storage = 20.0

    var celsius: Double {
      get {
        registrar.access(Self.celsiusKey)
        return storage
      }
      set {
        registrar.withMutation(of: Self.celsiusKey) { storage = newValue }
      }
    }

    // Computed from a tracked property: reading it tracks `celsius`.
    var fahrenheit: Double { celsius * 9 / 5 + 32 }
  }
  // article ends: hand-written
}

/// The landing page's model: a `Person` of its own, with a first and a last name.
enum DocsTrackingOverview {
  // article begins: overview-model
  final class Person: Trackable {
    let registrar = TrackingRegistrar()
    @Tracked var firstName = "Ada"
    @Tracked var lastName = "Lovelace"
    @Tracked var age = 36
  }
  // article ends: overview-model
}

@MainActor @Suite struct DocsTrackingTests {
  typealias Person = DocsTracking.Person
  typealias Address = DocsTracking.Address
  typealias Thermometer = DocsTracking.Thermometer

  @Test func theLandingPageExampleRunsAsItSays() {
    typealias Person = DocsTrackingOverview.Person
    let lines = Log<String>()
    func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }

    // article begins: overview
    let person = Person()

    let token = observe { changes in
      print("\(person.firstName) \(person.lastName) is \(person.age)", changes)
    }

    person.firstName = "Grace"  // Grace Lovelace is 36 firstName
    person.age = 36  // equal value: nobody runs

    withTransaction {
      person.lastName = "Hopper"
      person.age = 85
    }  // Grace Hopper is 85 lastName, age

    token.cancel()
    // article ends: overview

    #expect(
      lines.all == [
        "Ada Lovelace is 36 ", "Grace Lovelace is 36 firstName", "Grace Hopper is 85 lastName, age",
      ])
  }

  @Test func whatIsRecorded() {
    let lines = Log<String>()
    func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }

    // article begins: recorded
    let person = Person()

    let city = withTracking {
      person.address.city  // records `address` on person and `city` on the address
    } onChange: { changes in
      print("changed:", changes)
    }
    print(city)  // London

    person.tags.append("math")  // not read in `apply`: nothing runs
    person.address.city = "Paris"  // changed: city
    person.address.city = "Rome"  // a one-shot observer runs once: nothing
    // article ends: recorded

    #expect(lines.all == ["London", "changed: city"])
  }

  @Test func replacingANestedModelMovesTheDependency() {
    let lines = Log<String>()
    func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }

    // article begins: nested
    let person = Person()
    let old = person.address
    let token = observe { _ in
      print("lives in", person.address.city)
    }  // lives in London

    person.address = Address()  // lives in London (a new address, same city)
    old.city = "Oslo"  // the old address is no longer read: nothing
    person.address.city = "Paris"  // lives in Paris
    token.cancel()
    // article ends: nested

    #expect(lines.all == ["lives in London", "lives in London", "lives in Paris"])
  }

  @Test func whenObserversFire() {
    let lines = Log<String>()
    func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }

    // article begins: fire
    let person = Person()
    let token = observe { changes in
      print("\(person.name) is \(person.age)", changes.isEmpty ? "(first run)" : "(\(changes))")
    }  // Ada is 36 (first run)

    person.age = 37  // Ada is 37 (age): after the change, on this thread
    person.age = 37  // an equal value: nothing
    person.tags = ["math"]  // not read: nothing
    token.cancel()
    person.age = 38  // cancelled: nothing
    // article ends: fire

    #expect(lines.all == ["Ada is 36 (first run)", "Ada is 37 (age)"])
  }

  @Test func transactionsNotifyOnce() {
    let lines = Log<String>()
    func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }

    // article begins: transaction
    let person = Person()
    let token = observe { changes in
      print("\(person.name) is \(person.age)", changes)
    }  // Ada is 36

    withTransaction {
      person.name = "Grace"
      person.age = 85
      person.age = 86
    }  // Grace is 86 name, age
    token.cancel()
    // article ends: transaction

    #expect(lines.all == ["Ada is 36 ", "Grace is 86 name, age"])
  }

  @Test func whichPropertiesChanged() {
    let lines = Log<String>()
    func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }

    // article begins: changes
    let person = Person()
    let token = observe { changes in
      _ = (person.name, person.age)
      if changes.contains(person.$age) {
        print("age changed; all changes:", changes.names)
      }
    }

    withTransaction {
      person.name = "Grace"
      person.age = 85
    }  // age changed; all changes: ["name", "age"]
    token.cancel()
    // article ends: changes

    #expect(lines.all == [#"age changed; all changes: ["name", "age"]"#])
  }

  @Test func handWrittenAccessorsAreTracked() {
    let lines = Log<String>()
    func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }

    // article begins: hand-written-use
    let thermometer = Thermometer()
    let token = observe { changes in
      print(thermometer.fahrenheit, changes)
    }  // 68.0

    thermometer.celsius = 100  // 212.0 celsius
    token.cancel()
    // article ends: hand-written-use

    #expect(lines.all == ["68.0 ", "212.0 celsius"])
  }

  @Test func valueObserversSkipEqualValues() {
    let lines = Log<String>()
    func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }

    // article begins: value
    let person = Person()
    let token = observe {
      person.age >= 40
    } onChange: { _, isOver40 in
      print("over 40:", isOver40)
    }

    person.age = 39  // still false: nothing
    person.age = 41  // over 40: true
    person.age = 50  // still true: nothing
    token.cancel()
    // article ends: value

    #expect(lines.all == ["over 40: true"])
  }

  @Test func withoutTrackingReadsAreNotDependencies() {
    let lines = Log<String>()
    func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }

    // article begins: without
    let person = Person()
    let token = observe { _ in
      let age = withoutTracking { person.age }  // read, but not a dependency
      print(person.name, age)
    }  // Ada 36

    person.age = 37  // nothing
    person.name = "Grace"  // Grace 37
    token.cancel()
    // article ends: without

    #expect(lines.all == ["Ada 36", "Grace 37"])
  }
}
