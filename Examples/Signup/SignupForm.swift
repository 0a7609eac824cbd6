import Arboreal
import ArborealDevtools
import ExampleSupport

/// The sign-up form: the four values, the submission, and the validation messages as queries.
///
/// Each value is written through a binding (`store.binding(get:tag:)`) that sends
/// ``Action/set(_:_:)``, or ``Action/setSecret(_:_:)`` for the password and its confirmation.
/// ``Action/submit`` starts two effects under one cancellation id: the request to the service
/// and a ticker that drives the progress indicator; ``Action/cancel`` cancels both by that id.
///
/// The password and its confirmation are `Redacted`, in the model and in the action that sets
/// them: `--record FILE`, `printChanges` and any log show `<redacted>` in their place.
final class SignupForm: ReplayableModel {
  /// Everything that can happen to the form.
  enum Action: Codable, Sendable {
    /// Sets the name or the email.
    case set(SignupField, String)
    /// Sets the password or its confirmation.
    case setSecret(SignupField, Redacted<String>)
    /// Sends the form to the service, if it is valid and not already being sent.
    case submit
    /// Stops a submission in flight.
    case cancel
    /// The progress ticker fired.
    case tick
    case succeeded(accountID: String)
    case failed(String)
  }

  /// Where a submission stands.
  enum Submission: Codable, Equatable, Sendable {
    case notSent
    case sending(attempt: Int)
    case succeeded(accountID: String)
    case failed(String)
    case cancelled
  }

  /// The cancellation id of a submission's effects.
  struct SubmitID: Hashable, Sendable {}

  /// How often the progress indicator moves.
  static let tickInterval = Duration.milliseconds(100)

  let registrar = TrackingRegistrar()
  @Tracked private(set) var name = ""
  @Tracked private(set) var email = ""
  @Tracked private(set) var password = Redacted("")
  @Tracked private(set) var confirmation = Redacted("")
  @Tracked private(set) var submission = Submission.notSent
  /// Ticks since the submission started, for the progress indicator.
  @Tracked private(set) var ticks = 0
  private var attempts = 0

  func update(action: Action, environment: SignupService) -> Fx<Action> {
    switch action {
    case .set(let field, let value):
      write(value, to: field)
      return .none
    case .setSecret(let field, let value):
      write(value.value, to: field)
      return .none
    case .submit:
      guard isValid, !isSending else { return .none }
      attempts += 1
      submission = .sending(attempt: attempts)
      ticks = 0
      let registration = SignupService.Registration(
        name: name, email: email, password: password.value)
      let request = Fx<Action> {
        .succeeded(accountID: try await environment.register(registration))
      } catch: { error in
        .failed("\(error)")
      }
      let ticker = Fx<Action>.run { send in
        while (try? await Task.sleep(for: Self.tickInterval)) != nil { await send(.tick) }
      }
      // Not `cancelInFlight: true`: it would make the ticker cancel the request it is merged
      // with (both start under the id). `isSending` already rules out a second submission.
      return Fx.merge(request, ticker).cancellable(id: SubmitID())
    case .cancel:
      guard isSending else { return .none }
      submission = .cancelled
      return .cancel(id: SubmitID())
    case .tick:
      ticks += 1
      return .none
    case .succeeded(let accountID):
      submission = .succeeded(accountID: accountID)
      return .cancel(id: SubmitID())
    case .failed(let message):
      submission = .failed(message)
      return .cancel(id: SubmitID())
    }
  }

  /// Writes a field's value: a name or an email trimmed, a secret as it was typed.
  private func write(_ value: String, to field: SignupField) {
    switch field {
    case .name: name = value.trimmingWhitespace
    case .email: email = value.trimmingWhitespace
    case .password: password = Redacted(value)
    case .confirmation: confirmation = Redacted(value)
    }
  }
}

// MARK: Snapshots

extension SignupForm {
  /// The form as a value, for `--record`: the secrets as `<redacted>` (a replayed form holds
  /// empty ones, and a replayed `submit` then finds the form invalid and sends nothing).
  struct Snapshot: Codable, Equatable, Sendable {
    var name: String
    var email: String
    var password: Redacted<String>
    var confirmation: Redacted<String>
    var submission: Submission
    var ticks: Int
    var attempts: Int
  }

  var snapshot: Snapshot {
    Snapshot(
      name: name, email: email, password: password, confirmation: confirmation,
      submission: submission, ticks: ticks, attempts: attempts)
  }

  convenience init(snapshot: Snapshot) {
    self.init()
    name = snapshot.name
    email = snapshot.email
    password = snapshot.password
    confirmation = snapshot.confirmation
    submission = snapshot.submission
    ticks = snapshot.ticks
    attempts = snapshot.attempts
  }
}

// MARK: Queries

extension SignupForm {
  /// The current value of a field.
  func value(of field: SignupField) -> String {
    switch field {
    case .name: name
    case .email: email
    case .password: password.value
    case .confirmation: confirmation.value
    }
  }

  /// What is wrong with a field's value, or nil if it is fine.
  func problem(with field: SignupField) -> String? {
    switch field {
    case .name:
      return name.isEmpty ? "a name is required" : nil
    case .email:
      let parts = email.split(separator: "@", omittingEmptySubsequences: false)
      let valid =
        parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".")
        && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".") && !email.contains(" ")
      return valid ? nil : "'\(email)' is not an email address"
    case .password:
      let password = password.value
      if password.count < 8 { return "the password needs at least 8 characters" }
      if !password.contains(where: \.isNumber) || !password.contains(where: \.isLetter) {
        return "the password needs letters and digits"
      }
      return nil
    case .confirmation:
      return confirmation == password ? nil : "the passwords do not match"
    }
  }

  /// The first field with a problem, in form order.
  var firstInvalidField: SignupField? {
    SignupField.allCases.first { problem(with: $0) != nil }
  }

  var isValid: Bool { firstInvalidField == nil }

  var isSending: Bool {
    if case .sending = submission { true } else { false }
  }
}
