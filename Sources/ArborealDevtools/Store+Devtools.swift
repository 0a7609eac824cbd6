import Arboreal
import ArborealPersistence

extension Store {
  /// Prints each action the store handles and what it changed, old → new, as it happens:
  /// a readable change log for debugging.
  ///
  /// ```swift
  /// store.printChanges()
  /// store.send(.todo(id: 2, .setDone(true)))
  /// // #3 todo(id: 2, setDone(true))
  /// //   Todo#2.isDone: false → true
  /// ```
  ///
  /// Adds a log handler that asks for values (`addLogHandler(logsValues: true)`), beside any
  /// other handler. Each value is described with `String(reflecting:)` (so a
  /// `CustomStringConvertible` or `CustomDebugStringConvertible` value prints its own way)
  /// and shortened to `limit` characters. An in-place edit of a collection or a string keeps
  /// no old value and prints as `edited → new`. Equal values are never printed, since only
  /// net changes are reported.
  ///
  /// - Parameters:
  ///   - limit: The longest a value may print before it is cut with `…`.
  ///   - write: Where each entry's lines go; `print` by default.
  /// - Returns: The handler's token: `cancel()` stops printing.
  @discardableResult
  public func printChanges(
    limit: Int = 60, to write: @escaping (String) -> Void = { print($0) }
  ) -> LogHandlerToken {
    addLogHandler(logsValues: true) { entry in
      write(entry.changeReport(limit: limit))
    }
  }
}

extension StoreLogEntry {
  /// The entry as a readable change log prints it: the step, the action and where it came
  /// from, then one line per changed property, old → new.
  ///
  /// ```
  /// #3 todo(id: 2, setDone(true))
  ///   Todo#2.isDone: false → true
  /// #4 saveFinished(problem: nil) ← effect of #3
  ///   (no change)
  /// ```
  ///
  /// Values come from `changedValues` (a handler added with `logsValues: true`); without
  /// them, each line names the property alone.
  ///
  /// - Parameter limit: The longest a value may print before it is cut with `…`.
  /// - Returns: The lines, joined with newlines.
  public func changeReport(limit: Int = 60) -> String {
    let step = RecordedStep(sequence: sequence, action: action, cause: cause, changes: [])
    var lines = [step.summary]
    if changes.isEmpty {
      lines.append("  (no change)")
    } else if changedValues.isEmpty {
      lines += changes.map { "  \($0.qualifiedName)" }
    } else {
      for change in changedValues {
        let before = change.before.map { shorten($0, to: limit) } ?? "edited"
        let after = change.after.map { shorten($0, to: limit) } ?? "?"
        lines.append("  \(change.key.qualifiedName): \(before) → \(after)")
      }
    }
    let report = lines.joined(separator: "\n")
    reportSecrets(
      inDescription: report, "the change report of step \(sequence) (`\(caseName(of: action))`)")
    return report
  }
}

/// `text`, cut to `limit` characters with `…` at the end when longer.
private func shorten(_ text: String, to limit: Int) -> String {
  text.count <= limit ? text : String(text.prefix(max(limit - 1, 1))) + "…"
}
