import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the program writes: messages and prompts to standard output, errors to standard
/// error. Unbuffered, so prompts show at once and output keeps its order in a pipe.
struct Console: Sendable {
  /// Whether standard input is a terminal. Prompts and the progress indicator are shown only
  /// then, so piped output holds only what the program has to say.
  let isInteractive = isatty(STDIN_FILENO) == 1

  func say(_ line: String) {
    write(line + "\n")
  }

  func prompt(_ text: String) {
    if isInteractive { write(text) }
  }

  /// Rewrites the current terminal line (a progress indicator); nothing when piped.
  func overwriteLine(_ text: String) {
    if isInteractive { write("\r\u{1B}[K" + text) }
  }

  /// A one-line error and, on a second line, a hint.
  func error(_ message: String, hint: String? = nil) {
    var text = "error: \(message)\n"
    if let hint { text += "hint: \(hint)\n" }
    FileHandle.standardError.write(Data(text.utf8))
  }

  private func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }
}
