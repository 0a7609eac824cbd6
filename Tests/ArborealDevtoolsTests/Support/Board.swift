import Arboreal
import ArborealDevtools
import ArborealTestSupport

/// A board of cards: a replayable model with identifiable children, untracked state that
/// `update` depends on (`nextID`), and effects whose actions start more effects.
final class Board: ReplayableModel, Identifiable {
  enum Action: Codable, Sendable, Equatable {
    case rename(String)
    case add(String)
    case remove(id: Int)
    case card(id: Int, Card.Action)
    /// Starts an effect that delivers `.loaded(n)`.
    case load(Int)
    /// Adds `n` to the total; while `n > 0`, starts an effect that delivers `.loaded(n - 1)`.
    case loaded(Int)
    case noop
  }

  struct Snapshot: Codable, Equatable, Sendable {
    var title: String
    var cards: [Card.Snapshot]
    var total: Int
    var nextID: Int
  }

  /// Every board has the same id, so that its owner is `Board#board` in every test.
  let id = "board"
  let registrar = TrackingRegistrar()
  @Tracked private(set) var title = ""
  @Tracked private(set) var cards: [Card] = []

  static let cards = ChildRoute.children(\Board.cards, tag: Action.card)
  @Tracked private(set) var total = 0
  private var nextID = 1

  init() {}

  init(snapshot: Snapshot) {
    title = snapshot.title
    cards = snapshot.cards.map(Card.init(snapshot:))
    total = snapshot.total
    nextID = snapshot.nextID
  }

  var snapshot: Snapshot {
    Snapshot(title: title, cards: cards.map(\.snapshot), total: total, nextID: nextID)
  }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .rename(let title):
      self.title = title
    case .add(let text):
      let card = Card(id: nextID)
      nextID += 1
      _ = card.update(action: .setText(text), environment: ())
      cards.append(card)
    case .remove(let id):
      cards.removeAll { $0.id == id }
    case .card(let id, let action):
      // Random action sequences name missing cards too: those are ignored without a report.
      guard let card = cards.first(where: { $0.id == id }) else { return .none }
      return forward(action, to: Self.cards, child: card, environment: ())
    case .load(let count):
      return Fx { .loaded(count) }
    case .loaded(let count):
      total += count
      if count > 0 { return Fx { .loaded(count - 1) } }
    case .noop:
      break
    }
    return .none
  }
}

/// A card: a child model named by its id in changes (`Card#3.done`).
final class Card: ReplayableModel, Identifiable {
  enum Action: Codable, Sendable, Equatable {
    case setText(String)
    case toggle
    case bump
  }

  struct Snapshot: Codable, Equatable, Sendable {
    var id: Int
    var text: String
    var done: Bool
    var count: Int
  }

  let registrar = TrackingRegistrar()
  let id: Int
  @Tracked private(set) var text = ""
  @Tracked private(set) var done = false
  @Tracked private(set) var count = 0

  init(id: Int) { self.id = id }

  convenience init(snapshot: Snapshot) {
    self.init(id: snapshot.id)
    text = snapshot.text
    done = snapshot.done
    count = snapshot.count
  }

  var snapshot: Snapshot { Snapshot(id: id, text: text, done: done, count: count) }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .setText(let text): self.text = text
    case .toggle: done.toggle()
    case .bump: count += 1
    }
    return .none
  }
}

extension SeededRandom {
  /// A random action for a board whose cards have the ids in `ids` (and some that do not).
  mutating func boardAction(ids: [Int]) -> Board.Action {
    let id = ids.isEmpty || next(below: 8) == 0 ? 1 + next(below: 50) : ids[next(below: ids.count)]
    switch next(below: 9) {
    case 0: return .rename("title \(next(below: 5))")
    case 1, 2: return .add("card \(next(below: 100))")
    case 3: return .remove(id: id)
    case 4: return .card(id: id, .toggle)
    case 5: return .card(id: id, .bump)
    case 6: return .card(id: id, .setText("text \(next(below: 3))"))
    case 7: return .load(next(below: 4))
    default: return .noop
    }
  }
}

extension Board {
  /// A recording of four actions whose last line is cut short, as a crash while writing it
  /// would leave it (line 5 of the file), read with `keepingValidPrefix: true`; and its file.
  static func truncatedRecording(
    isolation: isolated (any Actor)? = #isolation
  ) async throws -> (TemporaryFile, Recording<Board>) {
    let file = try TemporaryFile()
    let store = Store(state: Board(), environment: ())
    let recorder = try StoreRecorder(store, to: file.path)
    for action: Board.Action in [.rename("groceries"), .add("milk"), .add("eggs"), .rename("x")] {
      store.send(action)
    }
    await recorder.finish()
    let lines = try file.lines()
    try file.write(lines.dropLast().joined(separator: "\n") + "\n" + lines.last!.prefix(25))
    return (file, try Recording<Board>(contentsOf: file.path, keepingValidPrefix: true))
  }
}
