import Arboreal
import ArborealTesting
import Testing

// The code of the "Effect queues" article (Arboreal.docc/EffectQueues.md), verbatim between the
// `article begins` and `article ends` markers, so that it keeps compiling and doing what the
// article says.

enum DocsQueues {
  // article begins: uploader
  final class Uploader: ArborealModel {
    enum Action: Sendable, Equatable {
      case upload(String)
      case uploaded(String)
    }

    struct Environment: Sendable {
      var clock: any Clock<Duration> = ContinuousClock()
      var upload: @Sendable (String) async -> Void
    }

    struct UploadQueue: Hashable, Sendable {}

    let registrar = TrackingRegistrar()
    @Tracked private(set) var uploaded: [String] = []

    func update(action: Action, environment: Environment) -> Fx<Action> {
      switch action {
      case .upload(let name):
        // Three uploads at a time, the rest wait their turn; starts at least a second apart.
        return Fx {
          await environment.upload(name)
          return .uploaded(name)
        }
        .queue(
          UploadQueue(), .oldest(3, whenFull: .suspend), spacing: .seconds(1),
          clock: environment.clock)
      case .uploaded(let name):
        uploaded.append(name)
        return .none
      }
    }
  }
  // article ends: uploader
}

@Suite actor DocsQueuesTests {
  typealias Uploader = DocsQueues.Uploader

  // article begins: uploader-test
  @Test func startsUploadsASecondApart() async {
    let clock = TestClock()
    let store = TestStore(state: Uploader(), environment: .init(clock: clock, upload: { _ in }))
    await store.send(.upload("a"))
    await store.receive(.uploaded("a")) { #expect($0.uploaded == ["a"]) }  // at once
    await store.send(.upload("b"))
    await store.send(.upload("c"))
    await clock.advance(by: .milliseconds(999))
    #expect(clock.pendingCount == 2)  // "b" and "c" wait for their turn
    await clock.advance(by: .milliseconds(1))
    await store.receive(.uploaded("b")) { #expect($0.uploaded == ["a", "b"]) }
    await clock.advance(by: .seconds(1))
    await store.receive(.uploaded("c")) { #expect($0.uploaded == ["a", "b", "c"]) }
    await store.finish()
  }
  // article ends: uploader-test
}
