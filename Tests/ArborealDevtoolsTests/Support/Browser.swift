import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Headless Chromium, run as a process to load a page and hand back its document or a
/// screenshot.
///
/// The browser tests run when `chromium` is on the `PATH`. Without it they are skipped,
/// unless `ARBOREAL_REQUIRE_BROWSER=1` (as `.ci/run` sets), where they fail instead.
enum Browser {
  /// The `chromium` executable on the `PATH`, if any.
  static let path: String? = {
    let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    for directory in directories {
      let candidate = "\(directory)/chromium"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }()

  /// Whether a missing browser fails the tests instead of skipping them.
  static let isRequired = ProcessInfo.processInfo.environment["ARBOREAL_REQUIRE_BROWSER"] == "1"

  /// Whether the browser tests run: the browser is there, or it is required (and its absence
  /// fails them).
  static let testsRun = path != nil || isRequired

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The document of `file` (with `fragment` after `#`) after its scripts ran.
  static func dom(of file: String, fragment: String = "") async throws -> String {
    try await run(["--dump-dom", url(file, fragment)])
  }

  /// Takes a screenshot of `file` into `png`.
  static func screenshot(of file: String, fragment: String = "", into png: String) async throws {
    _ = try await run(["--screenshot=\(png)", "--window-size=1280,800", url(file, fragment)])
  }

  private static func url(_ file: String, _ fragment: String) -> String {
    URL(fileURLWithPath: file).absoluteString + (fragment.isEmpty ? "" : "#" + fragment)
  }

  /// Runs the browser with `arguments` and returns its standard output. A browser that has
  /// not exited after `timeout` is killed and the call fails, so that a hung browser fails a
  /// test instead of hanging it.
  private static func run(
    _ arguments: [String], timeout: Duration = .seconds(120)
  ) async throws -> String {
    guard let path else {
      throw Failure(
        description: "chromium is not on the PATH (ARBOREAL_REQUIRE_BROWSER=1 requires it)")
    }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("arboreal-browser-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = directory.appendingPathComponent("stdout")
    let errors = directory.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errors.path, contents: nil)

    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments =
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-extensions",
        "--no-first-run", "--user-data-dir=\(directory.appendingPathComponent("profile").path)",
      ] + arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try FileHandle(forWritingTo: output)
    process.standardError = try FileHandle(forWritingTo: errors)
    let (exit, exited) = AsyncStream.makeStream(of: Void.self)
    process.terminationHandler = { _ in exited.finish() }
    try process.run()
    let identifier = process.processIdentifier
    let watchdog = Task {
      try await Task.sleep(for: timeout)
      kill(identifier, SIGKILL)
    }
    for await _ in exit {}
    watchdog.cancel()
    let timedOut = process.terminationReason == .uncaughtSignal
    if timedOut || process.terminationStatus != 0 {
      let log = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
      throw Failure(
        description: "chromium \(arguments.joined(separator: " ")) "
          + (timedOut ? "was killed after \(timeout)" : "exited with \(process.terminationStatus)")
          + ": \(log.suffix(2_000))")
    }
    return try String(contentsOf: output, encoding: .utf8)
  }
}

extension Trait where Self == ConditionTrait {
  /// Runs a suite only where the browser tests run (see ``Browser/testsRun``).
  static var needsBrowser: Self {
    .enabled(
      if: Browser.testsRun,
      "needs chromium on the PATH (set ARBOREAL_REQUIRE_BROWSER=1 to fail without it)")
  }
}
