import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One run of an example executable: what it printed and how it exited.
struct ExampleRun {
  var stdout: String
  var stderr: String
  /// The exit status, or the number of the signal that ended it.
  var status: Int32
  var reason: Process.TerminationReason

  /// The standard output lines.
  var lines: [String] {
    stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }
}

/// An example executable built next to this test bundle, run as a process.
///
/// Nothing here blocks a thread of the concurrency pool: the pipes are read and written on
/// threads of their own, and the exit is awaited through the process's termination handler.
struct ExampleProgram {
  let name: String

  /// The directory holding the built products: `ARBOREAL_EXAMPLES_BIN` if set, else the
  /// directory of the test bundle (`swift build` and `swift test` put every product of the
  /// package, executables included, in the same directory).
  static var productsDirectory: URL {
    if let directory = ProcessInfo.processInfo.environment["ARBOREAL_EXAMPLES_BIN"] {
      return URL(fileURLWithPath: directory)
    }
    #if os(macOS)
      for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        return bundle.bundleURL.deletingLastPathComponent()
      }
    #endif
    return Bundle.main.bundleURL
  }

  var url: URL { Self.productsDirectory.appendingPathComponent(name) }

  /// Runs the program in `directory` with `input` on standard input, then closes it.
  func run(
    _ arguments: [String] = [], input: String, in directory: URL,
    environment: [String: String] = [:]
  ) async throws -> ExampleRun {
    try await run(arguments, inputBytes: Data(input.utf8), in: directory, environment: environment)
  }

  /// Runs the program in `directory` with raw `inputBytes` (which need not be valid UTF-8)
  /// on standard input, then closes it.
  func run(
    _ arguments: [String] = [], inputBytes: Data, in directory: URL,
    environment: [String: String] = [:]
  ) async throws -> ExampleRun {
    let running = try await start(arguments, in: directory, environment: environment)
    running.write(inputBytes, thenClose: true)
    return await running.finish()
  }

  /// Starts the program in `directory`, once one of ``ProcessSlots/examples`` is free.
  /// Standard input is `standardInput` if given (a terminal, say), else a pipe that
  /// ``RunningExample/write(_:thenClose:)`` writes to.
  func start(
    _ arguments: [String] = [], in directory: URL, environment: [String: String] = [:],
    standardInput: FileHandle? = nil
  ) async throws -> RunningExample {
    guard FileManager.default.isExecutableFile(atPath: url.path) else {
      throw MissingProgram(path: url.path)
    }
    let process = Process()
    process.executableURL = url
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var variables = ProcessInfo.processInfo.environment
    variables["ARBOREAL_TODOS_FILE"] = nil
    variables.merge(environment) { $1 }
    process.environment = variables
    let stdin = standardInput == nil ? Pipe() : nil
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = standardInput ?? stdin
    process.standardOutput = stdout
    process.standardError = stderr
    // Set before `run()`, so that an exit cannot come before the handler is in place.
    let (exit, exited) = AsyncStream.makeStream(of: Void.self)
    let slots = ProcessSlots.examples
    process.terminationHandler = { _ in
      slots.give()
      exited.finish()
    }
    await slots.take()
    // `run()` closes this process's copies of the pipes' write ends, so that the readers see
    // the end of output when the program exits.
    do {
      try process.run()
    } catch {
      slots.give()
      throw error
    }
    return RunningExample(
      process: process, input: stdin?.fileHandleForWriting, exit: exit,
      stdout: PipeReader(stdout.fileHandleForReading),
      stderr: PipeReader(stderr.fileHandleForReading))
  }

  struct MissingProgram: Error, CustomStringConvertible {
    var path: String
    var description: String { "no executable at \(path): run 'swift build' first" }
  }
}

/// A started example program: its pipes, read as it runs, and its exit.
struct RunningExample: Sendable {
  let process: Process
  /// The write end of its standard input pipe; nil when it reads from something else.
  let input: FileHandle?
  let exit: AsyncStream<Void>
  let stdout: PipeReader
  let stderr: PipeReader

  /// Writes `bytes` to standard input on a thread of its own (a full pipe blocks the writer
  /// until the program reads), then closes it if asked. A program that exits without reading
  /// everything is no error: the rest is dropped.
  func write(_ bytes: Data, thenClose close: Bool) {
    guard let input else { preconditionFailure("standard input is not a pipe") }
    ignoreBrokenPipes
    Thread {
      try? input.write(contentsOf: bytes)
      if close { try? input.close() }
    }.start()
  }

  /// Sends the program a signal.
  func send(_ signal: Int32) {
    kill(process.processIdentifier, signal)
  }

  /// Waits for the program to exit and for both pipes to end, and returns what it printed.
  ///
  /// A sanitizer's report on standard error fails the calling test: built with
  /// `--sanitize=address`, a program that leaks says so there when it exits (and its status
  /// becomes 1, which some tests expect for other reasons).
  func finish() async -> ExampleRun {
    for await _ in exit {}
    let output = await stdout.text()
    let errors = await stderr.text()
    if let found = errors.range(of: "Sanitizer") {
      // From the start of that line: the report, not the megabytes a fuzz test wrote before.
      let start = errors[..<found.lowerBound].lastIndex(of: "\n") ?? errors.startIndex
      let program = process.executableURL?.lastPathComponent ?? "the program"
      Issue.record("\(program), on standard error:\n\(errors[start...].prefix(20_000))")
    }
    return ExampleRun(
      stdout: output, stderr: errors, status: process.terminationStatus,
      reason: process.terminationReason)
  }
}

/// Writing to a pipe whose reader has exited raises SIGPIPE, which would end the test
/// process; ignored, the write fails instead. Set once, on the first write.
private let ignoreBrokenPipes: Void = {
  _ = signal(SIGPIPE, SIG_IGN)
}()

/// A fresh temporary directory, removed when the test is done with it.
final class TemporaryDirectory {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("arboreal-examples-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }

  func file(_ name: String) -> URL { url.appendingPathComponent(name) }

  /// The names of the files in the directory, sorted.
  func contents() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
  }
}
