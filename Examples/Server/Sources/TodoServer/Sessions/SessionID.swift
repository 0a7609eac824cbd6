/// A session's id: 128 random bits as 32 lowercase hexadecimal digits.
///
/// The id is the session's only credential (whoever has it can read and change the list), so
/// it comes from the system's cryptographically secure generator and is long enough never to
/// be guessed or to collide: 2^128 values.
///
/// ```swift
/// let id = SessionID.random()  // 9f86d081884c7d659a2feaa0c55ad015
/// ```
struct SessionID: Hashable, Sendable, CustomStringConvertible {
  /// How many random bits an id holds.
  static let bits = 128

  /// The 32 hexadecimal digits.
  let rawValue: String

  /// The id these digits spell, or nil when `text` is not one an id could be (32 lowercase
  /// hexadecimal digits): such a path names no session, and is not looked up.
  init?(_ text: some StringProtocol) {
    guard text.utf8.count == Self.bits / 4, text.utf8.allSatisfy(Self.isDigit) else { return nil }
    rawValue = String(text)
  }

  private init(rawValue: String) {
    self.rawValue = rawValue
  }

  /// A new id from the system's secure random number generator.
  static func random() -> SessionID {
    var generator = SystemRandomNumberGenerator()
    return random(using: &generator)
  }

  /// A new id from `generator`: for tests that need known ids; the server uses ``random()``.
  static func random(using generator: inout some RandomNumberGenerator) -> SessionID {
    let words = (0..<(bits / 64)).map { _ in generator.next() as UInt64 }
    return SessionID(rawValue: words.map(hex).joined())
  }

  var description: String { rawValue }

  /// Whether `byte` is one of the digits an id is written in: 0-9, a-f.
  private static func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
      || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
  }

  /// `word` as 16 hexadecimal digits, leading zeros kept: every id has the same length.
  private static func hex(_ word: UInt64) -> String {
    let digits = String(word, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
