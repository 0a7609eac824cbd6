import Arboreal

/// The data a viewer page embeds, as the JSON text its script reads.
///
/// ```
/// {"title":"…","model":"Board","problem":null or "file:7: …","start":TREE,
///  "steps":[[TEXT,CAUSE,[CHANGED…],[CHANGE…]],…]}
/// ```
///
/// - A TREE is a ``SnapshotValue``: `null`, `true`/`false`, a number, a string and an array
///   are themselves; an object is `{"o":[key1,value1,key2,value2,…]}` (a flat list, so that
///   the keys keep their order whatever they look like); a value shown as text is
///   `{"x":"{Secret}"}` (a value that cannot be described, or `nan`/`inf`), and an integer
///   beyond what a JavaScript number holds exactly is `{"n":"18446744073709551615"}`.
/// - Step *n* is `steps[n - 1]`: TEXT is `String(describing: action)` (its name, the part
///   before the first `(`, is what the filter matches); CAUSE is 0 for an action the program
///   sent, the number of the step that started the effect that delivered it, or -1 for an
///   effect started before the recording; CHANGED are the recorded properties
///   (`Todo#3.isDone`); each CHANGE is `[0,PATH,OLD,NEW]` (set), `[1,PATH,NEW,POSITION]`
///   (insert) or `[2,PATH,OLD]` (remove), a ``SnapshotChange`` with its path as an array of
///   keys (strings) and indices (numbers).
///
/// Invariant: applying the changes of steps 1…*n* in order to `start` gives the tree of the
/// model's snapshot after step *n*, as `Timeline.jump(to: n)` leaves it.
///
/// Every `<`, `>` and `&` inside a string is written `\u003c`, `\u003e`, `\u0026`, so the text
/// can sit inside a `<script>` element whatever the recording holds.
struct ViewerData {
  private(set) var json = ""

  /// Replays `recording` step by step and writes each step's text, cause, recorded changes
  /// and the differences between the snapshot trees before and after it.
  ///
  /// - Complexity: O(*n* × *s*) for *n* steps and snapshots of *s* nodes.
  @MainActor
  init<Model: ReplayableModel>(
    _ recording: Recording<Model>, environment: Model.Environment, title: String
  ) where Model.Action: Codable {
    let model = Model(snapshot: recording.start)
    var previous = SnapshotValue(of: model.snapshot)
    json.reserveCapacity(256 + recording.steps.count * 120)
    json += "{\"title\":"
    append(string: title)
    json += ",\"model\":"
    append(string: String(describing: Model.self))
    json += ",\"problem\":"
    if let problem = recording.problem { append(string: problem.description) } else { json += "null" }
    json += ",\"start\":"
    append(previous)
    json += ",\"steps\":["
    for index in recording.steps.indices {
      let step = recording.steps[index]
      Recording.apply(recording.steps[index...index], to: model, environment)
      let tree = SnapshotValue(of: model.snapshot)
      if index > 0 { json += "," }
      json += "["
      append(string: String(describing: step.action))
      switch step.cause {
      case .sent: json += ",0,["
      case .effect(let startedBy?): json += ",\(startedBy),["
      case .effect(nil): json += ",-1,["
      }
      for (offset, property) in step.changes.enumerated() {
        if offset > 0 { json += "," }
        append(string: property.description)
      }
      json += "],["
      for (offset, change) in SnapshotValue.changes(from: previous, to: tree).enumerated() {
        if offset > 0 { json += "," }
        append(change)
      }
      json += "]]"
      previous = tree
    }
    json += "]}"
  }

  private mutating func append(_ change: SnapshotChange) {
    switch change {
    case .set(let path, let old, let new):
      json += "[0,"
      append(path)
      json += ","
      append(old)
      json += ","
      append(new)
    case .insert(let path, let new, let position):
      json += "[1,"
      append(path)
      json += ","
      append(new)
      json += ",\(position)"
    case .remove(let path, let old):
      json += "[2,"
      append(path)
      json += ","
      append(old)
    }
    json += "]"
  }

  private mutating func append(_ path: [SnapshotPathComponent]) {
    json += "["
    for (offset, component) in path.enumerated() {
      if offset > 0 { json += "," }
      switch component {
      case .key(let key): append(string: key)
      case .index(let index): json += "\(index)"
      }
    }
    json += "]"
  }

  private mutating func append(_ value: SnapshotValue) {
    switch value {
    case .object(let members):
      json += "{\"o\":["
      for (offset, member) in members.enumerated() {
        if offset > 0 { json += "," }
        append(string: member.key)
        json += ","
        append(member.value)
      }
      json += "]}"
    case .array(let elements):
      json += "["
      for (offset, element) in elements.enumerated() {
        if offset > 0 { json += "," }
        append(element)
      }
      json += "]"
    case .string(let text):
      append(string: text)
    case .number(let text):
      if Self.isExactInJavaScript(text) {
        json += text
      } else {
        json += "{\"n\":"
        append(string: text)
        json += "}"
      }
    case .bool(let value):
      json += value ? "true" : "false"
    case .null:
      json += "null"
    case .opaque(let text):
      json += "{\"x\":"
      append(string: text)
      json += "}"
    }
  }

  /// Whether a JavaScript number holds the number exactly: any fraction or exponent form
  /// (already the nearest double), or an integer within ±2⁵³.
  private static func isExactInJavaScript(_ text: String) -> Bool {
    guard text.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) }) else {
      return true
    }
    guard let integer = Int64(text) else { return false }
    return integer.magnitude <= 1 << 53
  }

  private mutating func append(string text: String) {
    json += "\""
    var plainStart = text.unicodeScalars.startIndex
    var index = plainStart
    let scalars = text.unicodeScalars
    while index != scalars.endIndex {
      let scalar = scalars[index]
      let escape: String? =
        switch scalar {
        case "\"": "\\\""
        case "\\": "\\\\"
        case "\n": "\\n"
        case "\r": "\\r"
        case "\t": "\\t"
        case "<": "\\u003c"
        case ">": "\\u003e"
        case "&": "\\u0026"
        case "\u{2028}": "\\u2028"
        case "\u{2029}": "\\u2029"
        case _ where scalar.value < 0x20:
          "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
        default: nil
        }
      if let escape {
        json.unicodeScalars.append(contentsOf: scalars[plainStart..<index])
        json += escape
        plainStart = scalars.index(after: index)
      }
      index = scalars.index(after: index)
    }
    json.unicodeScalars.append(contentsOf: scalars[plainStart..<scalars.endIndex])
    json += "\""
  }
}
