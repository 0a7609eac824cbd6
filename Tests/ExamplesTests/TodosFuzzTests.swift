import ArborealTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Garbled input and kills: `todos` never crashes, answers every bad line, and never leaves a
/// broken file. `ARBOREAL_FUZZ_SCALE` multiplies the number of lines.
@Suite(.serialized) struct TodosFuzzTests {
  @Test func garbledLinesGetAnErrorAndLoseNothing() async throws {
    let directory = try TemporaryDirectory()
    // Megabytes of input: made on a thread of its own, not the concurrency pool's.
    let (input, expected, badLines) = await onThreadOfItsOwn {
      var random = SeededRandom(seed: 0x7AD0_5EED)
      var input = Data()
      var expected: [String] = []
      var badLines = 0
      for index in 0..<(2_000 * fuzzScale) {
        switch random.next(below: 20) {
        case 0:
          let text = "item \(index)"
          expected.append(text)
          input.append(Data("add \(text)\n".utf8))
        case 1:
          input.append(Data("\n".utf8))  // empty: ignored
        default:
          // A word that is no command, then random bytes.
          input.append(random.garbledLine())
          badLines += 1
        }
      }
      // End of input in the middle of an edit prompt.
      input.append(Data("edit 1\n".utf8))
      return (input, expected, badLines)
    }

    let run = try await ExampleProgram(name: "todos").run(inputBytes: input, in: directory.url)

    #expect(run.reason == .exit, "crashed: signal \(run.status)")
    #expect(run.status == 0 || run.status == 1)
    let errors = await onThreadOfItsOwn { [stderr = run.stderr] in errorLines(stderr).count }
    #expect(errors >= badLines, "\(badLines) bad lines, \(errors) errors")
    let saved = try savedTexts(directory.file("todos.json"))
    #expect(saved == expected)
  }

  @Test func killingDuringSavesLeavesTheOldOrTheNewFile() async throws {
    for attempt in 0..<(5 * fuzzScale) {
      let directory = try TemporaryDirectory()
      let file = directory.file("todos.json")
      let running = try await ExampleProgram(name: "todos").start(in: directory.url)
      var commands = ""
      for index in 0..<400 { commands += "add item \(index)\n" }
      // Standard input stays open: the program cannot end by itself, only by the kill.
      running.write(Data(commands.utf8), thenClose: false)
      // Kill it at a different moment each time, while saves are in flight. Whatever the
      // moment, the file must be whole: the sleep varies the test, it is not what passes it.
      try await Task.sleep(for: .milliseconds(20 + attempt * 15))
      running.send(SIGKILL)
      let run = await running.finish()
      #expect(run.reason == .uncaughtSignal && run.status == SIGKILL, "attempt \(attempt)")

      if FileManager.default.fileExists(atPath: file.path) {
        let texts = try savedTexts(file)
        // Whatever was saved is a prefix of what was added, in order.
        #expect(texts == (0..<texts.count).map { "item \($0)" }, "attempt \(attempt)")
      }
      // No temporary file is mistaken for the list, and nothing else is broken.
      for name in try directory.contents() where name.hasSuffix(".json") {
        _ = try savedTexts(directory.file(name))
      }
    }
  }

  /// The texts of a saved list; throws when the file is not valid JSON of the right shape.
  private func savedTexts(_ file: URL) throws -> [String] {
    let data = try Data(contentsOf: file)
    let object = try JSONSerialization.jsonObject(with: data)
    let snapshot = try #require((object as? [String: Any])?["snapshot"] as? [String: Any])
    let todos = try #require(snapshot["items"] as? [[String: Any]])
    return todos.compactMap { $0["text"] as? String }
  }
}
