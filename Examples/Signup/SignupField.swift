/// The fields of the form, in the order they are asked for.
enum SignupField: String, CaseIterable, Codable, Sendable {
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

  /// Whether the value is a secret: not echoed as it is typed, nor shown in its prompt.
  var isSecret: Bool { self == .password || self == .confirmation }
}
