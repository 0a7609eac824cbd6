/// Why a persisted model could not be loaded or saved, naming the file.
///
/// ```swift
/// do {
///   let snapshot = try file.load()
/// } catch {
///   print(error)  // todos.json: written by a newer version of the program (format version 3; this one reads up to 2)
/// }
/// ```
///
/// A file that does not load is never written over: a ``StorePersister`` refuses to start on
/// it, with this error, until the program moves it aside (``PersistedFile/moveAside(now:)``)
/// or the user does.
public struct PersistenceError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: Sendable, Equatable {
    /// The file (or its folder) could not be read or written; the system's reason.
    case file(String)
    /// The file is not JSON (or is empty, or was cut short); the reason.
    case notJSON(String)
    /// The file is JSON, but not a saved snapshot, and there is no migration to read it.
    case notASnapshot
    /// The file was written by a newer version of the program: `found` is its format
    /// version, `supported` the newest this program reads.
    case newerVersion(found: Int, supported: Int)
    /// The file was written in an older format version and no migration was given.
    case noMigration(from: Int)
    /// The migration from an older format version (0 for a file without the envelope)
    /// threw; its reason.
    case migrationFailed(from: Int, reason: String)
    /// The snapshot in the file does not decode as the model's `Snapshot`; the decoder's
    /// reason.
    case snapshotDoesNotDecode(String)
    /// The snapshot does not encode; the encoder's reason.
    case snapshotDoesNotEncode(String)
  }

  /// The file at fault.
  public let path: String
  /// What went wrong.
  public let kind: Kind

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - kind: What went wrong.
  ///   - path: The file at fault.
  public init(_ kind: Kind, path: String) {
    self.kind = kind
    self.path = path
  }

  /// `todos.json: not JSON (…)`: the file, then what is wrong with it.
  public var description: String {
    "\(path): " + reason
  }

  /// What is wrong, without the file: `not JSON (…)`.
  public var reason: String {
    switch kind {
    case .file(let reason): "cannot use the file: \(reason)"
    case .notJSON(let reason): "not JSON (\(reason))"
    case .notASnapshot: "not a saved model (no \"format\": \"arboreal-snapshot\" envelope)"
    case .newerVersion(let found, let supported):
      "written by a newer version of the program (format version \(found); this one reads up to \(supported))"
    case .noMigration(let version):
      "written in format version \(version), and no migration from it was given"
    case .migrationFailed(let version, let reason):
      "the migration from format version \(version) failed: \(reason)"
    case .snapshotDoesNotDecode(let reason):
      "the saved state does not decode as this model's snapshot: \(reason)"
    case .snapshotDoesNotEncode(let reason): "the state does not encode: \(reason)"
    }
  }
}
