import Arboreal
import ArborealObservation
import Observation
import Synchronization
import Testing

/// A store's `state` and a `ViewStore` work through the bridge in both directions.
@MainActor @Suite struct StoreBridgeTests {
  @Test func forwardStoreStateFiresObservationOnSend() {
    let store = Store(state: AppModel(), environment: ())
    let fired = Counter()
    let count = withObservationTracking {
      store.state.count
    } onChange: {
      fired.increment()
    }
    #expect(count == 0)
    store.send(.increment)
    #expect(fired.value == 1)
    #expect(store.state.count == 1)
  }

  @Test func forwardViewStoreStateFiresObservationOnAChildAction() {
    let store = Store(state: AppModel(), environment: ())
    let child = store.viewStore(AppModel.child)
    let fired = Counter()
    withObservationTracking {
      _ = child.state.count
    } onChange: {
      fired.increment()
    }
    store.send(.increment)  // the parent's count: not read
    #expect(fired.value == 0)
    child.send(.increment)
    #expect(fired.value == 1)
  }

  @Test func forwardObservationsSequenceFollowsAStore() async {
    // `Observations` is in the toolchain since Swift 6.2; on Apple platforms, the OS since 26.
    guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return }
    let store = Store(state: AppModel(), environment: ())
    var iterator = Observations { store.state.count }.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    store.send(.increment)
    store.send(.increment)
    // Two sends before the sequence resumes: it yields the settled value.
    #expect(await iterator.next() == 2)
  }

  @Test func backwardStoreStateDependsOnAnObservableService() {
    let session = Session()
    let store = Store(state: AppModel(session: session), environment: ())
    var greetings: [String] = []
    let token = observe { _ in greetings.append(store.state.greeting) }
    session.userName = "grace"
    store.send(.increment)
    #expect(greetings == ["Hello, ada (0)", "Hello, grace (0)", "Hello, grace (1)"])
    token.cancel()
  }

  @Test func backwardViewStoreDependsOnAnObservableService() {
    let session = Session()
    let store = Store(state: AppModel(session: session), environment: ())
    let child = store.viewStore(AppModel.child)
    var lines: [String] = []
    let token = observe { _ in
      lines.append("\(child.state.count) \(trackingObservation { session.userName })")
    }
    child.send(.increment)
    session.userName = "grace"
    #expect(lines == ["0 ada", "1 ada", "1 grace"])
    token.cancel()
  }

  @Test func bothDirectionsAtOnce() {
    // An `Observation` consumer reads a bridged store model whose property depends on an
    // `@Observable` service: the service's change reaches it through Arboreal.
    let session = Session()
    let store = Store(state: AppModel(session: session), environment: ())
    var renders: [String] = []
    let token = observe { _ in renders.append(store.state.greeting) }
    let fired = Counter()
    withObservationTracking {
      _ = store.state.count
    } onChange: {
      fired.increment()
    }
    session.userName = "grace"
    #expect(fired.value == 0)
    store.send(.increment)
    #expect(fired.value == 1)
    #expect(renders == ["Hello, ada (0)", "Hello, grace (0)", "Hello, grace (1)"])
    token.cancel()
  }
}
