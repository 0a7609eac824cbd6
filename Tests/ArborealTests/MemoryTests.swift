import Arboreal
import ArborealTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Releasing frees everything, and a long run of plain actions leaves memory flat. One test
/// at a time: the long run reads the whole process's resident size, which a test beside it
/// would grow (CI runs this suite in a process of its own for the same reason).
@Suite(.serialized) struct MemoryTests {
  @MainActor
  @Test func releasingAStoreFreesItsModelEvenWithEffectsRunning() async {
    let gate = Gate()
    weak var weakStore: Store<Script>?
    weak var weakModel: Script?
    var handle: SendHandle?
    do {
      let store = Store(state: Script(), environment: ())
      weakStore = store
      weakModel = store.state
      handle = store.send(
        .run(
          Fx {
            await gate.wait(); return .record("late")
          }))
      let token = observe { _ in _ = store.state.log }
      let child = store.viewStore()
      _ = child.state
      token.cancel()
    }
    #expect(weakStore == nil, "a running effect must not keep its store alive")
    #expect(weakModel == nil)
    await handle?.value  // the store's release finished the handle
    gate.open()
  }

  @MainActor
  @Test func releasingTokensAndViewStoresFreesThem() {
    let store = Store(state: Counter(), environment: ())
    weak var weakToken: TrackingToken?
    weak var weakView: ViewStore<Counter>?
    var runs = 0
    do {
      let token = observe { _ in
        _ = store.state.count; runs += 1
      }
      weakToken = token
      let view = store.viewStore()
      weakView = view
      view.send(.increment)
    }
    #expect(weakToken == nil)
    #expect(weakView == nil)
    let before = runs
    store.send(.increment)
    #expect(runs == before, "a released token is not notified")
  }

  /// Misuse: an action sent through a view store or a handle that outlived its store is
  /// ignored (the view store keeps its parent alive, so only a handle can outlive it).
  @MainActor
  @Test func aHandleOfAReleasedStoreIsFinishedAndCancelIsIgnored() async {
    let gate = Gate()
    var handle: SendHandle?
    do {
      let store = Store(state: Script(), environment: ())
      handle = store.send(
        .run(
          Fx {
            await gate.wait(); return .record("late")
          }))
      #expect(handle?.isFinished == false)
    }
    #expect(handle?.isFinished == true)
    handle?.cancel()  // no crash
    await handle?.value
    gate.open()
  }

  /// Plain actions, each notifying an observer, leave the resident size flat. Linux only
  /// (reads `/proc/self/status`). The count is 300,000 by default (a few seconds in debug,
  /// sharing the main actor with the other tests); run a million locally with
  /// `ARBOREAL_MEMORY_ACTIONS=1000000` (about 10 s in debug; the same 8 MB bound holds).
  @MainActor
  @Test(.enabled(if: reliabilitySuiteEnabled))
  func aMillionActionsLeaveMemoryFlat() throws {
    guard residentKilobytes() != nil else { return }
    let count =
      ProcessInfo.processInfo.environment["ARBOREAL_MEMORY_ACTIONS"].flatMap(Int.init)
      ?? 300_000
    let store = Store(state: Counter(), environment: ())
    var runs = 0
    let token = observe { _ in
      _ = store.state.count; runs += 1
    }
    for _ in 0..<50_000 { store.send(.increment) }
    let before = try #require(residentKilobytes())
    for _ in 0..<count { store.send(.increment) }
    let after = try #require(residentKilobytes())
    token.cancel()
    #expect(store.state.count == 50_000 + count)
    #expect(runs == 50_001 + count)
    #expect(after - before < 8 * 1024, "grew from \(before) kB to \(after) kB")
  }

  private func residentKilobytes() -> Int? {
    #if os(Linux)
      guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)
      else { return nil }
      for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
      }
      return nil
    #else
      return nil
    #endif
  }
}
