import Arboreal
import ArborealTracking
import Foundation
import Testing

@testable import ArborealDevtools

/// The recorder's core without a store: steps handed over as the store hands them, flushed
/// before or while a writer writes, back-pressure, and the end of a recording.
@Suite struct RecorderCoreTests {
  /// The store's step for its action number `sequence` (the action is the number too).
  func step(_ sequence: Int, startedBy origin: Int? = nil) -> LoggedStep {
    LoggedStep(sequence: sequence, action: sequence, origin: origin, changes: TrackingChanges([]))
  }

  @Test func aFlushWritesTheStepsBeforeItWhetherOrNotAWriterStarted() async throws {
    let file = try TemporaryFile()
    let core = try RecorderCore<Int>(path: file.path, header: Data("{}".utf8), keepsSteps: true)
    // The store's actions 5 to 14: the recording numbers them from 1.
    for sequence in 5...14 { core.enqueue(step(sequence)) }
    await core.flush()
    #expect(try file.lines().count == 11)
    #expect(core.steps.map(\.sequence) == Array(1...10))
    #expect(core.steps.map(\.action) == Array(5...14))
    for sequence in 15...24 { core.enqueue(step(sequence, startedBy: 14)) }
    await core.flush()
    #expect(try file.lines().count == 21)
    #expect(core.steps.last?.cause == .effect(startedBy: 10))
    await core.finish()
  }

  @Test func anEffectStartedBeforeTheFirstStepHasNoStartingStep() async throws {
    let core = try RecorderCore<Int>(path: nil, header: nil, keepsSteps: true)
    core.enqueue(step(3))
    core.enqueue(step(4, startedBy: 1))
    core.enqueue(step(5, startedBy: 0))
    await core.finish()
    #expect(core.steps.map(\.cause) == [.sent, .effect(startedBy: nil), .effect(startedBy: nil)])
  }

  @Test func aStoreThatOutrunsTheWriterWaitsAndLosesNothing() async throws {
    let file = try TemporaryFile()
    let core = try RecorderCore<Int>(
      path: file.path, header: Data("{}".utf8), keepsSteps: true, limit: 2)
    for sequence in 1...3_000 { core.enqueue(step(sequence)) }
    await core.flush()
    #expect(core.steps.map(\.sequence) == Array(1...3_000))
    #expect(try file.lines().count == 3_001)
    await core.finish()
  }

  @Test func finishingWritesWhatWaitsClosesTheFileAndDropsLaterSteps() async throws {
    let file = try TemporaryFile()
    let core = try RecorderCore<Int>(path: file.path, header: Data("{}".utf8), keepsSteps: true)
    for sequence in 1...3 { core.enqueue(step(sequence)) }
    await core.finish()
    #expect(try file.lines().count == 4)
    core.enqueue(step(4))
    await core.flush()
    await core.finish()
    #expect(core.steps.count == 3)
    #expect(try file.lines().count == 4)
    #expect(core.writeError == nil)
  }
}
