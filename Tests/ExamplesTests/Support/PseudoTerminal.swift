import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pseudo-terminal: a program given ``secondary`` as standard input sees a terminal; the
/// test types on the primary side and reads back what the terminal echoed.
final class PseudoTerminal {
  /// The side the test types on and reads echoes from; non-blocking.
  private let primary: Int32
  /// The terminal the program reads from.
  let secondary: FileHandle

  init() throws {
    // `openpty` is in the C library (glibc 2.34 and later, Darwin) but not in the headers the
    // Glibc module imports, so it is looked up by name.
    typealias OpenPTY =
      @convention(c) (
        UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<CChar>?,
        UnsafeRawPointer?, UnsafeRawPointer?
      ) -> Int32
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "openpty") else {
      throw Failure(call: "dlsym(openpty)")
    }
    let openpty = unsafeBitCast(symbol, to: OpenPTY.self)
    var primary: Int32 = -1
    var secondary: Int32 = -1
    guard openpty(&primary, &secondary, nil, nil, nil) == 0 else {
      throw Failure(call: "openpty")
    }
    self.primary = primary
    self.secondary = FileHandle(fileDescriptor: secondary, closeOnDealloc: true)
    _ = fcntl(primary, F_SETFL, fcntl(primary, F_GETFL) | O_NONBLOCK)
  }

  deinit {
    close(primary)
  }

  /// Types `text`, as a user at the keyboard would.
  func type(_ text: String) throws {
    let bytes = Array(text.utf8)
    guard write(primary, bytes, bytes.count) == bytes.count else { throw Failure(call: "write") }
  }

  /// What the terminal has echoed since the last call.
  func echoed() -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = read(primary, &buffer, buffer.count)
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Whether the terminal echoes what is typed (its `ECHO` flag).
  var echoes: Bool {
    var settings = termios()
    _ = tcgetattr(secondary.fileDescriptor, &settings)
    return settings.c_lflag & tcflag_t(ECHO) != 0
  }

  struct Failure: Error {
    var call: String
  }
}
