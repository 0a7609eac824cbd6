import Arboreal
import ArborealTestSupport
import Foundation

@testable import ArborealDevtools

/// What a test reads from a viewer page's document (the markup `ViewerPage` documents).
struct ViewerDocument {
  /// The document up to the page's data and script, whose text would otherwise match too.
  let html: Substring

  init(html: String) {
    self.html =
      html[..<(html.range(of: "<script type=\"application/json\"")?.lowerBound ?? html.endIndex)]
  }

  /// `body[data-…]` attributes.
  func bodyAttribute(_ name: String) -> String? {
    guard let body = html.firstMatch(of: /<body[^>]*>/) else { return nil }
    let tag = String(body.output)
    guard let value = tag.firstMatch(of: Regex<(Substring, Substring)>(verbatim: "\(name)=\""))
    else {
      return nil
    }
    return String(tag[value.range.upperBound...].prefix { $0 != "\"" })
  }

  /// The steps of the rows in the document, in order.
  var rowSteps: [Int] {
    html.matches(of: /<div class="row[^"]*" data-seq="(\d+)"/).compactMap { Int($0.output.1) }
  }

  /// The selected row's step.
  var selectedRow: Int? {
    html.firstMatch(of: /<div class="row[^"]* selected" data-seq="(\d+)"/).flatMap {
      Int($0.output.1)
    }
  }

  /// The state tree's values, in document order: each value's path and its text.
  var stateLeaves: [Leaf] {
    guard let start = html.range(of: "<ul id=\"state\" class=\"tree\">") else { return [] }
    return html[start.upperBound...].matches(
      of:
        /<li class="leaf[^"]*" data-path="([^"]*)"><span class="k[^"]*">[^<]*<\/span><span class="v [a-z]+">([^<]*)<\/span><\/li>/
    ).map { Leaf(path: unescaped($0.output.1), text: unescaped($0.output.2)) }
  }

  /// The text of the banner, if it is shown.
  var banner: String? {
    guard let match = html.firstMatch(of: /<div id="banner" role="alert">([^<]*)<\/div>/) else {
      return nil
    }
    return unescaped(match.output.1)
  }

  /// The property the why panel explains, and its chain of steps.
  var why: (property: String, chain: [Int])? {
    guard let match = html.firstMatch(of: /<div id="why" class="panel" data-property="([^"]*)">/)
    else { return nil }
    let panel = html[match.range.upperBound...]
    let end = panel.range(of: "</ol>")?.lowerBound ?? panel.startIndex
    let chain = panel[..<end].matches(of: /<li data-seq="(\d+)">/).compactMap { Int($0.output.1) }
    return (unescaped(match.output.1), chain)
  }

  private func unescaped(_ text: Substring) -> String {
    text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
      .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(
        of: "&nbsp;", with: "\u{A0}"
      )
      .replacingOccurrences(of: "&amp;", with: "&")
  }
}

/// A value of the state tree as the page shows it.
struct Leaf: Equatable, CustomStringConvertible {
  var path: String
  var text: String
  var description: String { "\(path) = \(text)" }

  /// The leaves the page shows for a tree: what `ViewerPage`'s script draws, computed here
  /// from the Swift side.
  static func of(_ value: SnapshotValue) -> [Leaf] {
    var leaves: [Leaf] = []
    func walk(_ value: SnapshotValue, _ path: String) {
      switch value {
      case .object(let members) where !members.isEmpty:
        for member in members {
          walk(member.value, path.isEmpty ? member.key : "\(path).\(member.key)")
        }
      case .array(let elements) where !elements.isEmpty:
        for (index, element) in elements.enumerated() { walk(element, "\(path)[\(index)]") }
      case .object: leaves.append(Leaf(path: path, text: "{}"))
      case .array: leaves.append(Leaf(path: path, text: "[]"))
      case .string(let text): leaves.append(Leaf(path: path, text: quoted(text)))
      case .number(let text): leaves.append(Leaf(path: path, text: text))
      case .bool(let value): leaves.append(Leaf(path: path, text: "\(value)"))
      case .null: leaves.append(Leaf(path: path, text: "null"))
      case .opaque(let text): leaves.append(Leaf(path: path, text: text))
      }
    }
    walk(value, "")
    return leaves
  }

  /// A string as JavaScript's `JSON.stringify` writes it (for the characters tests use).
  private static func quoted(_ text: String) -> String {
    "\""
      + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
        of: "\"", with: "\\\""
      )
      .replacingOccurrences(of: "\n", with: "\\n") + "\""
  }
}

extension Board {
  /// A recording of `count` steps on a board of at most eight cards, built step by step
  /// without a store (so that a long one is quick to make): renames, adds and removes,
  /// changes to cards, and `load`s whose `loaded` comes back as the next step, an effect of
  /// the `load`. Each step names the properties it changes.
  static func longRecording(_ count: Int, seed: UInt64) -> Recording<Board> {
    var random = SeededRandom(seed: seed)
    var steps: [RecordedStep<Board.Action>] = []
    steps.reserveCapacity(count)
    var ids: [Int] = []
    var nextID = 1
    func add(
      _ action: Board.Action, _ cause: StoreLogEntry<Board.Action>.Cause, _ changes: [String]
    ) {
      steps.append(
        RecordedStep(
          sequence: steps.count + 1, action: action, cause: cause,
          changes: changes.map {
            let parts = $0.split(separator: ".")
            return RecordedProperty(owner: String(parts[0]), name: String(parts[1]))
          }))
    }
    while steps.count < count {
      let id = ids.isEmpty ? 1 : ids[random.next(below: ids.count)]
      let choice = random.next(below: 10)
      if choice == 0 {
        add(.rename("title \(random.next(below: 5))"), .sent, ["Board#board.title"])
      } else if choice <= 2, ids.count < 8 {
        ids.append(nextID)
        nextID += 1
        add(.add("card \(random.next(below: 100))"), .sent, ["Board#board.cards"])
      } else if choice <= 2, ids.count > 3 {
        ids.removeAll { $0 == id }
        add(.remove(id: id), .sent, ["Board#board.cards"])
      } else if (3...5).contains(choice), !ids.isEmpty {
        let (action, property): (Card.Action, String) =
          choice == 3
          ? (.toggle, "done")
          : choice == 4
            ? (.bump, "count") : (.setText("text \(random.next(below: 3))"), "text")
        add(.card(id: id, action), .sent, ["Card#\(id).\(property)"])
      } else if choice <= 7, steps.count + 2 <= count {
        let amount = 1 + random.next(below: 3)
        add(.load(amount), .sent, [])
        add(.loaded(amount), .effect(startedBy: steps.count), ["Board#board.total"])
      } else {
        add(.noop, .sent, [])
      }
    }
    return Recording(start: Board().snapshot, steps: steps)
  }
}
