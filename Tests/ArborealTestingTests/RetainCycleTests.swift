import Arboreal
import ArborealTesting
import Testing

/// A test store, made and released ten thousand times, is freed each time with its store and
/// its model: neither the store's interceptor nor the handles it keeps hold it.
@MainActor
@Suite struct RetainCycleTests {
  @Test func aTestStoreFreesItselfAndItsModelEachTime() async {
    for round in 0..<10_000 {
      weak var weakStore: TestStore<Loader>?
      weak var weakModel: Loader?
      do {
        let store = TestStore(state: Loader(), environment: LoaderEnvironment())
        weakStore = store
        weakModel = store.state
        await store.send(.increment) { #expect($0.count == 1) }
        await store.send(.load) { #expect($0.isLoading) }
        await store.receive(.loaded(42)) {
          #expect($0.count == 42)
          #expect(!$0.isLoading)
        }
        await store.finish()
      }
      // The effect's task may still be returning on another thread: a bounded wait for it.
      var turns = 0
      while weakModel != nil, turns < 100_000 {
        await Task.yield()
        turns += 1
      }
      #expect(weakStore == nil, "round \(round): the test store is still alive")
      #expect(weakModel == nil, "round \(round): its model is still alive")
      if weakStore != nil || weakModel != nil { return }
    }
  }
}
