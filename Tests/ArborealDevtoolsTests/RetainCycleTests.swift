import Arboreal
import ArborealDevtools
import ArborealPersistence
import ArborealTesting
import Testing

/// A recorder and a persister, made and released ten thousand times, are freed each time with
/// their store and its model: the store's log handler and the persister's tracking scope hold
/// neither.
@Suite actor RetainCycleTests {
  @Test func aRecorderFreesItselfItsStoreAndItsModelEachTime() async throws {
    for round in 0..<10_000 {
      weak var weakRecorder: StoreRecorder<Board>?
      weak var weakStore: Store<Board>?
      weak var weakModel: Board?
      do {
        let store = Store(state: Board(), environment: ())
        let recorder = try StoreRecorder(store, to: nil)
        (weakRecorder, weakStore, weakModel) = (recorder, store, store.state)
        store.send(.add("milk"))
        await recorder.finish()
        #expect(recorder.steps.count == 1)
      }
      #expect(weakRecorder == nil, "round \(round): the recorder is still alive")
      #expect(weakStore == nil, "round \(round): the store is still alive")
      #expect(weakModel == nil, "round \(round): the model is still alive")
      if weakRecorder != nil || weakStore != nil || weakModel != nil { return }
    }
  }

  @Test func aPersisterFreesItselfItsStoreAndItsModelEachTime() async throws {
    let temporary = try TemporaryFile("board.json")
    let file = PersistedFile<Board>(path: temporary.path)
    // Never advanced: a booked save waits until `finish()` cancels it.
    let clock = TestClock()
    for round in 0..<10_000 {
      weak var weakPersister: StorePersister<Board>?
      weak var weakStore: Store<Board>?
      weak var weakModel: Board?
      do {
        let store = Store(state: Board(), environment: ())
        let persister = try StorePersister(store, to: file, clock: clock)
        (weakPersister, weakStore, weakModel) = (persister, store, store.state)
        // A change books a save (a task that waits on the clock); `finish()` cancels it and
        // saves. One round in a hundred writes the file, the others find it up to date.
        store.send(round % 100 == 0 ? .rename("round \(round)") : .noop)
        store.send(.rename("round \(round - round % 100)"))
        await persister.finish()
      }
      #expect(weakPersister == nil, "round \(round): the persister is still alive")
      #expect(weakStore == nil, "round \(round): the store is still alive")
      #expect(weakModel == nil, "round \(round): the model is still alive")
      if weakPersister != nil || weakStore != nil || weakModel != nil { return }
    }
  }
}
