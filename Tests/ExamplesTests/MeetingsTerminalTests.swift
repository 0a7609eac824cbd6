import Foundation
import Testing

/// `meetings` with a terminal as standard input: prompts that say where you are, and the
/// recording's timer, which ticks while its screen is shown and stops when `back` pops it.
///
/// Each step waits for output that the previous one caused, never for a delay.
///
/// The time limit only ends a hung run, so it is 10 minutes: longer than the whole suite under
/// a sanitizer with other processes on the cores. A test's time includes its wait for one of
/// the two `ProcessSlots` that every example test shares; under ThreadSanitizer and load some
/// took 66 seconds, past the one minute they had.
@Suite(.serialized, .timeLimit(.minutes(10))) struct MeetingsTerminalTests {
  let meetings = ExampleProgram(name: "meetings")

  @Test func promptsShowWhereYouAre() async throws {
    let directory = try TemporaryDirectory()
    let terminal = try PseudoTerminal()
    let running = try await meetings.start(
      ["--tick-ms", "600000"], in: directory.url, standardInput: terminal.secondary)
    var seen = ["meetings> ": 1]
    #expect(await running.stdout.wait(for: "meetings> "))
    /// Types `line`, then waits for the prompt it leads to.
    func type(_ line: String, thenWaitFor prompt: String) async throws {
      try terminal.type(line)
      seen[prompt, default: 0] += 1
      #expect(await running.stdout.wait(for: prompt, count: seen[prompt]!), "\(line)")
    }

    try await type("add Standup\n", thenWaitFor: "meetings> ")
    try await type("open 1\n", thenWaitFor: "meetings/Standup> ")
    try await type("edit\n", thenWaitFor: "meetings/Standup/edit> ")
    try await type("title Daily\n", thenWaitFor: "meetings/Standup/edit> ")
    try await type("save\n", thenWaitFor: "meetings/Daily> ")
    try await type("delete\n", thenWaitFor: "meetings/Daily/delete> ")
    try await type("no\n", thenWaitFor: "meetings/Daily> ")
    try await type("record\n", thenWaitFor: "meetings/Daily/record> ")
    try await type("back\n", thenWaitFor: "meetings/Daily> ")
    try await type("back\n", thenWaitFor: "meetings> ")
    try terminal.type("quit\n")
    let run = await running.finish()

    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(run.stdout.hasPrefix("Meetings. Type 'help' for the commands.\n"))
    #expect(run.stdout.hasSuffix("meetings> Bye.\n"))
  }

  /// The timer belongs to the recording screen: `back` pops the screen, and its ticks end
  /// with it, with nothing in the list or the meeting's screen asking for it.
  ///
  /// That no tick is printed after the pop is checked in the order of the output, which never
  /// depends on timing: a correct program prints nothing after "Left the recording" that its
  /// timer caused. That the timer would have ticked had it survived is shown by a witness that
  /// does not depend on the machine's speed either: a second recording, started after the
  /// pop, on the same clock with the same interval, ticks three times. The first timer, had it
  /// survived, would have come due before each of those ticks and sent its own to a screen no
  /// longer on the stack, which a debug build reports on standard error. So standard error
  /// must stay empty, and the second recording must count from 1, undisturbed.
  @Test func poppingTheRecordingStopsItsTimer() async throws {
    let directory = try TemporaryDirectory()
    let terminal = try PseudoTerminal()
    let running = try await meetings.start(
      ["--tick-ms", "10"], in: directory.url, standardInput: terminal.secondary)
    let left = "Left the recording after "

    try terminal.type("add Standup\nopen 1\nrecord\n")
    #expect(await running.stdout.wait(for: "⏱ 3s\n"))
    try terminal.type("back\n")
    #expect(await running.stdout.wait(for: left))
    try terminal.type("record\n")
    #expect(await running.stdout.wait(for: "⏱ 3s\n", count: 2))
    try terminal.type("back\n")
    #expect(await running.stdout.wait(for: left, count: 2))
    try terminal.type("back\nquit\n")
    let run = await running.finish()

    #expect(run.status == 0)
    #expect(run.stderr == "", "no tick reached a popped screen")
    let parts = run.stdout.components(separatedBy: left)
    try #require(parts.count == 3)
    let recording = "Recording Standup (5 min). Type 'back' to stop.\n"
    let afterFirstPop = parts[1].components(separatedBy: recording)
    try #require(afterFirstPop.count == 2)
    let (first, second) = (ticks(in: parts[0]), ticks(in: afterFirstPop[1]))
    #expect(first.count >= 3 && first == Array(1...first.count), "\(first)")
    #expect(second.count >= 3 && second == Array(1...second.count), "\(second)")
    #expect(ticks(in: afterFirstPop[0]).isEmpty, "no tick between the pop and the next recording")
    #expect(ticks(in: parts[2]).isEmpty, "no tick after the second pop")
  }

  /// The seconds of the tick lines (`⏱ 3s`) in `output`, in order.
  private func ticks(in output: String) -> [Int] {
    output.split(separator: "\n").compactMap { line in
      guard let tick = line.split(separator: "⏱ ").last, line.contains("⏱ ") else { return nil }
      return Int(tick.dropLast())
    }
  }
}
