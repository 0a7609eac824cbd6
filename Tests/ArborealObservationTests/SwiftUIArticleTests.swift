import Arboreal
import ArborealObservation
import Observation
import Testing

// The non-UI half of the example in "Using Arboreal with SwiftUI": the model and service,
// verbatim between the `article begins` and `article ends` markers (`.ci/check-article-code.py`
// checks that the article still shows them), and what `CounterView.body` reads, rendered under
// `withObservationTracking` as SwiftUI does. The views themselves need SwiftUI.

enum SwiftUIArticle {
  // article begins: model
  final class CounterModel: ArborealModel, ObservableTrackable {
    enum Action: Sendable {
      case increment
      case decrement
      case setStep(Int)
    }

    let registrar = TrackingRegistrar.observable()
    @Tracked private(set) var count = 0
    @Tracked private(set) var step = 1
    let session: Session

    init(session: Session) { self.session = session }

    /// Reads an `@Observable` service: Arboreal observers of `title` depend on it too.
    var title: String { trackingObservation { "\(session.userName)'s counter" } }

    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .increment: count += step
      case .decrement: count -= step
      case .setStep(let step): self.step = step
      }
      return .none
    }
  }

  /// An existing `@Observable` service, shared with code that is not Arboreal.
  @Observable final class Session {
    var userName = "Ada"
  }
  // article ends: model
}

typealias ArticleCounterModel = SwiftUIArticle.CounterModel
typealias ArticleSession = SwiftUIArticle.Session

/// What `CounterView.body` reads and shows, without the views.
@MainActor
func renderCounterView(_ store: Store<ArticleCounterModel>) -> [String] {
  let step = store.binding(get: \.step, tag: ArticleCounterModel.Action.setStep)
  return [store.state.title, "\(store.state.count)", "Step: \(step.wrappedValue)"]
}

/// A stand-in for SwiftUI: renders under `withObservationTracking` and records invalidations.
@MainActor
final class FakeHost {
  let store: Store<ArticleCounterModel>
  private(set) var frame: [String] = []
  private let invalidations = Counter()

  init(store: Store<ArticleCounterModel>) { self.store = store }

  func render() {
    frame = withObservationTracking {
      renderCounterView(store)
    } onChange: { [invalidations] in
      invalidations.increment()
    }
  }

  var invalidationCount: Int { invalidations.value }
}

@MainActor @Suite struct SwiftUIArticleTests {
  @Test func theViewIsInvalidatedByActionsAndReRendersTheNewState() {
    let session = ArticleSession()
    let host = FakeHost(store: Store(state: ArticleCounterModel(session: session), environment: ()))
    host.render()
    #expect(host.frame == ["Ada's counter", "0", "Step: 1"])

    host.store.send(.increment)
    #expect(host.invalidationCount == 1)
    host.render()
    #expect(host.frame == ["Ada's counter", "1", "Step: 1"])

    // The stepper's binding sends `.setStep`.
    host.store.binding(get: \.step, tag: ArticleCounterModel.Action.setStep).wrappedValue = 5
    #expect(host.invalidationCount == 2)
    host.render()
    host.store.send(.increment)
    host.render()
    #expect(host.frame == ["Ada's counter", "6", "Step: 5"])
  }

  @Test func theViewIsInvalidatedByTheObservableService() {
    let session = ArticleSession()
    let host = FakeHost(store: Store(state: ArticleCounterModel(session: session), environment: ()))
    host.render()
    session.userName = "Grace"
    #expect(host.invalidationCount == 1)
    host.render()
    #expect(host.frame[0] == "Grace's counter")
  }

  @Test func anArborealObserverOfTheTitleFollowsTheService() {
    let session = ArticleSession()
    let store = Store(state: ArticleCounterModel(session: session), environment: ())
    var titles: [String] = []
    let token = observe { _ in titles.append(store.state.title) }
    session.userName = "Grace"
    #expect(titles == ["Ada's counter", "Grace's counter"])
    token.cancel()
  }
}
