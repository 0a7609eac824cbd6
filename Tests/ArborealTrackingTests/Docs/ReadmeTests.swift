import ArborealTestSupport
import ArborealTracking
import Testing

// The README's example, verbatim, so that it keeps compiling and doing what it says.

enum Readme {
  final class Person: Trackable {
    let registrar = TrackingRegistrar()
    @Tracked var firstName = "Ada"
    @Tracked var lastName = "Lovelace"
    @Tracked var age = 36
  }
}

@MainActor @Suite struct ReadmeTests {
  @Test func theReadmeExampleWorks() {
    #expect(Readme.run() == Readme.expected)
  }
}

@MainActor extension Readme {
  static let expected = [
    "name: Ada",
    "Ada Lovelace is 36 ",
    "changed: firstName",
    "Grace Lovelace is 36 firstName",
    "Grace Hopper is 85 lastName, age",
  ]

  static func run() -> [String] {
    let lines = Log<String>()
    func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }

    // README begins
    let person = Person()

    // One-shot: called once, after the first change of anything `apply` read.
    let name = withTracking {
      person.firstName
    } onChange: { changes in
      print("changed:", changes)  // changed: firstName
    }
    print("name:", name)  // name: Ada

    // Continuous: runs now and after every change; the token ends it.
    let token = observe { changes in
      print("\(person.firstName) \(person.lastName) is \(person.age)", changes)
    }

    person.firstName = "Grace"  // both observers run
    person.age = 36  // equal value: nobody runs

    // A transaction notifies each observer once, with everything that changed.
    withTransaction {
      person.lastName = "Hopper"
      person.age = 85
    }  // Grace Hopper is 85 lastName, age

    token.cancel()
    // README ends

    return lines.all
  }
}
