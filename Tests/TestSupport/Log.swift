import ArborealTracking

/// A thread-safe, append-only list: what observers, effects and handlers saw, in order.
///
/// Behind the package's `Locked`, not a `Mutex`: ThreadSanitizer does not see a `Mutex`'s
/// hand-off on Linux, and reports appends from two threads as a race.
package final class Log<Entry: Sendable>: Sendable {
  private let entries = Locked.make([Entry]())

  package init() {}

  package func append(_ entry: Entry) { entries.withLock { $0.append(entry) } }
  package var all: [Entry] { entries.withLock { $0 } }
  package var count: Int { entries.withLock { $0.count } }
}
