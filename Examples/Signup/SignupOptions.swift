/// The command-line options: how the simulated service behaves.
struct SignupOptions {
  var latency = Duration.milliseconds(1500)
  /// How many submissions the service refuses before it accepts one.
  var failures = 0
  /// Where to record the session's actions (JSON Lines), if anywhere.
  var recordPath: String?
  var showHelp = false

  static let usage = """
    usage: signup [--fail N] [--latency MS] [--record FILE]

    Asks for a name, an email and a password, then signs up with a simulated service.
      --fail N       the service refuses the first N attempts (or $SIGNUP_FAILURES)
      --latency MS   the service takes MS milliseconds (or $SIGNUP_LATENCY_MS; 1500)
      --record FILE  records the session's actions to FILE (JSON Lines), the password and
                     its confirmation as <redacted>
    While it sends, type 'cancel' to stop; after a failure, 'retry'.
    """

  /// Reads the arguments (without the program name) and the environment.
  static func parse(
    _ arguments: [String], environment: [String: String]
  ) throws(OptionError) -> SignupOptions {
    var options = SignupOptions()
    if let value = environment["SIGNUP_FAILURES"] { options.failures = try count(value, "--fail") }
    if let value = environment["SIGNUP_LATENCY_MS"] {
      options.latency = .milliseconds(try count(value, "--latency"))
    }
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--fail":
        options.failures = try count(remaining.popFirst(), argument)
      case "--latency":
        options.latency = .milliseconds(try count(remaining.popFirst(), argument))
      case "--record":
        guard let path = remaining.popFirst(), !path.isEmpty else {
          throw OptionError(message: "--record needs a file, like '--record session.jsonl'")
        }
        options.recordPath = path
      case "--help", "-h":
        options.showHelp = true
      default:
        throw OptionError(message: "unknown option '\(argument)'")
      }
    }
    return options
  }

  private static func count(_ text: String?, _ option: String) throws(OptionError) -> Int {
    guard let text, let value = Int(text), value >= 0 else {
      throw OptionError(message: "\(option) needs a whole number, like '\(option) 2'")
    }
    return value
  }
}

/// A bad command-line option.
struct OptionError: Error {
  var message: String
}
