import Foundation
import Testing

/// End-to-end tests of `signup`: the built executable with its answers piped on standard input
/// and a fast simulated service.
@Suite struct SignupTests {
  let signup = ExampleProgram(name: "signup")
  let answers = "Ada\nada@example.com\nlovelace1843\nlovelace1843\n"

  @Test func validAnswersCreateAnAccount() async throws {
    let directory = try TemporaryDirectory()
    let run = try await signup.run(["--latency", "50"], input: answers, in: directory.url)
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(
      run.stdout == """
        Creating the account for ada@example.com (attempt 1)…
        Welcome, Ada! Your account id is acct-ada-1.

        """)
  }

  /// The password typed, recorded with `--record`: the file holds `<redacted>` in its place
  /// (in the snapshot and in the actions that set it) and no trace of it, and a debug build
  /// finds no secret in the open while writing it.
  @Test func aRecordedSessionHoldsNoTraceOfThePassword() async throws {
    let directory = try TemporaryDirectory()
    let run = try await signup.run(
      ["--latency", "10", "--record", "session.jsonl"], input: answers, in: directory.url)
    #expect(run.status == 0)
    #expect(run.stderr == "")
    let recording = try String(contentsOf: directory.file("session.jsonl"), encoding: .utf8)
    #expect(!recording.contains("lovelace"))
    let lines = recording.split(separator: "\n")
    #expect(lines.count == 7, "the header, four answers, the submission and its outcome")
    #expect(lines.first?.contains(#""password":"<redacted>""#) == true)
    #expect(
      lines.filter { $0.contains(#""action":{"setSecret":{"#) && $0.contains("<redacted>") }
        .count == 2)
    #expect(lines.contains { $0.contains(#""_1":"ada@example.com""#) }, "the rest is written")
  }

  @Test func eachInvalidValueIsExplainedAndAskedForAgain() async throws {
    let directory = try TemporaryDirectory()
    let run = try await signup.run(
      ["--latency", "50"],
      input:
        "\nAda\nada@\nada@example.com\nshort\nlovelace\nlovelace1843\nlovelace1842\nlovelace1843\n",
      in: directory.url)
    #expect(run.status == 0)
    let errors = run.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }
    #expect(
      errors == [
        "error: a name is required",
        "error: 'ada@' is not an email address",
        "error: the password needs at least 8 characters",
        "error: the password needs letters and digits",
        "error: the passwords do not match",
      ])
    #expect(run.stdout.contains("Welcome, Ada!"))
  }

  @Test func aFailureIsShownAndRetryWorks() async throws {
    let directory = try TemporaryDirectory()
    let run = try await signup.run(
      ["--latency", "50"], input: answers + "retry\n", in: directory.url,
      environment: ["SIGNUP_FAILURES": "1"])
    #expect(run.status == 0)
    #expect(run.stderr.hasPrefix("error: sign-up failed: the service is unavailable"))
    #expect(run.stdout.contains("(attempt 2)…\nWelcome, Ada! Your account id is acct-ada-2.\n"))
  }

  @Test func aSubmissionCanBeCancelledAndSentAgain() async throws {
    let directory = try TemporaryDirectory()
    // The service takes 3 s: `cancel`, piped right after the answers, arrives long before.
    let run = try await signup.run(
      ["--latency", "3000"], input: answers + "cancel\nedit email\ngrace@example.com\n",
      in: directory.url)
    #expect(run.status == 0)
    #expect(
      run.stdout == """
        Creating the account for ada@example.com (attempt 1)…
        Cancelled.
        Creating the account for grace@example.com (attempt 2)…
        Welcome, Ada! Your account id is acct-grace-1.

        """)
  }

  @Test func quitAfterCancellingEndsWithoutAnAccount() async throws {
    let directory = try TemporaryDirectory()
    let run = try await signup.run(
      ["--latency", "600000"], input: answers + "cancel\nquit\n", in: directory.url)
    #expect(run.stdout.hasSuffix("Cancelled.\n"))
    #expect(run.stderr == "error: no account was created\n")
    #expect(run.status == 1)
  }

  @Test func endOfInputWithoutAnAccountFails() async throws {
    let directory = try TemporaryDirectory()
    let run = try await signup.run(
      ["--fail", "3", "--latency", "10"], input: answers, in: directory.url)
    #expect(run.status == 1)
    #expect(run.stderr.hasSuffix("error: no account was created\n"))
  }
}
