import Arboreal
import ArborealDevtools
import Benchmark

// The recording viewer (ArborealDevtools).
//
// - `viewer-generate`: `RecordingViewer` over 100,000 steps of a small board (a title, a
//   total, at most eight cards of four fields), per page: the replay, a snapshot tree per
//   step, the differences between consecutive trees and the page's JSON. `compare.sh`
//   prints it as `viewer: generate-100k <ms> ms`.

/// A board of cards whose snapshot is a small tree, as a real model's would be.
final class ViewerBoard: ReplayableModel {
  enum Action: Codable, Sendable {
    case rename(String)
    case add(String)
    case remove(id: Int)
    case toggle(id: Int)
    case bump(id: Int)
  }

  struct Card: Codable, Equatable, Sendable {
    var id: Int
    var text: String
    var done: Bool
    var count: Int
  }

  struct Snapshot: Codable, Equatable, Sendable {
    var title: String
    var cards: [Card]
    var total: Int
    var nextID: Int
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var title = ""
  @Tracked private(set) var cards: [Card] = []
  @Tracked private(set) var total = 0
  private var nextID = 1

  init() {}

  init(snapshot: Snapshot) {
    title = snapshot.title
    cards = snapshot.cards
    total = snapshot.total
    nextID = snapshot.nextID
  }

  var snapshot: Snapshot { Snapshot(title: title, cards: cards, total: total, nextID: nextID) }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .rename(let title): self.title = title
    case .add(let text):
      cards.append(Card(id: nextID, text: text, done: false, count: 0))
      nextID += 1
    case .remove(let id): cards.removeAll { $0.id == id }
    case .toggle(let id):
      if let index = cards.firstIndex(where: { $0.id == id }) { cards[index].done.toggle() }
    case .bump(let id):
      if let index = cards.firstIndex(where: { $0.id == id }) {
        cards[index].count += 1
        total += 1
      }
    }
    return .none
  }

  /// 100,000 steps that keep between four and eight cards, every tenth an effect's action.
  static func recording(steps count: Int) -> Recording<ViewerBoard> {
    var steps: [RecordedStep<Action>] = []
    steps.reserveCapacity(count)
    var ids: [Int] = []
    var nextID = 1
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func random(below bound: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(bound))
    }
    for sequence in 1...count {
      let action: Action
      let choice = random(below: 6)
      if choice == 0 || ids.count < 4 || (choice == 1 && ids.count < 8) {
        action = ids.count < 8 ? .add("card \(nextID)") : .rename("title \(sequence)")
        if ids.count < 8 {
          ids.append(nextID)
          nextID += 1
        }
      } else if choice == 1 {
        let id = ids.remove(at: random(below: ids.count))
        action = .remove(id: id)
      } else {
        let id = ids[random(below: ids.count)]
        action = choice % 2 == 0 ? .toggle(id: id) : .bump(id: id)
      }
      steps.append(
        RecordedStep(
          sequence: sequence, action: action,
          cause: sequence % 10 == 0 ? .effect(startedBy: sequence - 1) : .sent,
          changes: [RecordedProperty(owner: "ViewerBoard#1", name: "cards")]))
    }
    return Recording(start: Snapshot(title: "", cards: [], total: 0, nextID: 1), steps: steps)
  }
}

func registerViewerBenchmarks() {
  let recording = ViewerBoard.recording(steps: 100_000)
  _ = Benchmark(
    "viewer-generate/ours",
    configuration: .init(
      metrics: [.wallClock, .mallocCountTotal], timeUnits: .nanoseconds,
      units: [.mallocCountTotal: .count], warmupIterations: 1, scalingFactor: .one,
      maxDuration: .seconds(10), maxIterations: 5)
  ) { @MainActor benchmark async in
    for _ in benchmark.scaledIterations {
      let viewer = RecordingViewer(recording, environment: ())
      blackHole(viewer.html.utf8.count)
    }
  }
}
