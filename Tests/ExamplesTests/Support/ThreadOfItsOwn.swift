import Foundation

/// Runs `work` on a thread of its own and returns its result.
///
/// For the fuzz suites' long computations (generating megabytes of input, splitting what the
/// program printed): on the concurrency pool, which has a thread per core, they would hold a
/// thread that other suites' effects and `TestStore` waits need, and make those time out on a
/// small loaded machine (two cores under AddressSanitizer).
func onThreadOfItsOwn<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    Thread { continuation.resume(returning: work()) }.start()
  }
}

/// The lines of `output` that start with `error: `, as bytes: a garbled character may
/// combine with the text around it, so they are compared byte by byte.
func errorLines(_ output: String) -> [[UInt8]] {
  output.utf8.split(separator: UInt8(ascii: "\n")).filter { $0.starts(with: "error: ".utf8) }
    .map(Array.init)
}
