import Foundation
import Testing

/// One run of an example executable: what it printed and how it exited.
struct ExampleRun {
  var stdout: String
  var stderr: String
  var status: Int32

  /// The standard output lines.
  var lines: [String] {
    stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }
}

/// An example executable built next to this test bundle, run as a process with piped input.
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
  ) throws -> ExampleRun {
    try run(arguments, inputBytes: Data(input.utf8), in: directory, environment: environment)
  }

  /// Runs the program in `directory` with raw `inputBytes` (which need not be valid UTF-8)
  /// on standard input, then closes it.
  func run(
    _ arguments: [String] = [], inputBytes: Data, in directory: URL,
    environment: [String: String] = [:]
  ) throws -> ExampleRun {
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
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    // Read both pipes while the program runs, so a full pipe never stalls it.
    let output = Collector(stdout.fileHandleForReading)
    let errors = Collector(stderr.fileHandleForReading)
    stdin.fileHandleForWriting.write(inputBytes)
    try stdin.fileHandleForWriting.close()
    process.waitUntilExit()
    return ExampleRun(
      stdout: output.text(), stderr: errors.text(), status: process.terminationStatus)
  }

  struct MissingProgram: Error, CustomStringConvertible {
    var path: String
    var description: String { "no executable at \(path): run 'swift build' first" }
  }
}

/// Reads a pipe to its end on a thread of its own.
private final class Collector: @unchecked Sendable {
  // `data` is written once by the reader thread before `done` is signalled, and read only
  // after waiting on `done`.
  private var data = Data()
  private let done = DispatchSemaphore(value: 0)

  init(_ handle: FileHandle) {
    Thread {
      self.data = handle.readDataToEndOfFile()
      self.done.signal()
    }.start()
  }

  func text() -> String {
    done.wait()
    return String(decoding: data, as: UTF8.self)
  }
}

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
