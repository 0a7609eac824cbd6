// Package hook, not API: one way for the sibling modules to write a diagnostic, the same as
// the tracking layer's own.

/// Writes `message` and a newline to standard error in one `write`, without Foundation and
/// without buffering (a diagnostic must not be lost if the process stops right after).
package func writeToStandardError(_ message: String) {
  Platform.printError(message)
}
