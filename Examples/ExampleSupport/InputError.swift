/// Input a program cannot use: a one-line message and a hint at what would work.
package struct InputError: Error, Equatable {
  /// What was wrong.
  package var message: String
  /// What would work instead.
  package var hint: String

  /// An input error.
  package init(message: String, hint: String) {
    self.message = message
    self.hint = hint
  }
}

extension Console {
  /// A mistake in what was typed, with its hint.
  package func error(_ input: InputError) {
    error(input.message, hint: input.hint)
  }

  /// Hands each line of standard input to `handle` until it returns false (the user quit) or
  /// input ends, then says goodbye: "Bye." after a quit, an empty line at a terminal whose
  /// input ended (control-D leaves the cursor after the prompt).
  ///
  /// - Parameter handle: Handles one line; returns false to stop.
  /// - Returns: Whether the user quit (rather than input ending).
  @discardableResult @MainActor
  package func readCommands(_ handle: (String) async -> Bool) async -> Bool {
    var quit = false
    for await line in StandardInput.lines() {
      guard await handle(line) else {
        quit = true
        break
      }
    }
    if quit || isInteractive { say(quit ? "Bye." : "") }
    return quit
  }
}
