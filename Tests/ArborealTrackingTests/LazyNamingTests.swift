import ArborealTracking
import Synchronization
import Testing

/// A first change that wakes only observers which ignore what changed (the library's own, made
/// with the package forms `observe(ignoringChanges:)` and `withTracking(_:ignoringChanges:)`)
/// skips naming the property; whoever reads the changes later still gets its name and owner.
@MainActor
@Suite struct LazyNamingTests {
  @Test func aChangeSeenFirstByAPlainObserverIsNamedForTheNextObserverThatReadsChanges() {
    let counter = Counter()
    var fired = 0
    withTracking {
      _ = counter.count
    } ignoringChanges: {
      fired += 1
    }
    counter.count = 1
    #expect(fired == 1)

    var names: [String] = []
    withTracking {
      _ = counter.count
    } onChange: { changes in
      names += changes.map(\.qualifiedName)
    }
    counter.count = 2
    let owner = counter.$count.owner?.description
    #expect(owner?.hasPrefix("Counter#") == true)
    #expect(names == ["\(owner ?? "?").count"])
  }

  @Test func aPlainContinuousObserverRunsOnEveryChangeOfAnUnnamedProperty() {
    let counter = Counter()
    var runs = 0
    let token = observe(ignoringChanges: {
      _ = counter.step
      runs += 1
    })
    for step in 2...5 { counter.step = step }
    #expect(runs == 5)
    token.cancel()
  }
}

/// The same guarantee off the main actor: nonisolated observers, a write from a detached task,
/// and an observer registered on another actor.
@Suite struct LazyNamingIsolationTests {
  /// `@unchecked Sendable`: its one property is tracked, and the registrar's protocol orders
  /// each write before the reads that follow it (no other state).
  final class Shared: Trackable, @unchecked Sendable {
    let registrar = TrackingRegistrar()
    @Tracked var count = 0
  }

  actor Watcher {
    var names: [String] = []
    func watch(_ model: Shared) {
      withTracking {
        _ = model.count
      } onChange: { changes in
        self.names += changes.map(\.name)
      }
    }
  }

  @Test func namesSurviveAPlainFirstChangeInEveryIsolation() async {
    let model = Shared()
    let fired = Atomic<Int>(0)
    withTracking {
      _ = model.count
    } ignoringChanges: { @Sendable in
      fired.wrappingAdd(1, ordering: .relaxed)
    }
    await Task.detached { model.count = 1 }.value  // a plain observer's first change
    #expect(fired.load(ordering: .relaxed) == 1)

    let names = Mutex<[String]>([])
    withTracking {
      _ = model.count
    } onChange: { @Sendable changes in
      names.withLock { $0 += changes.map(\.name) }
    }
    await Task.detached { model.count = 2 }.value
    #expect(names.withLock { $0 } == ["count"])

    let watcher = Watcher()
    await watcher.watch(model)
    model.count = 3
    // Delivered on the watcher's actor: wait for it without the clock.
    while await watcher.names.isEmpty { await Task.yield() }
    #expect(await watcher.names == ["count"])
  }
}
