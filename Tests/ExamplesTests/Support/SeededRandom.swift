import ArborealTestSupport
import Foundation

/// `ARBOREAL_FUZZ_SCALE`: how many times more garbled input the fuzz suites feed (1 by default).
let fuzzScale = ProcessInfo.processInfo.environment["ARBOREAL_FUZZ_SCALE"].flatMap(Int.init) ?? 1

extension SeededRandom {
  /// A garbled line of input: `prefix`, then random bytes (control bytes, invalid UTF-8, and
  /// one time in ten 20,000 of them), then a newline. Never a newline or a carriage return
  /// inside, nor a byte of `avoiding`: those become 0xFF.
  mutating func garbledLine(after prefix: String = "zz", avoiding: Set<UInt8> = []) -> Data {
    let length = next(below: 10) == 0 ? 20_000 : next(below: 60)
    var line = Array(prefix.utf8)
    line.reserveCapacity(line.count + length + 1)
    var bits: UInt64 = 0
    for index in 0..<length {
      // Eight bytes from each number drawn.
      if index % 8 == 0 { bits = next() }
      var byte = UInt8(truncatingIfNeeded: bits >> (8 * UInt64(index % 8)))
      if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || avoiding.contains(byte) {
        byte = 0xFF
      }
      line.append(byte)
    }
    line.append(UInt8(ascii: "\n"))
    return Data(line)
  }
}
