import Arboreal
import ArborealTesting
import Testing

/// TCA's "Effects: cancellation" case study, ported as a user would: a stepper picks a number,
/// a button asks a fact server about it, and a cancel button (or moving the stepper) drops the
/// request in flight. TCA's test replaces the client's closure; here the environment holds the
/// closure too, and the tests give it in each form a user writes: an answer at once, an actor
/// of the test's own, a server that answers after a `TestClock` second.
final class Trivia: ArborealModel {
  enum Action: Sendable, Equatable {
    case cancelButtonTapped
    case stepperChanged(Int)
    case factButtonTapped
    case factResponse(Result<String, FactError>)
  }

  /// Why a fact could not be fetched.
  struct FactError: Error, Equatable {}

  struct Environment: Sendable {
    var fact: @Sendable (Int) async throws(FactError) -> String
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var count = 0
  @Tracked private(set) var currentFact: String?
  @Tracked private(set) var isFactRequestInFlight = false

  func update(action: Action, environment: Environment) -> Fx<Action> {
    switch action {
    case .cancelButtonTapped:
      isFactRequestInFlight = false
      return .cancel(id: "fact")
    case .stepperChanged(let value):
      count = value
      currentFact = nil
      isFactRequestInFlight = false
      return .cancel(id: "fact")
    case .factButtonTapped:
      currentFact = nil
      isFactRequestInFlight = true
      return .run { [count] send in
        do throws(FactError) {
          await send(.factResponse(.success(try await environment.fact(count))))
        } catch {
          await send(.factResponse(.failure(error)))
        }
      }
      .cancellable(id: "fact")
    case .factResponse(.success(let fact)):
      isFactRequestInFlight = false
      currentFact = fact
      return .none
    case .factResponse(.failure):
      isFactRequestInFlight = false
      return .none
    }
  }
}

/// A fact server kept by an actor: it counts the questions it was asked.
actor FactServer {
  private(set) var questions = 0

  func fact(about number: Int) -> String {
    questions += 1
    return "\(number) is a good number Brent"
  }
}

@Suite actor PortedEffectsCancellationTests {
  @Test func aFactArrivesForTheChosenNumber() async {
    let store = TestStore(
      state: Trivia(), environment: .init(fact: { "\($0) is a good number Brent" }))
    await store.send(.stepperChanged(1)) { #expect($0.count == 1) }
    await store.send(.stepperChanged(0)) { #expect($0.count == 0) }
    await store.send(.factButtonTapped) { #expect($0.isFactRequestInFlight) }
    await store.receive(.factResponse(.success("0 is a good number Brent"))) {
      #expect($0.currentFact == "0 is a good number Brent")
      #expect(!$0.isFactRequestInFlight)
    }
    await store.finish()
  }

  @Test func aFailedRequestEndsTheRequest() async {
    let store = TestStore(
      state: Trivia(), environment: .init(fact: { _ throws(Trivia.FactError) in throw .init() }))
    await store.send(.factButtonTapped) { #expect($0.isFactRequestInFlight) }
    await store.receive(Trivia.Action.factResponse) { #expect(!$0.isFactRequestInFlight) }
    await store.finish()
  }

  /// The server is an actor the test makes: its work runs on the test executor, so the test
  /// needs no timeout, and passes on every run.
  @Test func aFactFromAnActorOfTheTestsOwnNeedsNoTimeout() async {
    let server = FactServer()
    let store = TestStore(
      state: Trivia(), environment: .init(fact: { await server.fact(about: $0) }))
    await store.send(.stepperChanged(7)) { #expect($0.count == 7) }
    await store.send(.factButtonTapped) { #expect($0.isFactRequestInFlight) }
    await store.receive(.factResponse(.success("7 is a good number Brent"))) {
      #expect($0.currentFact == "7 is a good number Brent")
      #expect(!$0.isFactRequestInFlight)
    }
    await store.finish()
    #expect(await server.questions == 1)
  }

  @Test(arguments: [Trivia.Action.cancelButtonTapped, .stepperChanged(1)])
  func cancellingOrSteppingDropsTheRequestInFlight(_ cancel: Trivia.Action) async {
    let clock = TestClock()
    let store = TestStore(
      state: Trivia(),
      environment: .init(fact: { number in
        try? await clock.sleep(for: .seconds(1))
        return "\(number) is a good number Brent"
      }))
    await store.send(.factButtonTapped) { #expect($0.isFactRequestInFlight) }
    await store.send(cancel) {
      #expect(!$0.isFactRequestInFlight)
      if case .stepperChanged(let value) = cancel { #expect($0.count == value) }
    }
    // The server would answer now; the request was dropped, so nothing arrives.
    await clock.advance(by: .seconds(1))
    await store.finish()
  }
}
