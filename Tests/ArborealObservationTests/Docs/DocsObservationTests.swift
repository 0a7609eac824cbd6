import Arboreal
import ArborealObservation
import Observation
import Synchronization
import Testing

// The code of the module's landing page (ArborealObservation.docc/ArborealObservation.md),
// verbatim between the `article begins` and `article ends` markers, so that it keeps compiling
// and doing what the page says. `.ci/check-article-code.py` checks that the page still shows it.

enum DocsObservation {
  // article begins: forward-model
  final class Counter: ArborealModel, ObservableTrackable {
    enum Action: Sendable { case increment }

    let registrar = TrackingRegistrar.observable()
    @Tracked private(set) var count = 0

    func update(action: Action, environment: Void) -> Fx<Action> {
      count += 1
      return .none
    }
  }
  // article ends: forward-model

  // article begins: backward-model
  @Observable final class Session {
    var userName = "ada"
  }
  // article ends: backward-model
}

/// What the page's examples print, from any thread.
private final class Printed: Sendable {
  private let lines = Mutex<[String]>([])
  var all: [String] { lines.withLock { $0 } }
  func append(_ line: String) { lines.withLock { $0.append(line) } }
}

@MainActor @Suite struct DocsObservationTests {
  typealias Counter = DocsObservation.Counter
  typealias Session = DocsObservation.Session

  @Test func observationHearsOfAStoreChange() {
    let printed = Printed()
    @Sendable func print(_ line: String) { printed.append(line) }

    // article begins: forward
    let store = Store(state: Counter(), environment: ())
    withObservationTracking {
      _ = store.state.count
    } onChange: {
      print("re-render")
    }
    store.send(.increment)  // prints "re-render"
    // article ends: forward

    #expect(printed.all == ["re-render"])
  }

  @Test func anArborealObserverHearsOfAnObservableChange() {
    let printed = Printed()
    func print(_ line: String) { printed.append(line) }

    // article begins: backward
    let session = Session()
    let token = observe { _ in print(trackingObservation { session.userName }) }
    session.userName = "grace"  // prints "grace"
    token.cancel()
    // article ends: backward

    #expect(printed.all == ["ada", "grace"])
  }
}
