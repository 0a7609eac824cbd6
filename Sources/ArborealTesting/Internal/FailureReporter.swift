import Testing

#if canImport(XCTest)
  import XCTest
#endif

/// Where a test called a ``TestStore`` method: where its failures are reported.
struct CallerLocation: Sendable {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt
}

/// Reports a test failure through the framework running the test: a Swift Testing issue when
/// a Swift Testing test is running (`Test.current` is set, also inside `withKnownIssue`), an
/// XCTest failure otherwise (where XCTest exists).
func reportFailure(_ message: String, at location: CallerLocation) {
  #if canImport(XCTest)
    if Test.current == nil {
      XCTFail(message, file: location.filePath, line: location.line)
      return
    }
  #endif
  Issue.record(
    Comment(rawValue: message),
    sourceLocation: SourceLocation(
      fileID: String(describing: location.fileID),
      filePath: String(describing: location.filePath),
      line: Int(location.line),
      column: Int(location.column)))
}
