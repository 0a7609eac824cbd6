import Arboreal
import ArborealObservation
import Observation
import Synchronization
import Testing

/// Backward: `@Observable` properties read through `trackingObservation` inside Arboreal
/// tracking are dependencies of the Arboreal observer.
@Suite struct BackwardBridgeTests {
  @Test func withTrackingFiresOnceAfterTheChangeWithTheNewValue() {
    let session = Session()
    let seen = Mutex<[String]>([])
    let name = withTracking {
      trackingObservation { session.userName }
    } onChange: { changes in
      seen.withLock { $0.append("\(changes): \(session.userName)") }
    }
    #expect(name == "ada")
    session.userName = "grace"
    #expect(seen.withLock { $0 } == ["observation: grace"])
    session.userName = "lin"
    #expect(seen.withLock { $0 }.count == 1)
  }

  @Test func onlyPropertiesReadAreDependencies() {
    let session = Session()
    let fired = Counter()
    withTracking {
      _ = trackingObservation { session.userName }
    } onChange: { _ in
      fired.increment()
    }
    session.unrelated += 1
    #expect(fired.value == 0)
    session.userName = "grace"
    #expect(fired.value == 1)
  }

  @Test func observeReRunsAfterEveryChange() {
    let session = Session()
    let seen = Mutex<[String]>([])
    let token = observe { _ in
      let name = trackingObservation { session.userName }
      seen.withLock { $0.append(name) }
    }
    session.userName = "grace"
    session.userName = "lin"
    #expect(seen.withLock { $0 } == ["ada", "grace", "lin"])
    token.cancel()
    session.userName = "ada"
    #expect(seen.withLock { $0 } == ["ada", "grace", "lin"])
  }

  @Test func mixedDependenciesBothNotify() {
    let session = Session()
    let person = BridgedPerson()
    let seen = Mutex<[String]>([])
    let token = observe { changes in
      let line = "\(person.name)/\(trackingObservation { session.userName })"
      seen.withLock { $0.append(changes.isEmpty ? line : "\(line) [\(changes)]") }
    }
    person.name = "Grace"
    session.userName = "grace"
    #expect(seen.withLock { $0 } == ["Ada/ada", "Grace/ada [name]", "Grace/grace [observation]"])
    token.cancel()
  }

  @Test func aTransactionGroupsObservationChangesWithTheOthers() {
    let session = Session()
    let person = BridgedPerson()
    let runs = Counter()
    let token = observe { _ in
      _ = (person.name, trackingObservation { session.userName }); runs.increment()
    }
    withTransaction {
      person.name = "Grace"
      session.userName = "grace"
    }
    #expect(runs.value == 2)
    token.cancel()
  }

  @Test func outsideTrackingItJustRuns() {
    let session = Session()
    #expect(trackingObservation { session.userName } == "ada")
    // Not observed: `withoutTracking` hides the enclosing scope as well.
    let fired = Counter()
    withTracking {
      withoutTracking { _ = trackingObservation { session.userName } }
    } onChange: { _ in
      fired.increment()
    }
    session.userName = "grace"
    #expect(fired.value == 0)
  }

  @Test func changesOnAnotherThreadReachTheObserver() async {
    let session = Session()
    let fired = Counter()
    withTracking {
      _ = trackingObservation { session.userName }
    } onChange: { _ in
      fired.increment()
    }
    await Task.detached { session.userName = "grace" }.value
    #expect(fired.value == 1)
  }
}
