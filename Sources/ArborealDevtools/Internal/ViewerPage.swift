import Foundation

/// The viewer's page: HTML, style and script in one file, with the recording's data (see
/// ``ViewerData``) in a `<script type="application/json">` element.
///
/// The page is written as three files, `Viewer/viewer.html` (with `{{title}}`, `{{style}}`,
/// `{{script}}` and `{{data}}` where those go), `viewer.css` and `viewer.js`, which the
/// `EmbedViewerPage` plugin embeds at build time as `ViewerPageFiles`.
///
/// The page needs nothing else: no network, no other file, no font but the system's.
///
/// The script keeps the state as a live tree (a `Map` per object, so that key order is kept;
/// an array per array) and reaches the state after step *n* by applying the steps' changes,
/// from the nearest checkpoint, a copy of the tree it took when it first passed a multiple
/// of 1,000 steps (and the start). The action list is virtual: rows have a fixed height,
/// and only those in view, with a margin, are in the document.
///
/// What a test can read from the document (the markup is kept stable for it):
/// - `body[data-step]`: the selected step; `body[data-count]`: the number of steps;
///   `body[data-ready-ms]`: when the first render ended, in milliseconds since navigation
///   started.
/// - `#rows .row[data-seq]`: the rows in the document; `.row.selected` the selected one.
/// - `#state`: the state after the selected step, a `ul` of `li.leaf[data-path]` (a value:
///   `span.k` its key, `span.v` its text) and `li.node[data-path]` (an object or array with
///   its members in a nested `ul`, empty while it is closed), and `li.more` (members out of
///   its window, with a `[data-more]` or `[data-earlier]` link). Paths read `cards[2].done`;
///   the root's own path is empty. Drawn on demand (see the script's "state tree").
/// - `#search` and `#results li[data-hit][data-path]`: the search of the state and its matches.
/// - `#shown`: how many actions the list shows, and why (`#only-clear` ends a property's
///   filter); `#why-only` keeps only the actions that changed the property explained.
/// - `#why[data-property]`: the property explained, `#why li[data-seq]` its chain.
/// - `#banner`: the problem that ended the recording early, if any.
///
/// The URL's hash chooses what the page shows at load: `#step=N`, `&why=Todo%233.isDone` to
/// explain a recorded property, `&filter=add` to filter the list by name, `&changed=Todo%233.isDone`
/// to list only the actions that changed a property, `&search=milk` to search the state; the
/// page keeps it up to date (the search aside), so that an address shows what its page showed.
///
/// Keys: ↑/↓ (and ←/→ outside a text field) move between the actions listed; `/` goes to the
/// search, Enter to its first match, Escape clears it.
enum ViewerPage {
  /// The whole page for a title (plain text) and the data's JSON.
  static func html(title: String, data: String) -> String {
    let title = escaped(title)
    var page = ""
    page.reserveCapacity(data.utf8.count + 40_000)
    for part in parts {
      switch part {
      case .text(let text): page += text
      case .title: page += title
      case .data: page += data
      }
    }
    return page
  }

  /// Text with `&`, `<`, `>` and `"` as HTML character references.
  static func escaped(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      default: result.append(character)
      }
    }
    return result
  }

  /// A piece of the page: fixed text, or where the title or the data goes.
  enum Part: Equatable {
    case text(String)
    case title
    case data
  }

  /// The page's pieces in order: the template with the style and the script in place, cut at
  /// its `{{title}}` and `{{data}}` slots. Made once.
  static let parts: [Part] = parts(
    of: ViewerPageFiles.html, style: withoutFinalNewline(ViewerPageFiles.css),
    script: withoutFinalNewline(ViewerPageFiles.script))

  /// Cuts `template` at its slots, filling `{{style}}` and `{{script}}`; merges neighbouring
  /// text. An unknown slot is a programming error in the page's files.
  static func parts(of template: String, style: String, script: String) -> [Part] {
    var parts: [Part] = []
    func append(_ text: Substring) {
      guard !text.isEmpty else { return }
      if case .text(let previous) = parts.last {
        parts[parts.count - 1] = .text(previous + text)
      } else {
        parts.append(.text(String(text)))
      }
    }
    var rest = template[...]
    while let open = rest.range(of: "{{") {
      append(rest[..<open.lowerBound])
      guard let close = rest[open.upperBound...].range(of: "}}") else {
        preconditionFailure("ViewerPage: an unclosed {{ in viewer.html")
      }
      switch rest[open.upperBound..<close.lowerBound] {
      case "title": parts.append(.title)
      case "data": parts.append(.data)
      case "style": append(style[...])
      case "script": append(script[...])
      case let other: preconditionFailure("ViewerPage: unknown slot {{\(other)}} in viewer.html")
      }
      rest = rest[close.upperBound...]
    }
    append(rest)
    return parts
  }

  /// `text` without its last newline (the files end with one; the page puts its own).
  private static func withoutFinalNewline(_ text: String) -> String {
    text.hasSuffix("\n") ? String(text.dropLast()) : text
  }
}
