import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the program writes: messages and prompts to standard output, errors to standard
/// error. Unbuffered, so prompts show at once and output keeps its order in a pipe.
struct Console: Sendable {
  /// Whether standard input is a terminal. Prompts are shown only then, so piped output holds
  /// only what the commands print.
  let isInteractive = isatty(STDIN_FILENO) == 1

  func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }

  func prompt(_ text: String) {
    guard isInteractive else { return }
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  /// A one-line error and, on a second line, a hint.
  func error(_ message: String, hint: String? = nil) {
    var text = "error: \(message)\n"
    if let hint { text += "hint: \(hint)\n" }
    FileHandle.standardError.write(Data(text.utf8))
  }

  func error(_ input: InputError) {
    error(input.message, hint: input.hint)
  }
}
