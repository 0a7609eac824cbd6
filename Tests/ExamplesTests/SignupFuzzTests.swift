import ArborealTestSupport
import Foundation
import Testing

/// Garbled input at every step of `signup`: it never crashes, answers each bad line with one
/// error and asks again, and still creates the account from the good lines.
/// `ARBOREAL_FUZZ_SCALE` multiplies the number of lines.
@Suite struct SignupFuzzTests {
  @Test func garbledLinesGetOneErrorEachAndTheGoodOnesStillSignUp() async throws {
    let directory = try TemporaryDirectory()
    let count = 500 * fuzzScale
    // Megabytes of input: made on a thread of its own, not the concurrency pool's.
    let input = await onThreadOfItsOwn {
      var random = SeededRandom(seed: 0x5161_0F22)
      var input = Data("Ada\n".utf8)
      // Emails: without an `@`, no line can be an address.
      for _ in 0..<count { input.append(random.garbledLine(avoiding: [UInt8(ascii: "@")])) }
      input.append(Data("ada@example.com\nlovelace1843\n".utf8))
      // Confirmations: `zz…` never equals the password.
      for _ in 0..<count { input.append(random.garbledLine()) }
      input.append(Data("lovelace1843\n".utf8))
      // The first attempt fails (`--fail 1`); then commands: `zz…` is none.
      for _ in 0..<count { input.append(random.garbledLine()) }
      input.append(Data("retry\n".utf8))
      return input
    }

    let run = try await ExampleProgram(name: "signup").run(
      ["--fail", "1", "--latency", "10"], inputBytes: input, in: directory.url)

    #expect(run.reason == .exit, "crashed: signal \(run.status)")
    #expect(run.status == 0)
    #expect(run.stdout.hasSuffix("Welcome, Ada! Your account id is acct-ada-2.\n"))
    let errors = await onThreadOfItsOwn { [stderr = run.stderr] in errorLines(stderr) }
    let badEmails = errors.filter {
      $0.starts(with: "error: 'zz".utf8)
        && $0.reversed().starts(with: "' is not an email address".utf8.reversed())
    }
    let mismatches = errors.filter { $0.elementsEqual("error: the passwords do not match".utf8) }
    let unknownCommands = errors.filter { $0.starts(with: "error: unknown command 'zz".utf8) }
    let failures = errors.filter { $0.starts(with: "error: sign-up failed: ".utf8) }
    #expect(badEmails.count == count)
    #expect(mismatches.count == count)
    #expect(unknownCommands.count == count)
    #expect(failures.count == 1)
    #expect(errors.count == 3 * count + 1, "no other error")
  }
}
