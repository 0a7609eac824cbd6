import ArborealTracking
import Testing

/// The examples of a signals library's README (Preact signals: `signal`, `computed`,
/// `effect`, `batch`, `peek`, disposing an effect), ported to tracked properties, derived
/// values, `observe`, `withTransaction` and `withoutTracking` as a user would write them, with
/// the output the original documents.
@MainActor
@Suite struct PortedSignalsTests {
  /// `const name = signal("Jane"); const surname = signal("Doe");`
  /// `const fullName = computed(() => name.value + " " + surname.value);`
  @MainActor final class Person: Trackable {
    let registrar = TrackingRegistrar()
    @Tracked var name = "Jane"
    @Tracked var surname = "Doe"
    @Derived({ @MainActor (person: Person) in person.name + " " + person.surname })
    var fullName: String
  }

  @Test func anEffectRunsAtOnceAndAfterEachChangeOfWhatItRead() {
    let person = Person()
    var log: [String] = []
    // `effect(() => console.log(fullName.value))`: logs "Jane Doe".
    let effect = observe { _ in log.append(person.fullName) }
    #expect(log == ["Jane Doe"])
    // `name.value = "John"`: logs "John Doe".
    person.name = "John"
    #expect(log == ["Jane Doe", "John Doe"])
    effect.cancel()
  }

  @Test func aBatchNotifiesOnceWithEveryChange() {
    let person = Person()
    var log: [String] = []
    let effect = observe { _ in log.append(person.fullName) }
    // `batch(() => { name.value = "Foo"; surname.value = "Bar"; })`: logs "Foo Bar" once.
    withTransaction {
      person.name = "Foo"
      person.surname = "Bar"
    }
    #expect(log == ["Jane Doe", "Foo Bar"])
    effect.cancel()
  }

  @Test func aComputedValueIsLazyAndCached() {
    let computations = Tally()
    let counter = Counter()
    // `const doubled = computed(() => count.value * 2)`: nothing runs until read.
    let doubled = Derived("doubled") { () -> Int in
      computations.add()
      return counter.count * 2
    }
    #expect(computations.value == 0)
    #expect(doubled.value == 0)
    #expect(doubled.value == 0)
    #expect(computations.value == 1)
    counter.count = 4
    #expect(computations.value == 1)
    #expect(doubled.value == 8)
    #expect(computations.value == 2)
  }

  @Test func peekReadsWithoutSubscribing() {
    let person = Person()
    var log: [String] = []
    // `effect(() => console.log(name.value, surname.peek()))`: a change of `surname` alone
    // does not run it.
    let effect = observe { _ in
      log.append(person.name + " " + withoutTracking { person.surname })
    }
    person.surname = "Smith"
    #expect(log == ["Jane Doe"])
    person.name = "Ann"
    #expect(log == ["Jane Doe", "Ann Smith"])
    effect.cancel()
  }

  @Test func aDisposedEffectRunsNoMore() {
    let person = Person()
    var log: [String] = []
    // `const dispose = effect(...); dispose();`
    let dispose = observe { _ in log.append(person.fullName) }
    dispose.cancel()
    person.name = "Foo"
    #expect(log == ["Jane Doe"])
  }

  @Test func anEqualComputedResultStopsPropagation() {
    let counter = Counter()
    var log: [Bool] = []
    // `const isEven = computed(() => count.value % 2 === 0)`; an effect on `isEven` runs only
    // when the parity changes.
    let isEven = Derived("isEven") { counter.count % 2 == 0 }
    let effect = observe { _ in log.append(isEven.value) }
    counter.count = 2
    counter.count = 3
    counter.count = 5
    #expect(log == [true, false])
    effect.cancel()
  }
}
