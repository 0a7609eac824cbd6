import Synchronization
import Testing

@testable import ArborealTracking

/// `@Tracked("name")`: the given name is what changes and keys report, carried by the
/// property's id rather than stored in every instance (see `ExplicitNames`).
@Suite struct ExplicitNameTests {
  /// `@unchecked Sendable`: written and observed on the test's thread only.
  final class Person: Trackable, @unchecked Sendable {
    let registrar = TrackingRegistrar()
    @Tracked("first") var firstName = ""
    @Tracked var lastName = ""
  }

  @Test func aGivenNameIsReportedInChangesAndKeys() {
    let person = Person()
    let names = Mutex<[String]>([])
    withTracking {
      _ = person.firstName
      _ = person.lastName
    } onChange: { changes in
      names.withLock { $0 += changes.map(\.name) }
    }
    person.firstName = "Ada"
    #expect(names.withLock { $0 } == ["first"])
    #expect(person.$firstName.name == "first")
    #expect(person.$lastName.name == "lastName")
  }

  @Test func instancesShareTheNameButNotTheKey() {
    let ada = Person()
    let grace = Person()
    #expect(ada.$firstName != grace.$firstName)
    #expect(ada.$firstName.name == "first")
    #expect(grace.$firstName.name == "first")
  }

  @Test func aNameIsInternedOnceAndFoundFromAnyIdThatCarriesIt() {
    let name = "explicit-name-tests-\(UInt64.random(in: 0...UInt64.max))"
    let first = TrackingKey.nextID(named: name)
    let second = TrackingKey.nextID(named: name)
    #expect(first != second)
    #expect(first & ExplicitNames.counterMask != second & ExplicitNames.counterMask)
    #expect(first >> ExplicitNames.counterBits == second >> ExplicitNames.counterBits)
    #expect(ExplicitNames.name(of: first) == name)
    #expect(ExplicitNames.name(of: second) == name)
    #expect(ExplicitNames.name(of: TrackingKey.nextID()) == nil)
    #expect(TrackingKey.nextID(named: "") >> ExplicitNames.counterBits == 0)
  }

  @Test func aFullTableRefusesNewNamesKeepsTheOldOnesAndSaysSoOnce() {
    var table = ExplicitNameTable(capacity: 2)
    #expect(table.intern("a") == (1, false))
    #expect(table.intern("b") == (2, false))
    #expect(table.intern("a") == (1, false))
    #expect(table.intern("c") == (nil, true))
    #expect(table.intern("d") == (nil, false))
    #expect(table.intern("b") == (2, false))
    #expect(table.name(at: 2) == "b")
    #expect(table.names == ["a", "b"])
    #expect(table.refused)
  }
}
