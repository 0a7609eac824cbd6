/// A value that is never written out: recordings, persisted files, logs, change reports and
/// anything else that describes or encodes it show ``placeholder`` in its place.
///
/// Mark a secret once, by its type, where the model holds it; every copy stays marked, into an
/// action, a snapshot or a log:
///
/// ```swift
/// final class Login: ArborealModel {
///   enum Action: Codable, Sendable { case setPassword(Redacted<String>) }
///   let registrar = TrackingRegistrar()
///   @Tracked private(set) var password = Redacted("")
///   // …
/// }
/// store.send(.setPassword(Redacted(typed)))
/// print(store.state.password)  // <redacted>
/// ```
///
/// - **Describing** it (`print`, string interpolation, `String(reflecting:)`, `dump`, a store's
///   log and `printChanges`) gives ``placeholder``; read ``value`` to use the secret.
/// - **Encoding** it writes ``placeholder`` as a string, whatever the encoder: the secret is
///   not in a recording, a persisted file or anything else encoded. Encode `value` itself to
///   send it somewhere on purpose.
/// - **Decoding** the placeholder gives the value type's
///   ``RedactedPlaceholder/redactedPlaceholder`` (an empty string, 0, nil, an empty
///   collection): a replayed or restored model holds that in the secret's place, and an
///   update whose outcome depends on the secret (a validation) may take another branch in a
///   replay than it took when recorded. Decoding anything else decodes the value itself, so
///   that a file written before the property was marked still reads.
/// - Two redacted values are equal when their values are (`Equatable`, `Hashable`).
///
/// In debug builds, a secret that escapes its wrapper (an action that carries the plain
/// `String` a `Redacted` was made from) is reported when a recording or a persisted file is
/// about to write it; see ``TrackingDiagnostics/unredactedSecretHandler``.
public struct Redacted<Value> {
  /// The secret itself.
  public var value: Value

  /// Wraps a secret.
  ///
  /// - Parameter value: The secret.
  public init(_ value: Value) {
    self.value = value
    #if DEBUG
      RedactedSecrets.remember(value)
    #endif
  }

  /// What is shown and written in place of every redacted value: `<redacted>`.
  public static var placeholder: String { "<redacted>" }
}

extension Redacted: Sendable where Value: Sendable {}
extension Redacted: Equatable where Value: Equatable {}
extension Redacted: Hashable where Value: Hashable {}

extension Redacted: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// ``placeholder``.
  public var description: String { Self.placeholder }
  /// ``placeholder``.
  public var debugDescription: String { Self.placeholder }
  /// A mirror without children: `dump` and reflection show the placeholder, not the value.
  public var customMirror: Mirror { Mirror(self, children: [:], displayStyle: .struct) }
}

extension Redacted: Encodable {
  /// Writes ``placeholder``, never the value.
  ///
  /// - Parameter encoder: The encoder.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(Self.placeholder)
  }
}

extension Redacted: Decodable where Value: Decodable & RedactedPlaceholder {
  /// Reads ``placeholder`` as the value type's
  /// ``RedactedPlaceholder/redactedPlaceholder``, and anything else as the value itself.
  ///
  /// - Parameter decoder: The decoder.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let text = try? container.decode(String.self), text == Self.placeholder {
      value = Value.redactedPlaceholder
    } else {
      value = try container.decode(Value.self)
    }
  }
}

/// A type whose ``redactedPlaceholder`` stands for a ``Redacted`` value read back from a
/// recording or a file, where the value itself was never written.
///
/// The standard library's strings, numbers, `Bool`, optionals and collections conform; conform
/// a type of your own to redact it:
///
/// ```swift
/// extension Token: RedactedPlaceholder {
///   static var redactedPlaceholder: Token { Token(raw: "") }
/// }
/// ```
public protocol RedactedPlaceholder {
  /// The value a redacted one is read back as.
  static var redactedPlaceholder: Self { get }
}

/// A string reads back as the empty string in a redacted value's place (``RedactedPlaceholder``).
extension String: RedactedPlaceholder {
  /// The empty string.
  public static var redactedPlaceholder: String { "" }
}

