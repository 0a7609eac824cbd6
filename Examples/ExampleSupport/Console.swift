import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where an example program writes: messages and prompts to standard output, errors to
/// standard error. Unbuffered, so prompts show at once and output keeps its order in a pipe.
package struct Console: Sendable {
  /// Whether standard input is a terminal. Prompts, progress indicators and hidden input
  /// apply only then, so piped output holds only what the program has to say.
  package let isInteractive = isatty(STDIN_FILENO) == 1

  package init() {}

  /// Writes a line to standard output.
  package func say(_ line: String) {
    write(line + "\n")
  }

  /// Shows a prompt, without a newline, when standard input is a terminal; with `hidingInput`,
  /// what is typed next is not echoed (a password) until another prompt or ``showInput()``.
  package func prompt(_ text: String, hidingInput: Bool = false) {
    guard isInteractive else { return }
    // Echo changes before the prompt shows, so nothing typed after it is echoed.
    TerminalEcho.set(visible: !hidingInput)
    write(text)
  }

  /// Echoes typed input again after a prompt that hid it; nothing when piped.
  package func showInput() {
    if isInteractive { TerminalEcho.set(visible: true) }
  }

  /// Rewrites the current terminal line (a progress indicator); nothing when piped.
  package func overwriteLine(_ text: String) {
    if isInteractive { write("\r\u{1B}[K" + text) }
  }

  /// Writes a one-line error and, on a second line, a hint, to standard error.
  package func error(_ message: String, hint: String? = nil) {
    var text = "error: \(message)\n"
    if let hint { text += "hint: \(hint)\n" }
    FileHandle.standardError.write(Data(text.utf8))
  }

  private func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }
}
