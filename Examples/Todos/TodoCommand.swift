import ExampleSupport

/// A command typed at the prompt, parsed but not yet checked against the list.
enum TodoCommand: Equatable {
  case add(String)
  /// `edit 2` prompts for the text; `edit 2 new text` gives it at once.
  case edit(Int, String?)
  case done(Int)
  case undone(Int)
  case remove(Int)
  case list
  case filter(TodoFilter)
  case undo
  /// Lists the actions of the session with what each changed.
  case history
  /// Says which action last changed each field of to-do n, and what led to it.
  case why(Int)
  case help
  case quit

  /// Parses one line; a blank line is `nil`.
  static func parse(_ line: String) throws(InputError) -> TodoCommand? {
    let (word, rest) = line.firstWordAndRest
    guard !word.isEmpty else { return nil }
    switch word.lowercased() {
    case "add":
      guard !rest.isEmpty else { throw .emptyText(example: "add buy milk") }
      return .add(rest)
    case "edit":
      let (number, text) = rest.firstWordAndRest
      return .edit(try parseNumber(number, for: "edit"), text.isEmpty ? nil : text)
    case "done": return .done(try parseNumber(rest, for: word))
    case "undone": return .undone(try parseNumber(rest, for: word))
    case "remove", "rm": return .remove(try parseNumber(rest, for: word))
    case "list", "ls": return .list
    case "filter":
      guard let filter = TodoFilter(rawValue: rest.lowercased()) else {
        throw InputError(
          message: rest.isEmpty ? "filter needs a choice" : "unknown filter '\(rest)'",
          hint: "filter all, filter active or filter done")
      }
      return .filter(filter)
    case "undo": return .undo
    case "history": return .history
    case "why": return .why(try parseNumber(rest, for: word))
    case "help", "?": return .help
    case "quit", "exit", "q": return .quit
    default:
      throw InputError(
        message: "unknown command '\(word)'", hint: "type 'help' to see the commands")
    }
  }

  private static func parseNumber(_ text: String, for command: String) throws(InputError) -> Int {
    guard let number = Int(text) else {
      throw InputError(
        message: text.isEmpty ? "\(command) needs a to-do number" : "'\(text)' is not a number",
        hint: "for example '\(command.lowercased()) 1'; 'list' shows the numbers")
    }
    return number
  }

  /// The commands, for `help`.
  static let helpText = """
    Commands:
      add <text>       add a to-do
      edit <n>         change the text of to-do n (asks for the new text)
      done <n>         mark to-do n done
      undone <n>       mark to-do n not done
      remove <n>       delete to-do n
      list             show the to-dos the filter lets through
      filter all|active|done
      undo             take back the last change
      history          list the actions of this session and what each changed
      why <n>          say which action made to-do n look the way it does
      help             show this
      quit             leave (end of input works too)
    """
}

extension InputError {
  /// A to-do without text.
  static func emptyText(example: String) -> InputError {
    InputError(message: "a to-do needs some text", hint: "for example '\(example)'")
  }
}
