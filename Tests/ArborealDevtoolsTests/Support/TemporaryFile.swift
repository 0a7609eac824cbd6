import Foundation

/// A path in a fresh temporary directory, removed with everything in it when released.
final class TemporaryFile {
  let directory: URL
  let path: String

  init(_ name: String = "recording.jsonl") throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("arboreal-devtools-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    path = directory.appendingPathComponent(name).path
  }

  deinit {
    try? FileManager.default.removeItem(at: directory)
  }

  /// The file's lines, without their newlines (and without an empty last piece).
  func lines() throws -> [String] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    var lines = text.components(separatedBy: "\n")
    if lines.last == "" { lines.removeLast() }
    return lines
  }

  /// Replaces the file's contents.
  func write(_ text: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }
}
