import ExampleSupport

/// A command typed at the prompt, parsed but not yet checked against the place it was typed in.
enum MeetingCommand: Equatable {
  case list
  case add(String)
  case open(Int)
  case edit
  case title(String)
  case attendees([String])
  case minutes(Int)
  case save
  case cancel
  case delete
  case yes
  case no
  case record
  case back
  case help
  case quit

  /// Parses one line; a blank line is `nil`.
  static func parse(_ line: String) throws(InputError) -> MeetingCommand? {
    let (word, rest) = line.firstWordAndRest
    guard !word.isEmpty else { return nil }
    let name = word.lowercased()
    switch name {
    case "add", "title":
      guard !rest.isEmpty else {
        throw InputError(
          message: "a meeting needs a title", hint: "for example '\(name) Weekly planning'")
      }
      return name == "add" ? .add(rest) : .title(rest)
    case "open":
      return .open(
        try number(rest, for: "open", hint: "for example 'open 1'; 'list' shows the numbers"))
    case "attendees":
      let names = rest.split(separator: ",").map { String($0).trimmingWhitespace }
      return .attendees(names.filter { !$0.isEmpty })
    case "minutes":
      let minutes = try number(rest, for: "minutes", hint: "for example 'minutes 30'")
      guard (1...600).contains(minutes) else {
        throw InputError(
          message: "a meeting lasts from 1 to 600 minutes", hint: "for example 'minutes 30'")
      }
      return .minutes(minutes)
    default:
      let simple: [String: MeetingCommand] = [
        "list": .list, "ls": .list, "edit": .edit, "save": .save, "cancel": .cancel,
        "delete": .delete, "yes": .yes, "y": .yes, "no": .no, "n": .no, "record": .record,
        "back": .back, "help": .help, "?": .help, "quit": .quit, "exit": .quit, "q": .quit,
      ]
      guard let command = simple[name] else {
        throw InputError(
          message: "unknown command '\(word)'", hint: "type 'help' to see the commands")
      }
      guard rest.isEmpty else {
        throw InputError(message: "'\(name)' takes nothing after it", hint: "type just '\(name)'")
      }
      return command
    }
  }

  /// The command's name, as `help` lists it: its case's name (`add` for `.add("Standup")`).
  var name: String {
    String(String(describing: self).prefix { $0 != "(" })
  }

  /// Whether the command does something in `place`.
  func applies(in place: MeetingsPlace) -> Bool {
    place.commands.contains { $0.usage.prefix { $0 != " " } == name }
  }

  private static func number(
    _ text: String, for command: String, hint: String
  ) throws(InputError) -> Int {
    guard let number = Int(text) else {
      throw InputError(
        message: text.isEmpty ? "\(command) needs a number" : "'\(text)' is not a number",
        hint: hint)
    }
    return number
  }
}
