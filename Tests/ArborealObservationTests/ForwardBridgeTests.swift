import Arboreal
import ArborealObservation
import Observation
import Synchronization
import Testing

/// Forward: an `ObservableTrackable` model's tracked reads register with `Observation`, and its
/// changes fire `Observation`'s callbacks, property by property.
@Suite struct ForwardBridgeTests {
  @Test func aTrackedReadRegistersAndAWriteFiresOnChangeWithTheNewValueStored() {
    let person = BridgedPerson()
    let seen = Mutex<[String]>([])
    let name = withObservationTracking {
      person.name
    } onChange: {
      seen.withLock { $0.append(person.name) }
    }
    #expect(name == "Ada")
    #expect(seen.withLock { $0 }.isEmpty)
    person.name = "Grace"
    #expect(seen.withLock { $0 } == ["Grace"])
    person.name = "Lin"  // one-shot: `Observation` listens no more
    #expect(seen.withLock { $0 } == ["Grace"])
  }

  @Test func eachPropertyIsItsOwnObservationProperty() {
    let person = BridgedPerson()
    let fired = Counter()
    withObservationTracking {
      _ = person.name
    } onChange: {
      fired.increment()
    }
    person.age = 37
    #expect(fired.value == 0)
    person.name = "Grace"
    #expect(fired.value == 1)
  }

  @Test func twoInstancesAreDistinct() {
    let first = BridgedPerson()
    let second = BridgedPerson()
    let fired = Counter()
    withObservationTracking {
      _ = first.name
    } onChange: {
      fired.increment()
    }
    second.name = "Grace"
    #expect(fired.value == 0)
    first.name = "Grace"
    #expect(fired.value == 1)
  }

  @Test func anEqualValueFiresNothing() {
    let person = BridgedPerson()
    let fired = Counter()
    withObservationTracking {
      _ = person.name
    } onChange: {
      fired.increment()
    }
    person.name = "Ada"
    #expect(fired.value == 0)
  }

  @Test func inPlaceMutationFires() {
    let person = BridgedPerson()
    let fired = Counter()
    withObservationTracking {
      _ = person.age
    } onChange: {
      fired.increment()
    }
    person.age += 1
    #expect(fired.value == 1)
    #expect(person.age == 37)
  }

  @Test func handWrittenAccessorsAreBridged() {
    let person = BridgedPerson()
    let fired = Counter()
    withObservationTracking {
      _ = person.nickname
    } onChange: {
      fired.increment()
    }
    person.name = "Grace"
    #expect(fired.value == 0)
    person.nickname = "Amazing"
    #expect(fired.value == 1)
  }

  @Test func arborealTrackingStillWorksOnABridgedModel() {
    let person = BridgedPerson()
    let observation = Counter()
    let ours = Mutex<[String]>([])
    withObservationTracking {
      withTracking {
        _ = person.name
      } onChange: { changes in
        ours.withLock { $0.append(changes.description) }
      }
    } onChange: {
      observation.increment()
    }
    person.name = "Grace"
    #expect(observation.value == 1)
    #expect(ours.withLock { $0 } == ["name"])
  }

  @Test func aTransactionBatchesArborealObserversButNotObservation() {
    let person = BridgedPerson()
    let observation = Counter()
    let ours = Mutex<[String]>([])
    withObservationTracking {
      _ = (person.name, person.age)
    } onChange: {
      observation.increment()
    }
    let token = observe { changes in
      _ = (person.name, person.age)
      if !changes.isEmpty { ours.withLock { $0.append(changes.description) } }
    }
    withTransaction {
      person.name = "Grace"
      // `Observation` heard at once, inside the transaction.
      #expect(observation.value == 1)
      person.age = 40
    }
    #expect(ours.withLock { $0 } == ["name, age"])
    token.cancel()
  }

  @Test func nestedBridgedModelsRegisterBothLevels() async {
    let app = AppModel()
    let fired = Counter()
    withObservationTracking {
      _ = app.child.count
    } onChange: {
      fired.increment()
    }
    await MainActor.run { _ = app.child.update(action: .increment, environment: ()) }
    #expect(fired.value == 1)
  }

  @Test func aModelThatDoesNotOptInForwardsNothing() {
    let person = UnbridgedPerson()
    #expect(!person.isBridgedToObservation)
    #expect(BridgedPerson().isBridgedToObservation)
    let fired = Counter()
    withObservationTracking {
      _ = person.name
    } onChange: {
      fired.increment()
    }
    person.name = "Grace"
    #expect(fired.value == 0)
  }

  @Test func changesFromAnotherThreadFireOnThatThread() async {
    let person = BridgedPerson()
    let fired = Counter()
    withObservationTracking {
      _ = person.name
    } onChange: {
      fired.increment()
    }
    await Task.detached { person.name = "Grace" }.value
    #expect(fired.value == 1)
  }

  @Test func theObservationsSequenceYieldsEachSettledValue() async {
    // `Observations` is in the toolchain since Swift 6.2; on Apple platforms, the OS since 26.
    guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return }
    let person = BridgedPerson()
    let values = Observations { person.name }
    var iterator = values.makeAsyncIterator()
    #expect(await iterator.next() == "Ada")
    person.name = "Grace"
    #expect(await iterator.next() == "Grace")
    person.age = 50  // another property: no element
    person.name = "Lin"
    #expect(await iterator.next() == "Lin")
  }

  @Test func releasingABridgedModelReleasesItsMirror() {
    weak var weakPerson: BridgedPerson?
    do {
      let person = BridgedPerson()
      weakPerson = person
      withObservationTracking {
        _ = person.name
      } onChange: {
      }
    }
    #expect(weakPerson == nil)
  }

  @Test func aModelWithMorePropertiesThanTheMirrorHasSlotsKeepsThemApart() {
    // The mirror files the first sixteen properties' key paths in slots read without a
    // lock, and the rest in a dictionary: every property stays its own, in either.
    let wide = WideBridgedModel()
    for observed in [0, 5, 16, 19] {
      let fired = Counter()
      withObservationTracking {
        _ = wide[observed]
      } onChange: {
        fired.increment()
      }
      for other in 0..<WideBridgedModel.count where other != observed { wide[other] += 1 }
      #expect(fired.value == 0, "property \(observed) fired for another")
      wide[observed] += 1
      #expect(fired.value == 1, "property \(observed) did not fire")
    }
  }

  @Test func threadsFormingKeyPathsAtOnceAllRegister() async {
    // Every thread reads every property for the first time together: the key paths are
    // formed under the mirror's lock and read without it (ThreadSanitizer checks the order).
    let wide = WideBridgedModel()
    let fired = Counter()
    await withTaskGroup(of: Void.self) { group in
      for thread in 0..<4 {
        group.addTask {
          for property in 0..<WideBridgedModel.count {
            withObservationTracking {
              _ = wide[(property + thread * 5) % WideBridgedModel.count]
            } onChange: {
              fired.increment()
            }
          }
        }
      }
    }
    for property in 0..<WideBridgedModel.count { wide[property] += 1 }
    // Each of the 4 × 20 one-shot registrations fires once, for its own property.
    #expect(fired.value == 4 * WideBridgedModel.count)
  }
}
