import Arboreal
import ArborealTracking
import Foundation
import Synchronization
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

  /// A writer whose `write` blocks (a pipe nobody reads) holds the store at its `limit`: the
  /// store's wait says what it waits for, goes on waiting, loses nothing, and says when it
  /// went on.
  @Test func aStoreWaitingForAStalledWriterSaysWhatItWaitsFor() async throws {
    let file = try TemporaryFile("stalled.fifo")
    try #require(mkfifo(file.path, 0o600) == 0, "mkfifo: \(String(cString: strerror(errno)))")
    // Opened for reading first (without blocking), so that the recorder's open for writing
    // finds a reader; nothing reads until the store is stalled.
    let reader = open(file.path, O_RDONLY | O_NONBLOCK)
    try #require(reader >= 0)
    defer { close(reader) }
    let reports = Mutex<[String]>([])
    let reported = DispatchSemaphore(value: 0)
    let core = try RecorderCore<Int>(
      path: file.path, header: Data("{}".utf8), keepsSteps: false, limit: 1,
      storeName: "Store<Int>", stallInterval: .milliseconds(200)
    ) { message in
      reports.withLock { $0.append(message) }
      reported.signal()
    }
    // 20,000 lines are far more than a pipe holds (64 KiB on Linux): the writer blocks.
    let produced = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      for sequence in 1...20_000 {
        core.enqueue(
          LoggedStep(
            sequence: sequence, action: sequence, origin: nil, changes: TrackingChanges([])))
      }
      produced.signal()
    }
    try #require(
      await Self.wait(for: reported, seconds: 120),
      "no report from the store waiting for its stalled writer within 120 s")
    let first = try #require(reports.withLock { $0.first })
    #expect(
      first.contains("the recorder of Store<Int>, writing to \(file.path), has taken no step"))
    #expect(first.contains("reached the recorder's `limit` (1)"))
    #expect(first.contains("Nothing is dropped"))
    // Now read: the writer moves, and so does the store.
    try #require(fcntl(reader, F_SETFL, 0) == 0)
    let lines = Mutex(0)
    let drained = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = read(reader, &buffer, buffer.count)
        if count <= 0 { break }
        lines.withLock { $0 += buffer[..<count].count { $0 == UInt8(ascii: "\n") } }
      }
      drained.signal()
    }
    try #require(
      await Self.wait(for: produced, seconds: 120),
      "the store did not go on within 120 s of its writer's pipe being read")
    let second = try #require(reports.withLock { $0.dropFirst().first })
    #expect(second.hasPrefix("Arboreal: the recorder of Store<Int> took steps again"))
    await core.finish()
    try #require(
      await Self.wait(for: drained, seconds: 120), "the pipe did not reach its end within 120 s")
    #expect(lines.withLock { $0 } == 20_001)
    #expect(core.writeError == nil)
  }

  /// Waits for `semaphore` on a thread outside the concurrency pool, at most `seconds`.
  static func wait(for semaphore: DispatchSemaphore, seconds: Int) async -> Bool {
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(
          returning: semaphore.wait(timeout: .now() + .seconds(seconds)) == .success)
      }
    }
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
