import Arboreal
import ArborealTesting
import Testing

/// A key that is not `Equatable`: its `Redacted` wrapper is not either.
private struct ApiKey {
  var raw: String
}

private final class Vault: Trackable {
  let registrar = TrackingRegistrar()
  @Tracked var pin = Redacted("0000")
  @Tracked var key = Redacted(ApiKey(raw: "k-1"))
}

/// The test store compares and shows what a `Redacted` value holds: its placeholder would
/// make two different secrets look equal.
@Suite struct RedactedStateTests {
  @Test func differentSecretsAreADifferenceThatShowsThem() {
    let vault = Vault()
    let expected = Vault()
    #expect(stateDifferences(vault, expected) == [])
    expected.pin = Redacted("1234")
    #expect(
      stateDifferences(vault, expected) == [#"Vault.pin: Redacted("0000") ≠ Redacted("1234")"#])
  }

  @Test func secretsThatAreNotEquatableAreComparedByWhatTheyHold() {
    let vault = Vault()
    let expected = Vault()
    expected.key = Redacted(ApiKey(raw: "k-2"))
    #expect(stateDifferences(vault, expected) == [#"Vault.key[raw]: "k-1" ≠ "k-2""#])
  }
}
