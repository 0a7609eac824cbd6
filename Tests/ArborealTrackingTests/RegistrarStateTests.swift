import Synchronization
import Testing

@testable import ArborealTracking

/// The registrar's lock-protected state machine, without the registrar around it.
@Suite struct RegistrarStateTests {
  private func observer() -> ObserverCore {
    ObserverCore(
      kind: .continuous, delivery: .synchronous, callback: UncheckedCallback({ _ in }), origin: nil)
  }

  @Test func aWriteWithoutObserversCreatesAnEntryThatCompactionDrops() {
    var state = RegistrarState()
    let key = TrackingKey("count")
    #expect(state.recordWrite(of: key, epoch: 1).isEmpty)
    #expect(state.changed(key.id, since: 0)?.name == "count")
    #expect(state.changed(key.id, since: 1) == nil)
    state.compact()
    #expect(state.entries.isEmpty)
  }

  @Test func observersAreReturnedOnWriteAndRemovedOnce() {
    var state = RegistrarState()
    let key = TrackingKey("count")
    let first = observer()
    let second = observer()
    state.add(first, to: key.id)
    state.add(second, to: key.id)
    #expect(state.recordWrite(of: key, epoch: 3).count == 2)
    state.remove(first, from: key.id)
    state.remove(first, from: key.id)
    #expect(state.recordWrite(of: key, epoch: 4).map { $0 === second } == [true])
    #expect(state.registrationCount == 1)
  }

  @Test func neededMaskHasTheBitOfEveryObservedProperty() {
    var state = RegistrarState()
    let observed = TrackingKey("a")
    let unobserved = TrackingKey("b")
    state.add(observer(), to: observed.id)
    _ = state.recordWrite(of: unobserved, epoch: 1)
    #expect(state.neededMask == observed.maskBit)
    state.compact()
    #expect(state.entries.map(\.id) == [observed.id])
  }

  @Test func aReadStampedBeforeAWriteSeesTheChange() {
    var state = RegistrarState()
    let key = TrackingKey("x")
    _ = state.recordWrite(of: key, epoch: 5)
    #expect(state.changed(key.id, since: 4) == key)
    #expect(state.changed(key.id, since: 5) == nil)
    #expect(state.changed(TrackingKey("y").id, since: 0) == nil)
  }

  @Test func clearedBitsComeBackWhenAReaderIsPending() {
    let core = RegistrarCore()
    let key = TrackingKey("x")
    core.beginPending()
    _ = core.stampRead(of: key.id)
    // The bit itself, not `mayBeObserved`: other tests may be recording changes in parallel.
    #expect(core.observedMask.load(ordering: .relaxed) & key.maskBit != 0)
    core.releasePending()
    #expect(core.observedMask.load(ordering: .relaxed) & key.maskBit == 0)
  }
}

extension RegistrarState {
  /// The observers a write notifies, as an array, ignoring whether it emptied the entry.
  fileprivate mutating func recordWrite(of key: TrackingKey, epoch: UInt64) -> [ObserverCore] {
    var emptied = false
    var notified: [ObserverCore] = []
    recordWrite(of: key, epoch: epoch, emptied: &emptied).forEach { notified.append($0) }
    return notified
  }
}
