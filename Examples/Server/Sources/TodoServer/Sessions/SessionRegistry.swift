import Foundation
import Synchronization

/// The server's sessions: makes them, finds them by id, and ends them, on request or when
/// they have been idle too long.
///
/// The table sits behind a lock, not in an actor: a lookup is a few instructions, and every
/// request makes one, so a hop to a shared actor would serialise the requests that the
/// sessions' own actors keep apart. Each ending session is removed from the table under the
/// lock and ended after it is released, so a slow ending holds up no other request.
///
/// ## Data
/// - `table`: the live sessions, under the lock.
/// - `settings`: how sessions are made and how long they may idle.
///
/// ## Invariants
/// - A host is ended only after it has left the table, and by whoever removed it: each host
///   is ended once.
final class SessionRegistry: Sendable {
  private let table: Mutex<SessionTable<any SessionHost>>
  private let settings: SessionSettings

  /// A registry with no session yet.
  init(settings: SessionSettings) {
    self.settings = settings
    table = Mutex(SessionTable(capacity: settings.capacity, idleTimeout: settings.idleTimeout))
  }

  /// The number of live sessions.
  var count: Int { table.withLock { $0.count } }

  /// Makes a session with an empty list and returns its id.
  ///
  /// - Throws: ``APIError`` when the registry is full or the recording cannot be made.
  func create(at now: ContinuousClock.Instant = .now) async throws(APIError) -> SessionID {
    // Checked before the host is made, so that a full server makes no store; checked again
    // when it is added, since other sessions may have come meanwhile.
    guard count < settings.capacity else { throw .tooManySessions }
    let id = SessionID.random()
    let host: any SessionHost
    do {
      host = try await settings.isolation.makeHost(
        environment: settings.environment, recordingPath: settings.recordingPath(for: id))
    } catch {
      throw .serverFault("the session's recording cannot be made: \(error)")
    }
    guard table.withLock({ $0.insert(host, id: id, at: now) }) else {
      await host.end()
      throw .tooManySessions
    }
    return id
  }

  /// The host of the session with this id, marked as used now; nil when there is none.
  func host(_ id: SessionID, at now: ContinuousClock.Instant = .now) -> (any SessionHost)? {
    table.withLock { $0.use(id, at: now) }
  }

  /// Ends the session; false when there was none.
  func end(_ id: SessionID) async -> Bool {
    guard let host = table.withLock({ $0.remove(id) }) else { return false }
    await host.end()
    return true
  }

  /// Ends every session that has had no request for the idle timeout as of `now`, and
  /// returns how many.
  ///
  /// - Complexity: O(*n*) for *n* sessions, plus the endings.
  @discardableResult
  func sweep(at now: ContinuousClock.Instant = .now) async -> Int {
    let idle = table.withLock { $0.removeIdle(at: now) }
    for host in idle { await host.end() }
    return idle.count
  }

  /// Ends every session: when the server stops.
  func endAll() async {
    let hosts = table.withLock { $0.removeAll() }
    for host in hosts { await host.end() }
  }

  /// Sweeps every `interval` until the task is cancelled.
  func sweepPeriodically(every interval: Duration) async {
    while (try? await Task.sleep(for: interval)) != nil {
      await sweep()
    }
  }
}
