extension String {
  /// The first word and what follows it, both without surrounding whitespace: how a command
  /// line splits into a command and its argument (`" edit 2 milk "` gives `("edit", "2 milk")`).
  /// Both are empty for a blank line.
  package var firstWordAndRest: (word: String, rest: String) {
    let line = trimmingWhitespace
    let word = String(line.prefix { !$0.isWhitespace })
    return (word, String(line.dropFirst(word.count)).trimmingWhitespace)
  }
}
