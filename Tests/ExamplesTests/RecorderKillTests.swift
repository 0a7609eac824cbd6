import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A recording whose process is killed (SIGKILL) mid-burst keeps every line the recorder
/// promised: `recorder-burst` prints `flushed N` once `flush()` has returned for N steps, and
/// the file must then hold at least those N steps, each line complete and in sequence, but for
/// at most one partial last line.
@Suite struct RecorderKillTests {
  @Test(arguments: [1, 3, 7, 15, 30])
  func aKilledRecordingKeepsEveryPromisedLine(flushesBeforeTheKill: Int) async throws {
    let directory = try TemporaryDirectory()
    let file = directory.file("burst.jsonl")
    let running = try await ExampleProgram(name: "recorder-burst").start(
      [file.path], in: directory.url)
    let sawFlushes = await running.stdout.wait(for: "flushed ", count: flushesBeforeTheKill)
    running.send(SIGKILL)
    let run = await running.finish()
    #expect(sawFlushes, "stderr: \(run.stderr)")
    #expect(run.reason == .uncaughtSignal && run.status == SIGKILL)
    let promised =
      run.lines.compactMap { line in
        line.hasPrefix("flushed ") ? Int(line.dropFirst("flushed ".count)) : nil
      }.max() ?? 0
    #expect(promised >= flushesBeforeTheKill * 50)

    let data = try Data(contentsOf: file)
    var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    // A file whose last write was whole ends with a newline (an empty last piece); otherwise
    // the last piece is the one partial line a kill may leave, which promises nothing.
    lines.removeLast()
    let header = try #require(
      try JSONSerialization.jsonObject(with: Data(lines.removeFirst())) as? [String: Any])
    #expect(header["format"] as? String == "arboreal-recording")
    var sequence = 0
    for line in lines {
      let step = try #require(
        try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
        "line \(sequence + 2) is not a complete step")
      sequence += 1
      #expect(step["seq"] as? Int == sequence)
    }
    #expect(
      sequence >= promised,
      "the recording keeps \(sequence) complete steps; \(promised) were promised")
  }
}
