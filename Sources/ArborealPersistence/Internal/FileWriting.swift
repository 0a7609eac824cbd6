import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// The file reading and writing of persisted files and recordings, shared by the persister (a snapshot
// replacing a file, synced), the recorder (lines appended to an open file) and the viewer (a
// page replacing a file).

/// Writes all of `data` to `descriptor`, retrying interrupted and partial writes.
///
/// - Returns: nil, or the system's reason when a write fails.
package func writeAll(_ data: Data, to descriptor: Int32) -> String? {
  data.withUnsafeBytes { buffer -> String? in
    var offset = 0
    while offset < buffer.count {
      let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
      if written < 0, errno == EINTR { continue }
      if written <= 0 { return String(cString: strerror(errno)) }
      offset += written
    }
    return nil
  }
}

/// Replaces the file at `path` with `data` atomically: the bytes go to a new temporary file in
/// the same folder, which is then renamed over `path`, so that a reader, or a process killed
/// at any moment, sees the old file or the new one, never part of one. With `syncing`, the
/// temporary file is synced to the disk before the rename, and the folder after it, so that
/// the new file also survives a power loss. The temporary file is removed on failure.
///
/// - Returns: nil, or the system's reason when the file cannot be written.
package func replaceFile(at path: String, with data: Data, syncing: Bool) -> String? {
  let url = URL(fileURLWithPath: path)
  let folder = url.deletingLastPathComponent().path
  let temporary =
    folder + "/.\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
  let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
  guard descriptor >= 0 else { return String(cString: strerror(errno)) }
  var problem = writeAll(data, to: descriptor)
  if problem == nil, syncing, fsync(descriptor) != 0 { problem = String(cString: strerror(errno)) }
  if close(descriptor) != 0, problem == nil { problem = String(cString: strerror(errno)) }
  if problem == nil, rename(temporary, path) != 0 { problem = String(cString: strerror(errno)) }
  if let problem {
    unlink(temporary)
    return problem
  }
  if syncing {
    // The rename is in the folder: sync it too, or a power loss may undo it.
    let folderDescriptor = open(folder, O_RDONLY | O_CLOEXEC)
    if folderDescriptor >= 0 {
      _ = fsync(folderDescriptor)
      close(folderDescriptor)
    }
  }
  return nil
}

/// A file that could not be read, with the system's reason.
package struct FileFailure: Error {
  package var reason: String
  /// The system's error number (`ENOENT` for a missing file).
  package var code: Int32 = 0
}

/// The whole contents of a file, read with the C library, so that a failure comes with the
/// system's own words (`No such file or directory`).
package func readFile(at path: String) throws(FileFailure) -> Data {
  let descriptor = open(path, O_RDONLY | O_CLOEXEC)
  guard descriptor >= 0 else {
    throw FileFailure(reason: String(cString: strerror(errno)), code: errno)
  }
  defer { close(descriptor) }
  var data = Data()
  var buffer = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = read(descriptor, &buffer, buffer.count)
    if count < 0, errno == EINTR { continue }
    guard count >= 0 else {
      throw FileFailure(reason: String(cString: strerror(errno)), code: errno)
    }
    if count == 0 { return data }
    data.append(contentsOf: buffer[..<count])
  }
}
