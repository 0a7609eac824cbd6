/// The command-line options: where the list lives.
struct TodosOptions {
  /// The environment variable that chooses the file when `--file` does not.
  static let fileVariable = "ARBOREAL_TODOS_FILE"

  var path = "todos.json"
  var showHelp = false

  static let usage = """
    usage: todos [--file PATH]

    A to-do list kept in a JSON file (default: ./todos.json, or $\(fileVariable)).
    Type commands at the prompt, or pipe them in; 'help' lists them.
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
      case "--help", "-h":
        options.showHelp = true
      default:
        throw InputError(message: "unknown option '\(argument)'", hint: "todos --help")
      }
    }
    return options
  }
}
