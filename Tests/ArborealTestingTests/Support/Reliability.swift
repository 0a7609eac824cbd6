import Foundation

/// Whether the long reliability tests run: set `ARBOREAL_RELIABILITY=1`.
///
/// They keep the main actor busy for seconds, which would hold up the other main-actor tests
/// (and their timeouts) in a plain `swift test`; `.ci/run` runs them in a step of their own.
let reliabilitySuiteEnabled = ProcessInfo.processInfo.environment["ARBOREAL_RELIABILITY"] != nil
