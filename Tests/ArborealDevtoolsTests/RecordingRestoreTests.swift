import Arboreal
import ArborealDevtools
import ArborealTestSupport
import Testing

/// A screen of `RenumberingNavigator`'s stack.
final class RenumberedScreen: ArborealModel {
  enum Action: Codable, Sendable, Equatable {
    case add
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var count = 0

  init(count: Int = 0) {
    self.count = count
  }

  func update(action: Action, environment: Void) -> Fx<Action> {
    count += 1
    return .none
  }
}

/// `NavigationRecordingTests`' app as a first attempt restores it: the snapshot keeps the
/// screens but not their identifiers, and `ModelStack(_:)` numbers them afresh. A recorded
/// `element(id: 3, …)` then reaches whichever screen is #3 after the restore, or none.
final class RenumberingNavigator: ReplayableModel {
  enum Action: Codable, Sendable, Equatable {
    case path(StackAction<RenumberedScreen.Action>)
  }

  struct Snapshot: Codable, Equatable, Sendable {
    var counts: [Int]
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var path = ModelStack<RenumberedScreen>()
  static let path = ChildRoute.stack(\RenumberingNavigator.path, tag: Action.path)

  static let routes: [ChildRoute<RenumberingNavigator>] = [.stack(\.path, tag: Action.path)]

  init() {}

  init(snapshot: Snapshot) {
    path = ModelStack(snapshot.counts.map { RenumberedScreen(count: $0) })
  }

  var snapshot: Snapshot { Snapshot(counts: path.map(\.count)) }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .path(let action):
      return forward(action, to: Self.path, environment: ())
    }
  }
}

/// A stack that a model's `init(snapshot:)` fills with `push` (or `ModelStack(_:)`) gets fresh
/// identifiers, and a recording's actions that name screens may reach another one: debug
/// builds report it, once per screen type, when a replay or a timeline rebuilds the model.
@Suite actor RecordingRestoreTests {
  #if DEBUG
    @MainActor
    @Test func aStackRestoredWithFreshIdentifiersIsReportedOnce() {
      let messages = Log<String>()
      ArborealDiagnostics.droppedActionHandler = { messages.append($0) }
      defer { ArborealDiagnostics.droppedActionHandler = nil }
      let recording = Recording<RenumberingNavigator>(start: .init(counts: [1, 2]), steps: [])
      _ = recording.replay(environment: ())
      _ = recording.replay(skipping: [], environment: ())
      Timeline(recording, environment: ()).jump(to: 0)
      let reports = messages.all.filter { $0.contains("ModelStack<RenumberedScreen>") }
      #expect(reports.count == 1)
      #expect(reports.first?.contains("ModelStack(restoring:nextElementID:)") == true)
    }

    @MainActor
    @Test func aStackRestoredWithItsIdentifiersAndAPushReplayedAreNotReported() {
      let messages = Log<String>()
      ArborealDiagnostics.droppedActionHandler = { messages.append($0) }
      defer { ArborealDiagnostics.droppedActionHandler = nil }
      let start = Navigator.Snapshot(path: [.init(id: 4, count: 1)], nextID: 6, sheet: nil)
      let recording = Recording<Navigator>(
        start: start,
        steps: [RecordedStep(sequence: 1, action: .push, cause: .sent, changes: [])])
      let replayed = recording.replay(environment: ())
      #expect(replayed.snapshot.path.map(\.id) == [4, 6])
      #expect(messages.all.filter { $0.contains("ModelStack<StackCounter>") }.isEmpty)
    }
  #endif

  /// Outside a restore, numbering screens afresh is what `ModelStack(_:)` is for.
  @Test func aStackMadeOutsideARestoreNumbersFromZero() {
    let stack = ModelStack([RenumberedScreen(), RenumberedScreen()])
    #expect(stack.elementIDs == [0, 1])
  }
}
