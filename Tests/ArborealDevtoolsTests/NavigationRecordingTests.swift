import Arboreal
import ArborealDevtools
import Foundation
import Testing

/// A screen of the stack: a counter.
final class StackCounter: ArborealModel {
  enum Action: Codable, Sendable, Equatable {
    case add
    case close
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var count = 0

  init(count: Int = 0) {
    self.count = count
  }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .add:
      count += 1
      return .none
    case .close:
      return .dismiss
    }
  }
}

/// An app with a navigation stack and a presented sheet, replayable: its snapshot keeps each
/// screen's identifier and the stack's next one (`ModelStack(restoring:nextElementID:)`).
final class Navigator: ReplayableModel {
  enum Action: Codable, Sendable, Equatable {
    case push
    case path(StackAction<StackCounter.Action>)
    case openSheet
    case sheet(PresentationAction<StackCounter.Action>)
  }

  struct Snapshot: Codable, Equatable, Sendable {
    struct Screen: Codable, Equatable, Sendable {
      var id: StackElementID
      var count: Int
    }

    var path: [Screen]
    var nextID: StackElementID
    var sheet: Int?
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var path = ModelStack<StackCounter>()
  @Tracked private(set) var sheet: StackCounter?

  static let path = ChildRoute.stack(\Navigator.path, tag: Action.path)
  static let sheet = ChildRoute.child(\Navigator.sheet, tag: Action.sheet)
  static let routes: [ChildRoute<Navigator>] = [path, sheet]

  init() {}

  init(snapshot: Snapshot) {
    path = ModelStack(
      restoring: snapshot.path.map { ($0.id, StackCounter(count: $0.count)) },
      nextElementID: snapshot.nextID)
    sheet = snapshot.sheet.map { StackCounter(count: $0) }
  }

  var snapshot: Snapshot {
    Snapshot(
      path: path.indices.map { Snapshot.Screen(id: path.id(at: $0), count: path[$0].count) },
      nextID: path.nextElementID, sheet: sheet?.count)
  }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .push:
      path.push(StackCounter())
      return .none
    case .path(let action):
      return forward(action, to: Self.path, environment: ())
    case .openSheet:
      sheet = StackCounter()
      return .none
    case .sheet(let action):
      return forward(action, to: Self.sheet, environment: ())
    }
  }
}

/// A navigation app recorded and replayed: stack and presentation actions encode, a restored
/// stack keeps its screens' identifiers and its next one, and steps can be skipped.
@Suite actor NavigationRecordingTests {
  @Test func stackAndPresentationActionsEncodeAsSwiftEncodesEnumerations() throws {
    let actions: [Navigator.Action] = [
      .path(.element(id: 2, action: .add)), .path(.popFrom(id: 1)), .sheet(.presented(.close)),
      .sheet(.dismiss),
    ]
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode(actions)
    #expect(
      String(decoding: data, as: UTF8.self)
        == #"[{"path":{"_0":{"element":{"action":{"add":{}},"id":2}}}},{"path":{"_0":{"popFrom":{"id":1}}}},"#
        + #"{"sheet":{"_0":{"presented":{"_0":{"close":{}}}}}},{"sheet":{"_0":{"dismiss":{}}}}]"#)
    #expect(try JSONDecoder().decode([Navigator.Action].self, from: data) == actions)
  }

  @Test func aRestoredStackKeepsItsIdentifiersAndItsNextOne() {
    var stack = ModelStack(
      restoring: [
        (StackElementID(rawValue: 3), StackCounter()),
        (StackElementID(rawValue: 7), StackCounter(count: 2)),
      ],
      nextElementID: 9)
    #expect(stack.elementIDs == [3, 7])
    #expect(stack[id: 7]?.count == 2)
    #expect(stack.push(StackCounter()) == 9)
    #expect(stack.nextElementID == 10)
  }

  private func session(at path: String) async throws -> Store<Navigator> {
    let store = Store(state: Navigator(), environment: ())
    let recorder = try StoreRecorder(store, to: path)
    for action: Navigator.Action in [
      .push, .push, .path(.element(id: 1, action: .add)), .path(.popFrom(id: 1)), .push,
      .path(.element(id: 2, action: .add)), .path(.element(id: 2, action: .add)), .openSheet,
      .sheet(.presented(.add)), .sheet(.presented(.close)),
    ] {
      await store.send(action).value
    }
    await recorder.finish()
    return store
  }

  @Test func aRecordedNavigationSessionReplaysAndTravels() async throws {
    let file = try TemporaryFile("navigation.jsonl")
    let store = try await session(at: file.path)
    let recording = try Recording<Navigator>(contentsOf: file.path)
    // The sheet's close arrives as an effect: `dismiss`.
    #expect(recording.steps.count == 11)
    #expect(recording.replay(environment: ()).snapshot == store.state.snapshot)
    #expect(store.state.snapshot.path.map(\.id) == [0, 2])
    // A jump back then forward again: the screen pushed after the restore gets the
    // identifier it got when recorded, so the later actions reach it.
    let timeline = Timeline(recording, environment: ())
    timeline.jump(to: 4)
    #expect(timeline.state.snapshot.path.map(\.id) == [0])
    timeline.jump(to: 7)
    #expect(timeline.state.snapshot.path.map(\.count) == [0, 2])
    timeline.jump(to: 11)
    #expect(timeline.state.snapshot == store.state.snapshot)
  }

  /// Redux DevTools' "skip": the session without some steps, the actions their effects
  /// delivered left out with them when asked.
  @Test func stepsCanBeSkipped() async throws {
    let file = try TemporaryFile("navigation.jsonl")
    _ = try await session(at: file.path)
    let recording = try Recording<Navigator>(contentsOf: file.path)
    #expect(recording.replay(skipping: [7], environment: ()).snapshot.path.map(\.count) == [0, 1])
    #expect(
      recording.replay(skipping: [], environment: ()).snapshot
        == recording.replay(environment: ()).snapshot)
    // Step 10 (`close`) started the effect that delivered step 11 (`dismiss`).
    #expect(recording.skippingWithEffects([10]) == [10, 11])
    let withoutClose = recording.replay(
      skipping: recording.skippingWithEffects([10]), environment: ())
    #expect(withoutClose.snapshot.sheet == 1, "the sheet stays, with its count")
    #expect(recording.replay(skipping: [10], environment: ()).snapshot.sheet == nil)
  }
}
