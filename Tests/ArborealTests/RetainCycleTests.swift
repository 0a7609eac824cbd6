import Arboreal
import ArborealTestSupport
import Testing

/// Nothing the library makes keeps itself alive: every object, made and released ten thousand
/// times, is freed each time, and so is every model it touched, so the number of live models
/// goes back to zero after each round instead of growing.
@MainActor
@Suite struct RetainCycleTests {
  static let rounds = 10_000

  /// A thousand rounds by default (five seconds under AddressSanitizer, where allocating
  /// dominates), ten thousand in the reliability run (`ARBOREAL_RELIABILITY=1`).
  @Test func aStoreWithChildrenOfEveryKindFreesItselfItsViewStoresAndEveryModel() async {
    let census = Census()
    var watched: [Watched] = []
    for round in 0..<(reliabilitySuiteEnabled ? Self.rounds : 1_000) {
      watched += Self.storeWithEveryKindOfChild(census: census)
      // Checked every hundred rounds: the children's cancelled effects end on other threads,
      // and waiting for them once per round would make the test mostly waiting. The models
      // alive never exceed a hundred rounds' worth.
      guard round % 100 == 99 else { continue }
      guard await Self.expectReleased(watched, census: census, round: round) else { return }
      watched.removeAll(keepingCapacity: true)
    }
  }

  @Test func aCancelledTokenKeptByWhatItsBodyCapturesFreesIt() async {
    let census = Census()
    for round in 0..<Self.rounds {
      var watched: [Watched] = []
      do {
        let holder = TokenHolder(leaf: Leaf(id: round, census: census))
        holder.start()
        _ = holder.leaf.update(action: .grow, environment: ())
        holder.token?.cancel()
        #expect(holder.runs == 2)
        watched = [Watched(holder, "the token's holder"), Watched(holder.leaf, "its model")]
        if let token = holder.token { watched.append(Watched(token, "the token")) }
      }
      guard await Self.expectReleased(watched, census: census, round: round) else { return }
    }
  }

  @Test func releasedTokensAndDerivedValuesFreeWhatTheyRead() async {
    let census = Census()
    for round in 0..<Self.rounds {
      var watched: [Watched] = []
      do {
        let grove = Grove(census: census)
        let total = Derived("total") { grove.count + grove.always.size }
        var seen = 0
        let token = observe { _ in seen = total.value }
        let valueToken = observe({ grove.always.size }, onChange: { _, size in seen = size })
        _ = grove.always.update(action: .grow, environment: ())
        #expect(seen == 1)
        watched = [
          Watched(grove, "the model"), Watched(grove.always, "its child"),
          Watched(token, "the token"), Watched(valueToken, "the value's token"),
        ]
      }
      guard await Self.expectReleased(watched, census: census, round: round) else { return }
    }
  }

  /// Makes a store whose model holds a child in every kind of place, each with an effect
  /// running, with view stores, a binding, a derived value and an observer over them; uses
  /// them, releases them, and returns what to watch.
  private static func storeWithEveryKindOfChild(census: Census) -> [Watched] {
    let store = Store(state: Grove(census: census), environment: ())
    store.send(.plant)
    store.send(.startAll)
    let always = store.viewStore(Grove.always)
    let optional = store.viewStore(Grove.optional)
    let row = store.viewStore(Grove.rows, id: Grove.rowIDs[0])
    let sheet = store.viewStore(Grove.sheet)
    let screens = store.viewStores(Grove.path)
    let size = always.binding(get: \.size, tag: { _ in .grow })
    let count = store.derived("count") { $0.count }
    var seen = 0
    let token = observe { _ in seen = count.value + size.wrappedValue }
    for child in [always] + [optional, row, sheet].compactMap(\.self) + screens {
      child.send(.grow)
    }
    size.wrappedValue = 0
    #expect(seen == store.state.count + 2)
    var watched = [
      Watched(store, "the store"), Watched(store.state, "its model"),
      Watched(always, "a view store"), Watched(token, "the token"),
    ]
    for child in [optional, row, sheet].compactMap(\.self) + screens {
      watched.append(Watched(child, "a view store of \(type(of: child))"))
    }
    return watched
  }

  /// Waits until every watched object and every model of `census` is freed, and records an
  /// issue if one is not. Cancelled effects end on other threads: the wait lets them, for a
  /// bounded number of turns of the main actor, not for a time; a leak fails after them.
  private static func expectReleased(
    _ watched: [Watched], census: Census, round: Int
  ) async -> Bool {
    var turns = 0
    while turns < 100_000, census.live > 0 || watched.contains(where: { $0.object != nil }) {
      await Task.yield()
      turns += 1
    }
    let alive = watched.filter { $0.object != nil }.map(\.name)
    #expect(alive.isEmpty, "round \(round): still alive: \(alive.joined(separator: ", "))")
    #expect(census.live == 0, "round \(round): \(census.live) models still alive")
    return alive.isEmpty && census.live == 0
  }
}

/// An object that keeps a token whose body reads the object: a cycle until the token is
/// cancelled.
@MainActor
private final class TokenHolder {
  let leaf: Leaf
  var token: TrackingToken?
  var runs = 0

  init(leaf: Leaf) {
    self.leaf = leaf
  }

  func start() {
    token = observe { _ in
      _ = self.leaf.size
      self.runs += 1
    }
  }
}
