import Arboreal
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file a model's snapshot is kept in between runs: read at start, written atomically,
/// with a format version and migrations from older versions.
///
/// ```swift
/// let file = PersistedFile<TodoList>(path: "todos.json", version: 2) { old in
///   try TodoList.Snapshot(migratingVersion: old.version, from: old.data)
/// }
/// let list = try file.load().map(TodoList.init(snapshot:)) ?? TodoList()
/// ```
///
/// The file is JSON: an envelope that names the format and its version, and the model's
/// snapshot, keys sorted and indented so that two saves of the same state are the same bytes:
///
/// ```
/// {"format":"arboreal-snapshot","version":2,"snapshot":{
///   "items" : [ … ]
/// }}
/// ```
///
/// Reading is strict. A missing file is no state yet (``load()`` returns nil). A file that
/// is not JSON, an envelope from a newer version than ``version``, or a snapshot that does
/// not decode is a ``PersistenceError`` naming the file. A file in an older version, or one
/// without the envelope (version 0: a file the program wrote before it used this type), goes
/// through the migration, if one was given.
///
/// Writing (``save(_:)``) never leaves half a file: the bytes go to a temporary file in the
/// same folder, which is synced to the disk and then renamed over the file, so a process
/// killed at any moment leaves either the old state or the new one. `PersistedFile` is a
/// value that names a file; ``StorePersister`` decides when to write and makes sure that two
/// writes never overlap.
public struct PersistedFile<Model: ReplayableModel>: Sendable {
  /// A saved file in an older format, handed to the migration.
  public struct OldContents: Sendable {
    /// The file's format version: 0 for a file without the envelope (written before the
    /// program used ``PersistedFile``), otherwise the version in its envelope.
    public let version: Int
    /// The saved state as JSON: the envelope's `snapshot` for a version of 1 or more, the
    /// whole file for version 0.
    public let data: Data

    /// Creates the contents of an old file.
    ///
    /// - Parameters:
    ///   - version: The format version, 0 for a file without the envelope.
    ///   - data: The saved state as JSON.
    public init(version: Int, data: Data) {
      self.version = version
      self.data = data
    }
  }

  /// Reads an older file as the current snapshot; throwing says why it cannot.
  public typealias Migration = @Sendable (_ old: OldContents) throws -> Model.Snapshot

  /// The file.
  public let path: String
  /// The format version this program writes, and the newest it reads (at least 1).
  public let version: Int
  /// How to read files in older versions; nil if there are none.
  public let migrate: Migration?

  /// Names a file for a model's snapshot.
  ///
  /// - Parameters:
  ///   - path: The file (its folder must exist when it is saved).
  ///   - version: The format version this program writes: raise it when the snapshot's shape
  ///     changes, and read the older versions in `migrate`. At least 1.
  ///   - migrate: Reads a file of an older version (or one without the envelope, version 0)
  ///     as the current snapshot; nil if there is nothing older to read.
  public init(path: String, version: Int = 1, migrate: Migration? = nil) {
    self.path = path
    self.version = max(1, version)
    self.migrate = migrate
  }

  /// The name of the format, in every envelope.
  static var formatName: String { "arboreal-snapshot" }

  // MARK: Reading

  /// Reads the snapshot in the file.
  ///
  /// - Returns: The snapshot, migrated if the file is older; nil when there is no file.
  /// - Throws: ``PersistenceError`` naming the file and what is wrong with it.
  public func load() throws(PersistenceError) -> Model.Snapshot? {
    try read()?.snapshot
  }