/// An integer reads back as zero in a redacted value's place (``RedactedPlaceholder``).
extension Int: RedactedPlaceholder {
  /// Zero.
  public static var redactedPlaceholder: Int { 0 }
}

/// A floating-point number reads back as zero in a redacted value's place (``RedactedPlaceholder``).
extension Double: RedactedPlaceholder {
  /// Zero.
  public static var redactedPlaceholder: Double { 0 }
}

/// A Boolean reads back as false in a redacted value's place (``RedactedPlaceholder``).
extension Bool: RedactedPlaceholder {
  /// False.
  public static var redactedPlaceholder: Bool { false }
}

/// An optional reads back as nil in a redacted value's place (``RedactedPlaceholder``).
extension Optional: RedactedPlaceholder {
  /// Nil.
  public static var redactedPlaceholder: Wrapped? { nil }
}

/// An array reads back empty in a redacted value's place (``RedactedPlaceholder``).
extension Array: RedactedPlaceholder {
  /// The empty array.
  public static var redactedPlaceholder: [Element] { [] }
}

/// A dictionary reads back empty in a redacted value's place (``RedactedPlaceholder``).
extension Dictionary: RedactedPlaceholder {
  /// The empty dictionary.
  public static var redactedPlaceholder: [Key: Value] { [:] }
}

/// A set reads back empty in a redacted value's place (``RedactedPlaceholder``).
extension Set: RedactedPlaceholder {
  /// The empty set.
  public static var redactedPlaceholder: Set<Element> { [] }
}

extension TrackingDiagnostics {
  private static let unredactedSecret = DiagnosticChannel()

  /// Receives the message for a secret about to be written in the open: a recording's step or
  /// a persisted file whose text holds, as a whole string, the text of a `Redacted<String>`
  /// made recently in the program (an action that carries the plain `String` a `Redacted`
  /// was made from, a snapshot that copies `value` out). The message names what was being
  /// written, never the secret; the write goes ahead. When nil (the default), the message is
  /// written to standard error. Checked in debug builds only, against the last 64 secrets of
  /// at least 4 characters.
  public static var unredactedSecretHandler: (@Sendable (String) -> Void)? {
    get { unredactedSecret.handler }
    set { unredactedSecret.handler = newValue }
  }

  /// Reports that `what` holds a secret in the open (see ``unredactedSecretHandler``).
  package static func reportUnredactedSecret(in what: String) {
    unredactedSecret.report(
      "ArborealTracking: \(what) holds the text of a Redacted value in the open, which it "
        + "would write; wrap it in Redacted where it is carried (the action's payload, the "
        + "snapshot's field) so that it is written as \(Redacted<String>.placeholder).")
  }
}

/// The secrets that debug builds look for in what is written (see
/// ``TrackingDiagnostics/unredactedSecretHandler``): the texts of the last 64
/// `Redacted<String>` values of at least 4 characters, oldest first.
///
/// Invariant: `texts` holds at most `capacity` distinct strings; guarded by the package's lock
/// (which ThreadSanitizer sees, where a bare `Mutex` is a futex it does not).
package enum RedactedSecrets {
  static let capacity = 64
  private static let texts = Locked<[String]>.make([])

  /// Remembers `value` when it is a string long enough to look for.
  static func remember<Value>(_ value: Value) {
    guard let text = value as? String, text.utf8.count >= 4 else { return }
    texts.withLock { texts in
      if let index = texts.firstIndex(of: text) { texts.remove(at: index) }
      if texts.count == capacity { texts.removeFirst() }
      texts.append(text)
    }
  }

  /// Whether `written` holds a remembered secret as a whole string, encoded by `quote` (the
  /// writer's way of writing a string: JSON, or Swift's `debugDescription`).
  package static func appear(in written: String, quotedBy quote: (String) -> String) -> Bool {
    let secrets = texts.withLock { $0 }
    return secrets.contains { written.contains(quote($0)) }
  }
}

/// Package hook: how the test store reaches a redacted value's secret, to compare it and to
/// show it in a failure (a test's own values are not secrets worth hiding from its author).
package protocol RedactedValueRevealing {
  /// The secret, as `Any`.
  var revealedValue: Any { get }
}

extension Redacted: RedactedValueRevealing {
  package var revealedValue: Any { value }
}
