/// The sign-up service the submit effect calls.
struct SignupService: Sendable {
  /// What is sent.
  struct Registration: Sendable {
    var name: String
    var email: String
    var password: String
  }

  /// Creates the account and returns its id, or throws a ``Failure``.
  var register: @Sendable (Registration) async throws -> String

  /// A refusal from the service, said in one line.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// A service that waits `latency`, then fails the first `failures` attempts and accepts the
  /// next one.
  static func simulated(latency: Duration, failures: Int) -> SignupService {
    let server = SimulatedServer(failures: failures)
    return SignupService { registration in
      try await Task.sleep(for: latency)
      return try await server.register(registration)
    }
  }
}

/// The simulated server's state: how many attempts it has seen.
private actor SimulatedServer {
  let failures: Int
  var attempts = 0

  init(failures: Int) {
    self.failures = failures
  }

  func register(_ registration: SignupService.Registration) throws -> String {
    attempts += 1
    if attempts <= failures {
      throw SignupService.Failure(
        description: "the service is unavailable (simulated failure \(attempts) of \(failures))")
    }
    let local = registration.email.prefix { $0 != "@" }
    return "acct-\(local)-\(attempts)"
  }
}
