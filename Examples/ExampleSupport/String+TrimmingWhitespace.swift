extension String {
  /// The string without leading and trailing whitespace (spaces, tabs, newlines).
  package var trimmingWhitespace: String {
    String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
  }
}
