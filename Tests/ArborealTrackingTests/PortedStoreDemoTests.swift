import ArborealTracking
import Testing

/// Two more ports, written as a user of those libraries would write them with this API, with
/// the output the originals document:
///
/// - alien-signals' README: `signal`, `computed`, `effect` and `effectScope`;
/// - a SolidJS-style store demo: one nested store of todos (`createStore`), effects that
///   re-run only for the paths they read, `setStore("todos", 0, "done", true)` and a batch.
///
/// What felt awkward: a signal is a property of a model, so a one-off `signal(1)` needs a class
/// (`Counter` below); `effectScope` has no counterpart, and a scope is an array of tokens that
/// the caller cancels; Solid's path setter is a plain assignment through the model tree, which
/// needs each level to be a model (a `Todo` class) to be fine-grained, where Solid proxies
/// plain objects.
@MainActor
@Suite struct PortedStoreDemoTests {
  // MARK: alien-signals' README

  /// `const count = signal(1)`.
  final class Counter: Trackable {
    let registrar = TrackingRegistrar()
    @Tracked var count = 1
    /// `const doubleCount = computed(() => count() * 2)`.
    @Derived({ @MainActor (counter: Counter) in counter.count * 2 }) var doubleCount: Int
  }

  @Test func signalComputedAndEffect() {
    let counter = Counter()
    var console: [String] = []
    // `effect(() => { console.log(`Count is: ${count()}`) })`: "Count is: 1".
    let effect = observe { _ in console.append("Count is: \(counter.count)") }
    #expect(console == ["Count is: 1"])
    #expect(counter.doubleCount == 2)
    counter.count = 2
    #expect(console == ["Count is: 1", "Count is: 2"])
    #expect(counter.doubleCount == 4)
    effect.cancel()
  }

  @Test func anEffectScopeStopsEveryEffectInIt() {
    let counter = Counter()
    var console: [String] = []
    // `const stopScope = effectScope(() => { effect(() => …) })`: a scope is the tokens.
    let scope = [observe { _ in console.append("Count in scope: \(counter.count)") }]
    counter.count = 2
    // `stopScope()`, then `count(3)`: no output.
    for effect in scope { effect.cancel() }
    counter.count = 3
    #expect(console == ["Count in scope: 1", "Count in scope: 2"])
  }

  // MARK: A SolidJS-style store

  final class Todo: Trackable {
    let registrar = TrackingRegistrar()
    @Tracked var text: String
    @Tracked var done = false

    init(_ text: String) {
      self.text = text
    }
  }

  /// `const [state, setState] = createStore({ todos: [...], filter: "all" })`.
  final class TodoState: Trackable {
    let registrar = TrackingRegistrar()
    @Tracked var todos = [Todo("Learn"), Todo("Build"), Todo("Ship")]
    @Tracked var filter = "all"
    @Derived({ @MainActor (state: TodoState) in state.todos.count { $0.done } })
    var doneCount: Int
    @Derived({ @MainActor (state: TodoState) -> [String] in
      state.todos.filter { state.filter == "all" || $0.done == (state.filter == "done") }
        .map(\.text)
    })
    var visible: [String]
  }

  @Test func effectsRerunOnlyForThePathsTheyRead() {
    let state = TodoState()
    var log: [String] = []
    // `createEffect(() => console.log("done:", doneCount()))`
    let counting = observe { _ in log.append("done: \(state.doneCount)") }
    // `createEffect(() => console.log("first:", state.todos[0].text))`
    let first = observe { _ in log.append("first: \(state.todos[0].text)") }
    // `createEffect(() => console.log("visible:", visible().join()))`
    let listing = observe { _ in log.append("visible: \(state.visible.joined(separator: ","))") }
    #expect(log == ["done: 0", "first: Learn", "visible: Learn,Build,Ship"])
    log = []

    // `setState("todos", 1, "done", true)`: the count and (for "all") nothing else.
    state.todos[1].done = true
    #expect(log == ["done: 1"])
    log = []

    // `setState("filter", "done")`: only the list.
    state.filter = "done"
    #expect(log == ["visible: Build"])
    log = []

    // `batch(() => { setState("todos", 0, "text", "Read"); setState("todos", 0, "done", true) })`
    withTransaction {
      state.todos[0].text = "Read"
      state.todos[0].done = true
    }
    #expect(log.sorted() == ["done: 2", "first: Read", "visible: Read,Build"])
    for token in [counting, first, listing] { token.cancel() }
  }
}
