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
/// - Step *n* is `steps[n - 1]`: TEXT is the action as its case was written
///   (``actionText(_:)``; its name, the part before the first `(`, is what the filter matches); CAUSE is 0 for an action the program
///   sent, the number of the (earlier) step that started the effect that delivered it, or -1
///   for an effect started before the recording (or by a step that is not an earlier one); CHANGED are the recorded properties
///   (`Todo#3.isDone`); each CHANGE is `[0,PATH,OLD,NEW]` (set), `[1,PATH,NEW,POSITION]`
///   (insert) or `[2,PATH,OLD]` (remove), a ``SnapshotChange`` with its path as an array of
///   keys (strings) and indices (numbers).
///
/// Invariant: applying the changes of steps 1…*n* in order to `start` gives the tree of the
/// model's snapshot after step *n*, as `Timeline.jump(to: n)` leaves it.
///
/// Every `<`, `>` and `&` inside a string is written `\u003c`, `\u003e`, `\u0026`, so the text
/// can sit inside a `<script>` element whatever the recording holds.
///
/// Written in three parts, so that a caller can let other work run between steps: the header
/// and the start (``init(start:environment:title:)``), the steps in batches
/// (``writeSteps(_:)``), and the end (``finish()``).
///
/// Invariant: after ``writeSteps(_:)``, `model` is the model after step `written` and
/// `previous` its snapshot's tree; `bytes` holds the JSON up to that step.
struct ViewerData<Model: ReplayableModel> where Model.Action: Codable {
  /// The JSON text, as UTF-8.
  private(set) var bytes: [UInt8] = []
  /// The number of steps written.
  private(set) var written = 0
  private let recording: Recording<Model>
  private let environment: Model.Environment
  private let model: Model
  private var previous: SnapshotValue

  /// The JSON text.
  var json: String { String(decoding: bytes, as: UTF8.self) }

  /// Replays `recording` step by step and writes the whole JSON text: each step's text,
  /// cause, recorded changes and the differences between the snapshot trees before and
  /// after it.
  ///
  /// - Complexity: O(*n* × *s*) for *n* steps and snapshots of *s* nodes.
  init(_ recording: Recording<Model>, environment: Model.Environment, title: String) {
    self.init(start: recording, environment: environment, title: title)
    writeSteps(recording.steps.count)
    finish()
  }

  /// Writes the header and the starting state; no step yet.
  init(start recording: Recording<Model>, environment: Model.Environment, title: String) {
    self.recording = recording
    self.environment = environment
    model = RecordingRestore.model(from: recording.start)
    previous = SnapshotValue(of: model.snapshot)
    bytes.reserveCapacity(256 + recording.steps.count * 120)
    write("{\"title\":")
    append(string: title)
    write(",\"model\":")
    append(string: String(describing: Model.self))
    write(",\"problem\":")
    if let problem = recording.problem {
      append(string: problem.description)
    } else {
      write("null")
    }
    write(",\"start\":")
    append(previous)
    write(",\"steps\":[")
  }

  /// Applies and writes the next `count` steps (fewer if the recording ends first).
  ///
  /// - Complexity: O(`count` × *s*) for snapshots of *s* nodes.
  mutating func writeSteps(_ count: Int) {
    let end = min(recording.steps.count, written + max(0, count))
    for index in written..<end {
      let step = recording.steps[index]
      Recording.apply(recording.steps[index...index], to: model, environment)
      let tree = SnapshotValue(of: model.snapshot)
      if index > 0 { write(",") }
      write("[")
      append(string: Self.actionText(step.action))
      switch step.cause {
      case .sent: write(",0,[")
      // Only an earlier step: a recording made in memory is not checked as a file is, and the
      // page follows these numbers back.
      case .effect(let startedBy?) where startedBy >= 1 && startedBy <= index:
        write(",\(startedBy),[")
      case .effect: write(",-1,[")
      }
      for (offset, property) in step.changes.enumerated() {
        if offset > 0 { write(",") }
        append(string: property.description)
      }
      write("],[")
      for (offset, change) in SnapshotValue.changes(from: previous, to: tree).enumerated() {
        if offset > 0 { write(",") }
        append(change)
      }
      write("]]")
      previous = tree
    }
    written = end
  }

  /// An action as the user wrote its case: `String(describing:)` with each enumeration case
  /// written through its qualified type shortened to its leading dot, outside string literals
  /// (`setFilter(todos.TodoFilter.active)` reads `setFilter(.active)`).
  static func actionText(_ action: Model.Action) -> String {
    unqualifiedCases(String(describing: action))
  }

