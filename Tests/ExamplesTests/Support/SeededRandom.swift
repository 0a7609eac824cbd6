import Foundation

/// `ARBOREAL_FUZZ_SCALE`: how many times more garbled input the fuzz suites feed (1 by default).
let fuzzScale = ProcessInfo.processInfo.environment["ARBOREAL_FUZZ_SCALE"].flatMap(Int.init) ?? 1

/// SplitMix64: a small seeded generator, so a failing run can be repeated.
struct SeededRandom {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }

  mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }

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
