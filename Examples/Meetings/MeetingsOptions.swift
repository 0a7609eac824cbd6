import ExampleSupport

/// The command-line options: how long a tick of the recording timer is.
struct MeetingsOptions {
  var tick = Duration.seconds(1)
  /// Where to record the session's actions (JSON Lines), if anywhere.
  var recordPath: String?
  var showHelp = false

  static let usage = """
    usage: meetings [--tick-ms N] [--record FILE]

    A list of meetings: open one to see it, edit it in a sheet, delete it (after a question),
    or record it with a timer. Type commands at the prompt, or pipe them in; 'help' lists
    the commands that apply where you are.

      --tick-ms N     the recording timer ticks every N milliseconds instead of every second
      --record FILE   records the session's actions to FILE (JSON Lines), for replay, time
                      travel and the recording viewer
    """

  /// Reads the arguments (without the program name).
  static func parse(_ arguments: [String]) throws(InputError) -> MeetingsOptions {
    var options = MeetingsOptions()
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--tick-ms":
        guard let text = remaining.popFirst(), let milliseconds = Int(text), milliseconds > 0
        else {
          throw InputError(
            message: "--tick-ms needs a number of milliseconds, more than 0",
            hint: "meetings --tick-ms 100")
        }
        options.tick = .milliseconds(milliseconds)
      case "--record":
        guard let path = remaining.popFirst(), !path.isEmpty else {
          throw InputError(
            message: "--record needs a file", hint: "meetings --record session.jsonl")
        }
        options.recordPath = path
      case "--help", "-h":
        options.showHelp = true
      default:
        throw InputError(message: "unknown option '\(argument)'", hint: "meetings --help")
      }
    }
    return options
  }
}
