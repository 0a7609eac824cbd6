#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Whether the long reliability tests run: set `ARBOREAL_RELIABILITY=1`.
///
/// They keep the main actor busy for seconds, which would hold up the other main-actor tests
/// (and their timeouts) in a plain `swift test`; `.ci/run` runs them in a step of their own.
package let reliabilitySuiteEnabled = getenv("ARBOREAL_RELIABILITY") != nil
