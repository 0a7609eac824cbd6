import Arboreal
import ArborealTestSupport
import Testing

// The README's store example, verbatim, so that it keeps compiling and doing what it says.

enum ReadmeStore {
  // A child component: a counter.
  final class Counter: ArborealModel {
    enum Action: Sendable {
      case increment
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var count = 0

    func update(action: Action, environment: Void) -> Fx<Action> {
      switch action {
      case .increment:
        count += 1
        return .none
      }
    }
  }

  // The services effects use; tests pass fakes.
  struct Quotes: Sendable {
    var fetch: @Sendable (String) async throws -> String
  }

  // The app: a name, a quote that an effect loads, and a child counter.
  final class App: ArborealModel {
    enum Action: Sendable {
      case setName(String)
      case loadQuote
      case quoteLoaded(String)
      case counter(Counter.Action)
    }

    let registrar = TrackingRegistrar()
    @Tracked private(set) var name = "Ada"
    @Tracked private(set) var quote = ""
    @Tracked private(set) var counter = Counter()

    // The route to the child, declared once (the counter needs no services): `forward` and
    // view stores take it.
    static let counter = ChildRoute.child(\App.counter, environment: { _ in }, tag: Action.counter)

    func update(action: Action, environment: Quotes) -> Fx<Action> {
      switch action {
      case .setName(let name):
        self.name = name
        return .none
      case .loadQuote:
        let name = self.name  // an effect cannot capture the model: copy what it needs
        return Fx {
          .quoteLoaded(try await environment.fetch(name))
        } catch: { error in
          .quoteLoaded("no quote: \(error)")
        }
        .cancellable(id: "quote", cancelInFlight: true)
      case .quoteLoaded(let quote):
        self.quote = quote
        return .none
      case .counter(let action):
        return forward(action, to: Self.counter, environment: environment)
      }
    }
  }
}

@MainActor @Suite struct ReadmeStoreTests {
  @Test func theReadmeStoreExampleWorks() async {
    let lines = await ReadmeStore.run()
    #expect(lines == ReadmeStore.expected)
  }
}

extension ReadmeStore {
  static let expected = [
    "Ada has counted 0 ",
    "Grace has counted 0 name",
    "Grace has counted 1 count",
    "Grace: “Imagination is the discovery faculty.”",
    "Grace has counted 2 count",
    "the action changed: count",
  ]

  @MainActor static func run() async -> [String] {
    let lines = Log<String>()
    func print(_ items: Any...) { lines.append(items.map { "\($0)" }.joined(separator: " ")) }

    // README begins
    let quotes = Quotes(fetch: { name in "\(name): “Imagination is the discovery faculty.”" })
    let store = Store(state: App(), environment: quotes)

    // Observers run after each action that changed what they read, once per action.
    let token = observe { changes in
      print("\(store.state.name) has counted \(store.state.counter.count)", changes)
    }  // Ada has counted 0

    // A binding reads from the state; setting it sends an action.
    let name = store.binding(get: \.name, tag: App.Action.setName)
    name.wrappedValue = "Grace"  // Grace has counted 0 name

    // A view store scoped to the child, through its route, sends child actions tagged for the
    // parent.
    let counter = store.viewStore(App.counter)
    counter.send(.increment)  // Grace has counted 1 count

    // An effect runs off the main actor; awaiting the handle waits for the actions it sends.
    await store.send(.loadQuote).value
    print(store.state.quote)  // Grace: “Imagination is the discovery faculty.”

    // A hook sees every action and the properties it changed.
    store.addLogHandler { entry in print("the action changed:", entry.changes) }
    counter.send(.increment)  // Grace has counted 2 count, then: the action changed: count
    token.cancel()
    // README ends

    return lines.all
  }
}
