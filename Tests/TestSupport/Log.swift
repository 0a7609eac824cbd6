import Synchronization

/// A thread-safe, append-only list: what observers, effects and handlers saw, in order.
package final class Log<Entry: Sendable>: Sendable {
  private let entries = Mutex<[Entry]>([])

  package init() {}

  package func append(_ entry: Entry) { entries.withLock { $0.append(entry) } }
  package var all: [Entry] { entries.withLock { $0 } }
  package var count: Int { entries.withLock { $0.count } }
}
