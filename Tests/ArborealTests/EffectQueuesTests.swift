import Testing

@testable import Arboreal

/// The queue policy state machine on its own, with plain strings for the effects.
@Suite struct EffectQueuesTests {
  let group = GroupID(rawValue: 1)
  let running = [EffectID(rawValue: 10), EffectID(rawValue: 11)]

  func queue(_ policy: EffectQueuePolicy) -> QueueSpec {
    QueueSpec(id: CancelID("uploads"), policy: policy, spacing: nil)
  }

  @Test func aNewestQueueCancelsItsOldestToMakeRoom() {
    var queues = EffectQueues<String>()
    #expect(
      queues.admit("c", in: queue(.newest(2)), group: group, running: running)
        == .startCancelling([running[0]], delay: nil))
    #expect(
      queues.admit("c", in: queue(.newest(3)), group: group, running: running)
        == .start(delay: nil))
  }

  @Test func aFullDroppingQueueDrops() {
    var queues = EffectQueues<String>()
    let spec = queue(.oldest(2, whenFull: .drop))
    #expect(queues.admit("c", in: spec, group: group, running: running) == .drop)
    #expect(queues.admit("c", in: spec, group: group, running: [running[0]]) == .start(delay: nil))
    #expect(!queues.hasSuspended)
  }

  @Test func suspendedEffectsResumeFirstInFirstOutAndLaterOnesWaitBehindThem() {
    var queues = EffectQueues<String>()
    let spec = queue(.oldest(1, whenFull: .suspend))
    #expect(queues.admit("b", in: spec, group: group, running: [running[0]]) == .suspend)
    // The running one ended, but "b" waits first: "c" waits behind it.
    #expect(queues.admit("c", in: spec, group: group, running: []) == .suspend)
    #expect(queues.nextResumable(running: { _ in 1 }) == nil)
    #expect(queues.nextResumable(running: { _ in 0 })?.work == "b")
    #expect(queues.nextResumable(running: { _ in 0 })?.work == "c")
    #expect(!queues.hasSuspended)
  }

  @Test func removingSuspendedEffectsGivesBackTheirGroups() {
    var queues = EffectQueues<String>()
    let spec = queue(.oldest(1, whenFull: .suspend))
    let other = GroupID(rawValue: 2)
    _ = queues.admit("b", in: spec, group: group, running: [running[0]])
    _ = queues.admit("c", in: spec, group: other, running: [running[0]])
    #expect(queues.removeSuspended(where: { $0.work == "c" }) == [other])
    #expect(queues.suspended.map(\.work) == ["b"])
    #expect(queues.removeSuspended(where: { _ in true }) == [group])
    #expect(!queues.hasSuspended)
  }
}
