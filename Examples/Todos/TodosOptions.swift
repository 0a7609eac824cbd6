import ExampleSupport

/// The command-line options: where the list lives, and whether to record or replay a session.
struct TodosOptions {
  /// The environment variable that chooses the file when `--file` does not.
  static let fileVariable = "ARBOREAL_TODOS_FILE"

  var path = "todos.json"
  var showHelp = false
  /// Where to record the session's actions (JSON Lines), if anywhere.
  var recordPath: String?
  /// A recording to replay instead of loading the list file.
  var replayPath: String?
  /// Whether to replay the valid lines of a damaged recording instead of stopping.
  var replayValidPrefix = false
  /// A recording to turn into a viewer page (written to `htmlPath`) instead of running.
  var inspectPath: String?
  var htmlPath: String?

  static let usage = """
    usage: todos [--file PATH] [--record FILE] [--replay FILE [--valid-prefix]]
           todos --inspect FILE --html OUT

    A to-do list kept in a JSON file (default: ./todos.json, or $\(fileVariable)).
    Type commands at the prompt, or pipe them in; 'help' lists them.

      --record FILE    record every action of the session to FILE (JSON Lines)
      --replay FILE    start from a recording instead of the list file: replay its actions,
                       then carry on in memory (the list file is not written)
      --valid-prefix   with --replay, replay the lines before a damaged one instead of
                       stopping
      --inspect FILE   write the recording FILE as one HTML page to open in a browser (the
      --html OUT       actions, what each changed, the state at each step), then exit
    """

  /// Reads the arguments (without the program name) and the environment.
  static func parse(
    _ arguments: [String], environment: [String: String]
  ) throws(InputError) -> TodosOptions {
    var options = TodosOptions()
    if let path = environment[fileVariable], !path.isEmpty { options.path = path }
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--file", "-f":
        guard let path = remaining.popFirst(), !path.isEmpty else {
          throw InputError(message: "--file needs a path", hint: "todos --file work.json")
        }
        options.path = path
      case _ where argument.hasPrefix("--file="):
        options.path = String(argument.dropFirst("--file=".count))
      case "--record", "--replay":
        guard let path = remaining.popFirst(), !path.isEmpty else {
          throw InputError(
            message: "\(argument) needs a file", hint: "todos \(argument) session.jsonl")
        }
        if argument == "--record" { options.recordPath = path } else { options.replayPath = path }
      case "--inspect", "--html":
        guard let path = remaining.popFirst(), !path.isEmpty else {
          throw InputError(
            message: "\(argument) needs a file", hint: "todos --inspect r.jsonl --html r.html")
        }
        if argument == "--inspect" { options.inspectPath = path } else { options.htmlPath = path }
      case "--valid-prefix":
        options.replayValidPrefix = true
      case "--help", "-h":
        options.showHelp = true
      default:
        throw InputError(message: "unknown option '\(argument)'", hint: "todos --help")
      }
    }
    if options.replayValidPrefix, options.replayPath == nil {
      throw InputError(
        message: "--valid-prefix goes with --replay",
        hint: "todos --replay session.jsonl --valid-prefix")
    }
    if (options.inspectPath == nil) != (options.htmlPath == nil) {
      throw InputError(
        message: "--inspect and --html go together", hint: "todos --inspect r.jsonl --html r.html")
    }
    return options
  }
}
