import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `signup` with a terminal as standard input: passwords are not echoed, and the terminal's
/// echo comes back when the program exits or is interrupted.
///
/// Each step waits for the prompt that follows the previous one, so the terminal's state is
/// checked at a known point of the program, never after a delay.
///
/// The time limit only ends a hung run, so it is 10 minutes: longer than the whole suite under
/// a sanitizer with other processes on the cores. A test's time includes its wait for one of
/// the two `ProcessSlots` that every example test shares; under ThreadSanitizer and load some
/// took 66 seconds, past the one minute they had.
@Suite(.serialized, .timeLimit(.minutes(10))) struct SignupTerminalTests {
  let signup = ExampleProgram(name: "signup")

  @Test func passwordsAreNotEchoedAndEchoIsBackAtExit() async throws {
    let directory = try TemporaryDirectory()
    let terminal = try PseudoTerminal()
    let running = try await startAtThePasswordPrompt(
      ["--latency", "10"], on: terminal, in: directory)

    #expect(!terminal.echoes)
    try terminal.type("lovelace1843\n")
    #expect(await running.stdout.wait(for: "Password again: "))
    #expect(!terminal.echoes)
    try terminal.type("lovelace1843\n")
    let run = await running.finish()

    #expect(run.status == 0)
    #expect(run.stdout.contains("Welcome, Ada! Your account id is acct-ada-1."))
    #expect(terminal.echoes)
    // The visible answers came back, each line's end too, and nothing of the passwords.
    #expect(terminal.echoed() == "Ada\r\nada@example.com\r\n\r\n\r\n")
  }

  @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
  func aSignalAtThePasswordPromptRestoresEcho(signal: Int32) async throws {
    let directory = try TemporaryDirectory()
    let terminal = try PseudoTerminal()
    let running = try await startAtThePasswordPrompt(on: terminal, in: directory)

    #expect(!terminal.echoes)
    running.send(signal)
    let run = await running.finish()

    #expect(run.reason == .uncaughtSignal, "the signal still ends the program")
    #expect(run.status == signal)
    #expect(terminal.echoes)
  }

  @Test func echoIsBackWhileASubmissionCanBeCancelled() async throws {
    let directory = try TemporaryDirectory()
    let terminal = try PseudoTerminal()
    let running = try await startAtThePasswordPrompt(
      ["--latency", "600000"], on: terminal, in: directory)

    try terminal.type("lovelace1843\n")
    #expect(await running.stdout.wait(for: "Password again: "))
    try terminal.type("lovelace1843\n")
    // The progress indicator's first tick comes after the prompt step that shows input again.
    #expect(await running.stdout.wait(for: "(type 'cancel' to stop)"))
    #expect(terminal.echoes, "'cancel' shows as it is typed")
    try terminal.type("cancel\nquit\n")
    let run = await running.finish()

    #expect(run.status == 1)
    #expect(run.stdout.contains("Cancelled."))
    #expect(terminal.echoes)
  }

  /// Starts `signup` with `terminal` as standard input, types a name and an email, and waits
  /// for the password prompt.
  private func startAtThePasswordPrompt(
    _ arguments: [String] = [], on terminal: PseudoTerminal, in directory: TemporaryDirectory
  ) async throws -> RunningExample {
    let running = try await signup.start(
      arguments, in: directory.url, standardInput: terminal.secondary)
    try terminal.type("Ada\nada@example.com\n")
    #expect(await running.stdout.wait(for: "Password: "))
    return running
  }
}
