import Arboreal
import Foundation

/// Debug builds: reports, through ``TrackingDiagnostics/unredactedSecretHandler``, when JSON
/// about to be written holds a recent `Redacted` secret's text as a whole string (see
/// `RedactedSecrets`). Release builds: nothing.
///
/// - Parameters:
///   - json: The bytes about to be written.
///   - what: What they are, for the message (never the secret).
@inline(__always)
package func reportSecrets(inJSON json: Data, _ what: @autoclosure () -> String) {
  #if DEBUG
    // `JSONEncoder` writes `/` as `\/`; `jsonString` quotes the secret the other way.
    let text = String(decoding: json, as: UTF8.self).replacingOccurrences(of: "\\/", with: "/")
    if RedactedSecrets.appear(in: text, quotedBy: jsonString) {
      TrackingDiagnostics.reportUnredactedSecret(in: what())
    }
  #endif
}

/// Debug builds: reports when `text` (a change report's lines, values described with
/// `String(reflecting:)`) holds a recent `Redacted` secret as a quoted string. Release
/// builds: nothing.
@inline(__always)
package func reportSecrets(inDescription text: String, _ what: @autoclosure () -> String) {
  #if DEBUG
    if RedactedSecrets.appear(in: text, quotedBy: \.debugDescription) {
      TrackingDiagnostics.reportUnredactedSecret(in: what())
    }
  #endif
}

/// The name of an action's case, without its payload: `set` for `set(.password, "…")`. Safe
/// to print when the payload may hold a secret.
package func caseName(of action: some Any) -> String {
  let text = String(describing: action)
  return text.firstIndex(of: "(").map { String(text[..<$0]) } ?? text
}
