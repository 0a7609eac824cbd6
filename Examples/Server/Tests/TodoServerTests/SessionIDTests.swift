import Testing

@testable import TodoServer

/// Session ids cannot be guessed: 128 random bits, written out in full.
@Suite struct SessionIDTests {
  @Test func aThousandIDsAreDistinctAnd32HexDigits() {
    let ids = (0..<1_000).map { _ in SessionID.random().rawValue }
    #expect(Set(ids).count == 1_000)
    for id in ids {
      #expect(id.count == 32)
      #expect(id.allSatisfy { $0.isHexDigit && !$0.isUppercase })
    }
  }

  @Test func everyBitOfTheGeneratorIsKeptWithLeadingZeros() {
    var generator = FixedWords(words: [0x0000_0000_0000_00ff, 0x0123_4567_89ab_cdef])
    let id = SessionID.random(using: &generator)
    #expect(id.rawValue == "00000000000000ff0123456789abcdef")
  }

  @Test func onlyThirtyTwoLowercaseHexDigitsNameASession() {
    #expect(SessionID("00000000000000ff0123456789abcdef") != nil)
    let notIDs = [
      "", "abc", "00000000000000FF0123456789ABCDEF", "00000000000000ff0123456789abcdeg",
      "00000000000000ff0123456789abcdef0", "../../../../etc/passwd0000000000",
    ]
    for text in notIDs {
      #expect(SessionID(text) == nil, "\(text)")
    }
  }
}

/// A generator that returns the given words in turn.
private struct FixedWords: RandomNumberGenerator {
  var words: [UInt64]

  mutating func next() -> UInt64 {
    words.removeFirst()
  }
}
