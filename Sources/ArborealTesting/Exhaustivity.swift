/// How strictly a ``TestStore`` checks that a test accounts for everything that happened.
///
/// ```swift
/// let store = TestStore(state: Counter())  // exhaustive: `.on`
/// store.exhaustivity = .off  // an integration test that asserts only what it cares about
/// ```
///
/// | | `.on` (the default) | `.off` |
/// |---|---|---|
/// | A changed property the assertion did not read | fails | passes |
/// | An effect action | waits for ``TestStore/receive(_:timeout:assert:fileID:filePath:line:column:)-(Model.Action,_,_,_,_,_,_)`` | applied as it arrives |
/// | `receive` | the next action must match | skips to the first matching action |
/// | `send` while received actions are unhandled | fails | passes |
/// | Unreceived actions at ``TestStore/finish(timeout:fileID:filePath:line:column:)`` | fail | pass |
/// | Effects still running at `finish` | fail | fail |
public enum Exhaustivity: Sendable, Hashable {
  /// Every change and every effect action must be asserted.
  case on
  /// Only what the test asserts is checked; effect actions are applied as they arrive.
  case off
}
