import Testing

@testable import TodoServer

/// The registry's state on its own: no lock, no actor, plain values for hosts.
@Suite struct SessionTableTests {
  let start = ContinuousClock.now
  let ids = (0..<3).map { _ in SessionID.random() }

  @Test func insertRefusesWhenFullOrTaken() {
    var table = SessionTable<String>(capacity: 2, idleTimeout: .seconds(10))
    let inserted = [
      table.insert("a", id: ids[0], at: start),
      table.insert("again", id: ids[0], at: start),
      table.insert("b", id: ids[1], at: start),
      table.insert("c", id: ids[2], at: start),
    ]
    #expect(inserted == [true, false, true, false])
    #expect(table.count == 2)
    let used = table.use(ids[0], at: start)
    #expect(used == "a")
  }

  @Test func removeIdleTakesExactlyTheSessionsIdleForTheTimeout() {
    var table = SessionTable<String>(capacity: 3, idleTimeout: .seconds(10))
    _ = table.insert("a", id: ids[0], at: start)
    _ = table.insert("b", id: ids[1], at: start + .seconds(5))
    _ = table.insert("c", id: ids[2], at: start)
    _ = table.use(ids[2], at: start + .seconds(9))

    let removed = [9_999, 10_000, 15_000, 19_000].map {
      table.removeIdle(at: start + .milliseconds($0))
    }
    #expect(removed == [[], ["a"], ["b"], ["c"]])
    #expect(table.count == 0)
  }

  @Test func removeTakesOneAndRemoveAllTheRest() {
    var table = SessionTable<String>(capacity: 3, idleTimeout: .seconds(10))
    for (id, host) in zip(ids, ["a", "b", "c"]) { _ = table.insert(host, id: id, at: start) }
    let removed = [table.remove(ids[1]), table.remove(ids[1]), table.use(ids[1], at: start)]
    #expect(removed == ["b", nil, nil])
    let rest = Set(table.removeAll())
    #expect(rest == ["a", "c"])
    #expect(table.count == 0)
  }
}
