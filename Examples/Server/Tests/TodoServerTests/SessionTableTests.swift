import Testing

@testable import TodoServer

/// The registry's state on its own: no lock, no actor, plain values for hosts.
@Suite struct SessionTableTests {
  let start = ContinuousClock.now
  let ids = (0..<3).map { _ in SessionID.random() }

  @Test func insertRefusesWhenFullOrTaken() {
    var table = SessionTable<String>(capacity: 2, idleTimeout: .seconds(10))
    #expect(table.insert("a", id: ids[0], at: start))
    #expect(!table.insert("again", id: ids[0], at: start))
    #expect(table.insert("b", id: ids[1], at: start))
    #expect(!table.insert("c", id: ids[2], at: start))
    #expect(table.count == 2)
    #expect(table.use(ids[0], at: start) == "a")
  }

  @Test func removeIdleTakesExactlyTheSessionsIdleForTheTimeout() {
    var table = SessionTable<String>(capacity: 3, idleTimeout: .seconds(10))
    _ = table.insert("a", id: ids[0], at: start)
    _ = table.insert("b", id: ids[1], at: start + .seconds(5))
    _ = table.insert("c", id: ids[2], at: start)
    _ = table.use(ids[2], at: start + .seconds(9))

    #expect(table.removeIdle(at: start + .milliseconds(9_999)).isEmpty)
    #expect(table.removeIdle(at: start + .seconds(10)) == ["a"])
    #expect(table.removeIdle(at: start + .seconds(15)) == ["b"])
    #expect(table.removeIdle(at: start + .seconds(19)) == ["c"])
    #expect(table.count == 0)
  }

  @Test func removeTakesOneAndRemoveAllTheRest() {
    var table = SessionTable<String>(capacity: 3, idleTimeout: .seconds(10))
    for (id, host) in zip(ids, ["a", "b", "c"]) { _ = table.insert(host, id: id, at: start) }
    #expect(table.remove(ids[1]) == "b")
    #expect(table.remove(ids[1]) == nil)
    #expect(table.use(ids[1], at: start) == nil)
    #expect(Set(table.removeAll()) == ["a", "c"])
    #expect(table.count == 0)
  }
}
