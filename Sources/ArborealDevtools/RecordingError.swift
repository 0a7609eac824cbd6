/// Why a recording could not be written or read, with the line at fault.
///
/// ```swift
/// do {
///   let recording = try Recording<TodoList>(contentsOf: "session.jsonl")
/// } catch {
///   print(error)  // session.jsonl:7: the line is cut short (the recording was interrupted)
/// }
/// ```
///
/// Reading stops at the first bad line. Load with `keepingValidPrefix: true` to replay the
/// lines before it instead of failing: the recording then carries this error as its
/// ``Recording/problem``.
public struct RecordingError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: Sendable, Equatable {
    /// The file could not be opened, read or written; the system's reason.
    case file(String)
    /// The file is empty: not even the first line (the header) is there.
    case empty
    /// The first line is not the header of a recording of this format.
    case notARecording
    /// The header names a format version this library does not read.
    case unsupportedVersion(Int)
    /// The header's snapshot does not decode as the model's `Snapshot` type; the decoder's
    /// reason.
    case snapshotDoesNotDecode(String)
    /// The last line has no end: the recording was interrupted while writing it.
    case truncatedLine
    /// A line is not a step of a recording: not JSON, or a field is missing or of the wrong
    /// type; the reason.
    case corruptLine(String)
    /// The action on the line no longer decodes as the model's `Action` type (a renamed or
    /// removed case): `name` is the action's name as recorded, `reason` the decoder's.
    case undecodableAction(name: String, reason: String)
    /// A step's number is not the one after the previous step's.
    case outOfSequence(expected: Int, found: Int)
  }

  /// The file, when the recording came from one.
  public let path: String?
  /// The line at fault, from 1 (the header is line 1); 0 for a problem with the file itself.
  public let line: Int
  /// What went wrong.
  public let kind: Kind

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - kind: What went wrong.
  ///   - line: The line at fault, from 1; 0 for the file itself.
  ///   - path: The file, if any.
  public init(_ kind: Kind, line: Int, path: String? = nil) {
    self.kind = kind
    self.line = line
    self.path = path
  }

  /// `session.jsonl:7: the action 'addItem' no longer decodes (...)`.
  public var description: String {
    let place =
      switch (path, line) {
      case (let path?, 0): "\(path): "
      case (let path?, _): "\(path):\(line): "
      case (nil, 0): ""
      case (nil, _): "line \(line): "
      }
    return place + reason
  }

  private var reason: String {
    switch kind {
    case .file(let reason): "cannot use the file: \(reason)"
    case .empty: "the recording is empty (no header line)"
    case .notARecording: "not an Arboreal recording (the first line is not its header)"
    case .unsupportedVersion(let version):
      "the recording's format version \(version) is not one this version reads (1)"
    case .snapshotDoesNotDecode(let reason):
      "the starting snapshot does not decode as this model's snapshot: \(reason)"
    case .truncatedLine: "the line is cut short (the recording was interrupted while writing it)"
    case .corruptLine(let reason): "not a recorded step: \(reason)"
    case .undecodableAction(let name, let reason):
      "the action '\(name)' no longer decodes (renamed or removed?): \(reason)"
    case .outOfSequence(let expected, let found):
      "step number \(found) where \(expected) was expected (lines missing or reordered)"
    }
  }
}
