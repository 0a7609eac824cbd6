import Foundation

/// Standard input as an asynchronous sequence of lines.
package enum StandardInput {
  /// Reads lines on a thread of its own, so a blocking read never holds the main actor (where
  /// the store delivers effect actions) or a thread of the concurrency pool. The sequence
  /// ends at end of input. Bytes that are not UTF-8 become U+FFFD.
  package static func lines() -> AsyncStream<String> {
    let (lines, continuation) = AsyncStream.makeStream(of: String.self)
    let reader = Thread {
      while let line = readLine() { continuation.yield(line) }
      continuation.finish()
    }
    reader.start()
    return lines
  }
}
