import ArborealTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A persisted model whose process is killed (SIGKILL) during a burst of saves leaves a whole
/// file: `persist-burst` prints `saved N` once the state after action N is on the disk, and
/// however the kill falls, the file must then be a complete snapshot (every entry equal to its
/// count) at least as new as the last one promised, with no temporary file mistaken for it.
@Suite struct PersisterKillTests {
  @Test func aKilledBurstOfSavesAlwaysLeavesACompleteLoadableFile() async throws {
    var random = SeededRandom(seed: 24)
    for run in 1...100 {
      let directory = try TemporaryDirectory()
      let file = directory.file("state.json")
      let running = try await ExampleProgram(name: "persist-burst").start(
        [file.path], in: directory.url)
      // Killed after 1 to 4 promised saves: while a later save is being written, often.
      let saves = 1 + random.next(below: 4)
      let sawSaves = await running.stdout.wait(for: "saved ", count: saves)
      running.send(SIGKILL)
      let result = await running.finish()
      try #require(sawSaves, "run \(run): stderr: \(result.stderr)")
      #expect(result.reason == .uncaughtSignal && result.status == SIGKILL)
      let promised =
        result.lines.compactMap { line in
          line.hasPrefix("saved ") ? Int(line.dropFirst("saved ".count)) : nil
        }.max() ?? 0

      let data = try Data(contentsOf: file)
      let envelope = try #require(
        try JSONSerialization.jsonObject(with: data) as? [String: Any],
        "run \(run): the file is not whole JSON")
      #expect(envelope["format"] as? String == "arboreal-snapshot")
      let snapshot = try #require(envelope["snapshot"] as? [String: Any])
      let count = try #require(snapshot["count"] as? Int)
      let entries = try #require(snapshot["entries"] as? [Int])
      #expect(entries.count == 4_000 && entries.allSatisfy { $0 == count }, "run \(run)")
      #expect(count >= promised, "run \(run): the file holds \(count); \(promised) was promised")
    }
  }
}
