import ArborealTracking

/// A value as a test store's failure shows it: `String(reflecting:)`, except that a
/// `Redacted` value shows its secret (`Redacted("hunter2")`): a test's own values are not
/// secrets worth hiding from its author, and two placeholders would not say what differs.
func describeForTest(_ value: Any) -> String {
  guard let secret = value as? any RedactedValueRevealing else { return String(reflecting: value) }
  return "Redacted(\(String(reflecting: secret.revealedValue)))"
}