  /// `text` with every chain of identifiers joined by dots whose last one begins in lower case
  /// and the one before it in upper case (`Module.Type.case`) replaced by `.case`; quoted
  /// strings are left as they are.
  static func unqualifiedCases(_ text: String) -> String {
    let characters = Array(text.unicodeScalars)
    var result = String.UnicodeScalarView()
    var index = 0
    var inString = false
    func isStart(_ c: Unicode.Scalar) -> Bool { c == "_" || c.properties.isAlphabetic }
    func isPart(_ c: Unicode.Scalar) -> Bool { isStart(c) || c.properties.numericType != nil }
    while index < characters.count {
      let c = characters[index]
      if inString {
        result.append(c)
        if c == "\\", index + 1 < characters.count {
          result.append(characters[index + 1])
          index += 2
          continue
        }
        if c == "\"" { inString = false }
        index += 1
        continue
      }
      if c == "\"" {
        inString = true
        result.append(c)
        index += 1
        continue
      }
      // An identifier not preceded by a part of one (or a dot: a chain is taken whole).
      guard isStart(c),
        index == 0 || !(isPart(characters[index - 1]) || characters[index - 1] == ".")
      else {
        result.append(c)
        index += 1
        continue
      }
      var segments: [Range<Int>] = []
      var end = index
      while end < characters.count, isStart(characters[end]) {
        let start = end
        while end < characters.count, isPart(characters[end]) { end += 1 }
        segments.append(start..<end)
        guard end + 1 < characters.count, characters[end] == ".", isStart(characters[end + 1])
        else { break }
        end += 1
      }
      let isCase =
        segments.count >= 2
        && characters[segments[segments.count - 1].lowerBound].properties.isLowercase
        && characters[segments[segments.count - 2].lowerBound].properties.isUppercase
      if isCase {
        result.append(".")
        result.append(contentsOf: characters[segments[segments.count - 1]])
      } else {
        result.append(contentsOf: characters[index..<end])
      }
      index = end
    }
    return String(result)
  }

  /// Ends the JSON text: call once, after the last step.
  mutating func finish() {
    write("]}")
  }

  private mutating func write(_ text: String) {
    bytes.append(contentsOf: text.utf8)
  }

  private mutating func append(_ change: SnapshotChange) {
    switch change {
    case .set(let path, let old, let new):
      write("[0,")
      append(path)
      write(",")
      append(old)
      write(",")
      append(new)
    case .insert(let path, let new, let position):
      write("[1,")
      append(path)
      write(",")
      append(new)
      write(",\(position)")
    case .remove(let path, let old):
      write("[2,")
      append(path)
      write(",")
      append(old)
    }
    write("]")
  }

  private mutating func append(_ path: [SnapshotPathComponent]) {
    write("[")
    for (offset, component) in path.enumerated() {
      if offset > 0 { write(",") }
      switch component {
      case .key(let key): append(string: key)
      case .index(let index): write("\(index)")
      }
    }
    write("]")
  }

  private mutating func append(_ value: SnapshotValue) {
    switch value {
    case .object(let members):
      write("{\"o\":[")
      for (offset, member) in members.enumerated() {
        if offset > 0 { write(",") }
        append(string: member.key)
        write(",")
        append(member.value)
      }
      write("]}")
    case .array(let elements):
      write("[")
      for (offset, element) in elements.enumerated() {
        if offset > 0 { write(",") }
        append(element)
      }
      write("]")
    case .string(let text):
      append(string: text)
    case .number(let text):
      if Self.isExactInJavaScript(text) {
        write(text)
      } else {
        write("{\"n\":")
        append(string: text)
        write("}")
      }
    case .bool(let value):
      write(value ? "true" : "false")
    case .null:
      write("null")
    case .opaque(let text):
      write("{\"x\":")
      append(string: text)
      write("}")
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
    bytes.append(UInt8(ascii: "\""))
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": write("\\\"")
      case "\\": write("\\\\")
      case "\n": write("\\n")
      case "\r": write("\\r")
      case "\t": write("\\t")
      case "<": write("\\u003c")
      case ">": write("\\u003e")
      case "&": write("\\u0026")
      case "\u{2028}": write("\\u2028")
      case "\u{2029}": write("\\u2029")
      case _ where scalar.value < 0x20:
        write("\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16))
      case _ where scalar.isASCII:
        bytes.append(UInt8(scalar.value))
      default:
        bytes.append(contentsOf: String(scalar).utf8)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }
}
