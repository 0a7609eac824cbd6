import Testing

/// A stream an effect signals after delivering its actions, and a way to wait for it.
struct Signal {
  let stream: AsyncStream<Void>
  let continuation: AsyncStream<Void>.Continuation

  init() {
    (stream, continuation) = AsyncStream<Void>.makeStream()
  }

  /// Waits for the next signal.
  func wait() async {
    for await _ in stream { return }
  }
}

/// Whether an issue's text contains `text`.
func mentions(_ text: String) -> @Sendable (Issue) -> Bool {
  { issue in issue.description.contains(text) }
}
