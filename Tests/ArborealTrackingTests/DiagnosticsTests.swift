import ArborealTestSupport
import ArborealTracking
import Testing

/// Misuse is reported with enough to find the culprit. The handlers are global, so the tests
/// that set them run one at a time.
@MainActor @Suite(.serialized) struct DiagnosticsTests {
  @Test func aRunawayObserverIsReportedWithWhereItWasRegistered() {
    let messages = Log<String>()
    TrackingDiagnostics.runawayHandler = { messages.append($0) }
    defer { TrackingDiagnostics.runawayHandler = nil }
    let counter = Counter()
    let line = #line + 1
    let token = observe { _ in counter.count += 1 }
    token.cancel()
    #expect(messages.all.count == 1)
    #expect(messages.all.first?.contains("DiagnosticsTests.swift:\(line)") == true)
  }

  @Test func aTokenReleasedAtOnceIsReportedInDebugBuilds() {
    let messages = Log<String>()
    TrackingDiagnostics.releasedTokenHandler = { messages.append($0) }
    defer { TrackingDiagnostics.releasedTokenHandler = nil }
    let counter = Counter()
    let line = #line + 1
    _ = observe { _ in _ = counter.count }
    let kept = observe { _ in _ = counter.count }
    kept.cancel()  // cancelled on purpose: not reported
    #if DEBUG
      #expect(messages.all.count == 1)
      #expect(messages.all.first?.contains("DiagnosticsTests.swift:\(line)") == true)
    #else
      #expect(messages.all.isEmpty)
    #endif
  }
}
