import ArborealTestSupport
import ArborealTracking
import Testing

/// A one-shot observer fired by a write leaves nothing behind in the registrar, whatever the
/// isolation it was registered in and whichever thread writes: the write takes it off the
/// property's entry itself (the observer then skips that registrar when it unregisters), and
/// the next write notifies nobody until the observer is registered again.
@Suite struct OneShotFiringIsolationTests {
  /// A list of a million items, for the large case.
  final class BigList: Trackable, @unchecked Sendable {
    let registrar = TrackingRegistrar()
    @Tracked var items = [Int](repeating: 0, count: 1_000_000)
  }

  /// Waits until `log` has `count` entries, hopping through the executors meanwhile.
  private static func waitFor<Entry>(
    _ log: Log<Entry>, count: Int, isolation: isolated (any Actor)? = #isolation
  ) async {
    for _ in 0..<10_000 where log.count < count { await Task.yield() }
  }

  /// Registers with `register`, writes from a detached task, and checks the one firing, the
  /// empty registrar, a write that reaches nobody, and a second registration that fires.
  private static func fireFromADetachedTask(
    isolation: isolated (any Actor)? = #isolation,
    _ register: (SendableCounter, Log<String>) async -> Void
  ) async {
    let counter = SendableCounter()
    let fired = Log<String>()
    await register(counter, fired)
    #expect(counter.registrar.registrationCount == 1)
    await Task.detached { counter.count = 1 }.value
    await waitFor(fired, count: 1)
    #expect(fired.all == ["count"])
    #expect(counter.registrar.registrationCount == 0)
    await Task.detached { counter.count = 2 }.value
    await waitFor(fired, count: 2)
    #expect(fired.all == ["count"])
    await register(counter, fired)
    counter.count = 3
    await waitFor(fired, count: 2)
    #expect(fired.all == ["count", "count"])
    #expect(counter.registrar.registrationCount == 0)
  }

  @Test func nonisolated() async {
    await Self.fireFromADetachedTask { counter, fired in
      withTracking {
        _ = counter.count
      } onChange: { changes in
        fired.append(changes.description)
      }
    }
  }

  @MainActor @Test func onTheMainActor() async {
    await Self.fireFromADetachedTask { counter, fired in
      withTracking {
        _ = counter.count
      } onChange: { changes in
        fired.append(changes.description)
      }
    }
  }

  actor Registrar {
    func register(_ counter: SendableCounter, _ fired: Log<String>) {
      withTracking {
        _ = counter.count
      } onChange: { changes in
        fired.append(changes.description)
      }
    }
  }

  @Test func onAnotherActor() async {
    let registrar = Registrar()
    await Self.fireFromADetachedTask { counter, fired in
      await registrar.register(counter, fired)
    }
  }

  @Test func inADetachedTask() async {
    await Self.fireFromADetachedTask { counter, fired in
      await Task.detached {
        withTracking {
          _ = counter.count
        } onChange: { changes in
          fired.append(changes.description)
        }
      }.value
    }
  }

  @Test func aMillionItemsEditedInPlaceFromADetachedTask() async {
    let list = BigList()
    let fired = Log<String>()
    withTracking {
      _ = list.items.count
    } onChange: { changes in
      fired.append(changes.description)
    }
    await Task.detached { list.items[999_999] = 1 }.value
    #expect(fired.all == ["items"])
    #expect(list.registrar.registrationCount == 0)
    await Task.detached { list.items[0] = 1 }.value
    #expect(fired.all == ["items"])
  }
}
