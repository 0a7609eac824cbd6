/// The live sessions and when each was last used: the session registry's state, without the
/// lock around it or the hosts' isolation, so that it can be tested on its own.
///
/// Generic over what it holds, so a test can fill it with plain values.
///
/// ## Data
/// - `entries`: each live session's host and the instant of its last request.
/// - `capacity`: the most sessions it holds at once.
/// - `idleTimeout`: how long a session may go unused before ``removeIdle(at:)`` takes it.
///
/// ## Invariants
/// - `entries.count <= capacity`.
struct SessionTable<Host> {
  /// A live session.
  struct Entry {
    let host: Host
    var lastUsed: ContinuousClock.Instant
  }

  private(set) var entries: [SessionID: Entry] = [:]
  let capacity: Int
  let idleTimeout: Duration

  init(capacity: Int, idleTimeout: Duration) {
    self.capacity = capacity
    self.idleTimeout = idleTimeout
  }

  var count: Int { entries.count }

  /// Adds a session used `now`; false, and nothing added, when the table is full or the id
  /// is taken (which 128 random bits make a bug, not bad luck).
  mutating func insert(_ host: Host, id: SessionID, at now: ContinuousClock.Instant) -> Bool {
    guard entries.count < capacity, entries[id] == nil else { return false }
    entries[id] = Entry(host: host, lastUsed: now)
    return true
  }

  /// The session's host, marked as used `now`; nil for an id that names no live session.
  mutating func use(_ id: SessionID, at now: ContinuousClock.Instant) -> Host? {
    entries[id]?.lastUsed = now
    return entries[id]?.host
  }

  /// Removes the session and returns its host, for the caller to end.
  mutating func remove(_ id: SessionID) -> Host? {
    entries.removeValue(forKey: id)?.host
  }

  /// Removes every session unused for `idleTimeout` or longer as of `now`, and returns their
  /// hosts, for the caller to end.
  ///
  /// - Complexity: O(*n*) for *n* sessions.
  mutating func removeIdle(at now: ContinuousClock.Instant) -> [Host] {
    let idle = entries.filter { now - $0.value.lastUsed >= idleTimeout }
    for id in idle.keys { entries[id] = nil }
    return idle.values.map(\.host)
  }

  /// Removes every session and returns their hosts, for the caller to end.
  mutating func removeAll() -> [Host] {
    defer { entries = [:] }
    return entries.values.map(\.host)
  }
}
