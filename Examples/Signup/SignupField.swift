/// The fields of the form, in the order they are asked for.
enum SignupField: String, CaseIterable, Sendable {
  case name
  case email
  case password
  case confirmation

  /// The prompt.
  var label: String {
    switch self {
    case .name: "Name"
    case .email: "Email"
    case .password: "Password"
    case .confirmation: "Password again"
    }
  }

  /// Whether the value is a secret, shown as dots rather than echoed back.
  var isSecret: Bool { self == .password || self == .confirmation }
}