  /// Reads the file: the snapshot, and whether it came from an older version.
  func read() throws(PersistenceError) -> (snapshot: Model.Snapshot, migrated: Bool)? {
    let data: Data
    do throws(FileFailure) {
      data = try readFile(at: path)
    } catch {
      if error.code == ENOENT { return nil }
      throw PersistenceError(.file(error.reason), path: path)
    }
    guard !data.isEmpty else { throw PersistenceError(.notJSON("the file is empty"), path: path) }
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    } catch {
      throw PersistenceError(.notJSON("it may have been cut short or edited by hand"), path: path)
    }
    guard let envelope = object as? [String: Any],
      envelope["format"] as? String == Self.formatName
    else {
      return (try migrated(OldContents(version: 0, data: data)), true)
    }
    guard let found = envelope["version"] as? Int, found >= 1, envelope["snapshot"] != nil else {
      throw PersistenceError(
        .snapshotDoesNotDecode("the envelope needs a \"version\" from 1 and a \"snapshot\""),
        path: path)
    }
    guard found <= version else {
      throw PersistenceError(.newerVersion(found: found, supported: version), path: path)
    }
    guard found == version else {
      let old: Data
      do {
        old = try JSONSerialization.data(
          withJSONObject: envelope["snapshot"] as Any, options: [.fragmentsAllowed, .sortedKeys])
      } catch {
        throw PersistenceError(.snapshotDoesNotDecode("\(error)"), path: path)
      }
      return (try migrated(OldContents(version: found, data: old)), true)
    }
    do {
      return (try JSONDecoder().decode(Envelope.self, from: data).snapshot, false)
    } catch {
      throw PersistenceError(.snapshotDoesNotDecode(describe(error)), path: path)
    }
  }

  /// The envelope as read, once its format and version have been checked.
  private struct Envelope: Decodable {
    var snapshot: Model.Snapshot
  }

  /// `old` through the migration.
  private func migrated(_ old: OldContents) throws(PersistenceError) -> Model.Snapshot {
    guard let migrate else {
      throw PersistenceError(
        old.version == 0 ? .notASnapshot : .noMigration(from: old.version), path: path)
    }
    do {
      return try migrate(old)
    } catch {
      throw PersistenceError(
        .migrationFailed(from: old.version, reason: describe(error)), path: path)
    }
  }

  // MARK: Writing

  /// The bytes ``save(_:)`` writes for a snapshot.
  ///
  /// - Throws: ``PersistenceError`` when the snapshot does not encode.
  func encoded(_ snapshot: Model.Snapshot) throws(PersistenceError) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    var data = Data(
      "{\"format\":\(jsonString(Self.formatName)),\"version\":\(version),\"snapshot\":".utf8)
    do {
      data.append(try encoder.encode(snapshot))
    } catch {
      throw PersistenceError(.snapshotDoesNotEncode(describe(error)), path: path)
    }
    reportSecrets(inJSON: data, "the snapshot of \(Model.self) persisted at \(path)")
    data.append(contentsOf: Array("}\n".utf8))
    return data
  }

  /// Writes a snapshot atomically: to a temporary file in the same folder, synced to the
  /// disk, then renamed over the file (and the folder synced, so that the rename lasts).
  ///
  /// Blocks on the disk: call it off the main actor (``StorePersister`` does). Two calls for
  /// the same file must not overlap; each makes a temporary file of its own, so an overlap
  /// loses no file, but the older state may be renamed in last.
  ///
  /// - Parameter snapshot: The state to write.
  /// - Throws: ``PersistenceError`` when the snapshot does not encode or the file cannot be
  ///   written; the file is then as it was.
  public func save(_ snapshot: Model.Snapshot) throws(PersistenceError) {
    try write(encoded(snapshot))
  }

  /// Writes `data` atomically over the file, synced to the disk.
  func write(_ data: Data) throws(PersistenceError) {
    if let problem = replaceFile(at: path, with: data, syncing: true) {
      throw PersistenceError(.file(problem), path: path)
    }
  }

  /// The last system error, as an error about this file.
  private func failure() -> PersistenceError {
    PersistenceError(.file(String(cString: strerror(errno))), path: path)
  }

  /// Renames the file out of the way (to `todos.json.corrupt-20261126-101500`, with a counter
  /// if that is taken), so that the program can start afresh without losing it.
  ///
  /// ```swift
  /// } catch {
  ///   let aside = try file.moveAside()
  ///   print("\(error); kept at \(aside), starting empty")
  /// }
  /// ```
  ///
  /// - Parameter now: The time in the new name.
  /// - Returns: The new path.
  /// - Throws: ``PersistenceError`` when the file cannot be renamed.
  @discardableResult
  public func moveAside(now: Date = Date()) throws(PersistenceError) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyyMMdd-HHmmss"
    let stem = "\(path).corrupt-\(formatter.string(from: now))"
    var aside = stem
    var counter = 1
    while access(aside, F_OK) == 0 {
      counter += 1
      aside = "\(stem)-\(counter)"
    }
    guard rename(path, aside) == 0 else { throw failure() }
    return aside
  }
}
