/// The command line of `todo-server`, read into a ``ServerConfiguration``.
///
/// ```swift
/// let options = try ServerOptions.parse(["--port", "9000", "--main-actor"])
/// options.configuration.port  // 9000
/// ```
public struct ServerOptions: Sendable, Equatable {
  /// The configuration the options describe.
  public var configuration = ServerConfiguration()
  /// Whether `--help` was given: print ``usage`` and exit.
  public var showHelp = false

  /// What `--help` prints.
  public static let usage = """
    usage: todo-server [--port N] [--main-actor] [--idle-timeout SECONDS] [--no-recording]

    An HTTP server of to-do lists, one per session, on 127.0.0.1.

      --port N                the port to listen on (default 8080; 0 for any free port)
      --main-actor            keep every session's store on the main actor instead of on an
                              actor of its own (for comparison under load)
      --idle-timeout SECONDS  end a session after this long without a request (default 1800)
      --no-recording          do not record the sessions' actions
    """

  /// Reads the arguments, without the program's name.
  ///
  /// - Throws: ``ServerOptionsError`` for an unknown option or a bad value.
  public static func parse(_ arguments: [String]) throws(ServerOptionsError) -> ServerOptions {
    var options = ServerOptions()
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--port":
        let port = try number(after: argument, from: &remaining)
        guard port <= 65_535 else { throw ServerOptionsError("--port needs a port, 0 to 65535") }
        options.configuration.port = port
      case "--idle-timeout":
        let seconds = try number(after: argument, from: &remaining)
        guard seconds > 0 else { throw ServerOptionsError("--idle-timeout needs at least 1") }
        options.configuration.idleTimeout = .seconds(seconds)
        // Looked for often enough that a session ends at most a quarter late.
        options.configuration.sweepInterval = .seconds(max(1, min(30, seconds / 4)))
      case "--main-actor":
        options.configuration.sessionIsolation = .mainActor
      case "--no-recording":
        options.configuration.recordsSessions = false
      case "--help", "-h":
        options.showHelp = true
      default:
        throw ServerOptionsError("unknown option '\(argument)'")
      }
    }
    return options
  }

  /// The whole number that follows `option`.
  private static func number(
    after option: String, from remaining: inout ArraySlice<String>
  ) throws(ServerOptionsError) -> Int {
    guard let text = remaining.popFirst(), let number = Int(text), number >= 0 else {
      throw ServerOptionsError("\(option) needs a whole number")
    }
    return number
  }
}
