import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The JSON file the list lives in: loads it at start-up and saves it atomically.
///
/// Saving writes a temporary file in the same directory and renames it over the list, so a
/// crash or a kill leaves either the old list or the new one, never half of one. An actor, so
/// saves never interleave; a save older than the last one written is skipped.
actor TodoFile {
  /// What start-up found.
  enum Loaded {
    /// No file yet: start empty; the first change creates it.
    case missing
    case records([TodoRecord])
    /// The file was not a to-do list; it was moved to `movedTo` and the list starts empty.
    case corrupt(reason: String, movedTo: String)
  }

  /// A file operation that failed, said in one line.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  nonisolated let path: String
  private var lastRevision = 0

  init(path: String) {
    self.path = path
  }

  /// Reads the list; a file that is not one is moved aside, never overwritten.
  nonisolated func load(now: Date = Date()) throws(Failure) -> Loaded {
    let manager = FileManager.default
    guard manager.fileExists(atPath: path) else { return .missing }
    guard let data = manager.contents(atPath: path) else {
      throw Failure(description: "cannot read \(path)")
    }
    do {
      return .records(try JSONDecoder().decode(TodoFileContents.self, from: data).todos)
    } catch {
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.dateFormat = "yyyyMMdd-HHmmss"
      // Never replace an earlier corrupt copy: add a counter if the name is taken.
      let stem = "\(path).corrupt-\(formatter.string(from: now))"
      var aside = stem
      var counter = 1
      while manager.fileExists(atPath: aside) {
        counter += 1
        aside = "\(stem)-\(counter)"
      }
      guard rename(path, aside) == 0 else {
        throw Failure(description: "cannot move \(path) aside: \(Self.lastError())")
      }
      return .corrupt(reason: Self.reason(error), movedTo: aside)
    }
  }

  /// Writes the list unless a later revision is already written.
  func save(_ records: [TodoRecord], revision: Int) throws(Failure) {
    guard revision > lastRevision else { return }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let data: Data
    do {
      data = try encoder.encode(TodoFileContents(todos: records))
    } catch {
      throw Failure(description: "cannot encode the list: \(error)")
    }
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())").path
    try Self.writeFile(data, to: temporary)
    guard rename(temporary, path) == 0 else {
      let reason = Self.lastError()
      unlink(temporary)
      throw Failure(description: reason)
    }
    lastRevision = revision
  }

  private static func writeFile(_ data: Data, to path: String) throws(Failure) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { throw Failure(description: lastError()) }
    defer { close(descriptor) }
    let complete = data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written <= 0 { return false }
        offset += written
      }
      return fsync(descriptor) == 0
    }
    guard complete else {
      let reason = lastError()
      unlink(path)
      throw Failure(description: reason)
    }
  }

  private static func lastError() -> String {
    String(cString: strerror(errno))
  }

  private static func reason(_ error: any Error) -> String {
    switch error {
    case DecodingError.dataCorrupted: "not valid JSON"
    case DecodingError.keyNotFound(let key, _): "no \"\(key.stringValue)\" field"
    case DecodingError.typeMismatch, DecodingError.valueNotFound: "a field has the wrong type"
    default: "not a to-do list"
    }
  }
}
