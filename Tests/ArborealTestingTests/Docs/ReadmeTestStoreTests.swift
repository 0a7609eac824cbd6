// The README's "Testing with TestStore" example, verbatim between the markers.

import Arboreal
import ArborealTesting
import Testing

// README-BEGIN
final class FactCounter: ArborealModel {
  enum Action: Sendable, Equatable {
    case increment
    case factButtonTapped
    case factResponse(String)
  }

  struct Environment: Sendable {
    var fact: @Sendable (Int) async -> String
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var count = 0
  @Tracked private(set) var fact: String?
  @Tracked private(set) var isLoading = false

  func update(action: Action, environment: Environment) -> Fx<Action> {
    switch action {
    case .increment:
      count += 1
      fact = nil
      return .none
    case .factButtonTapped:
      isLoading = true
      let count = self.count
      return Fx { .factResponse(await environment.fact(count)) }
    case .factResponse(let fact):
      isLoading = false
      self.fact = fact
      return .none
    }
  }
}

@MainActor
@Suite struct FactCounterTests {
  @Test func loadsAFact() async {
    let store = TestStore(
      state: FactCounter(),
      environment: .init(fact: { "\($0) is a good number." })
    )

    // Every property the action changes must be read in the closure.
    await store.send(.increment) { model in
      #expect(model.count == 1)
    }
    await store.send(.factButtonTapped) { model in
      #expect(model.isLoading)
    }
    // The effect's action waits until the test receives it.
    await store.receive(.factResponse("1 is a good number.")) { model in
      #expect(model.isLoading == false)
      #expect(model.fact == "1 is a good number.")
    }
    // Fails if an effect is still running or an action was not received.
    await store.finish()
  }

  @Test func loadsAFactNonExhaustively() async {
    let store = TestStore(
      state: FactCounter(),
      environment: .init(fact: { "\($0) is a good number." }),
      exhaustivity: .off
    )

    await store.send(.increment)
    await store.send(.factButtonTapped)
    await store.receive(.factResponse("1 is a good number.")) { model in
      #expect(model.fact == "1 is a good number.")
    }
    await store.finish()
  }
}
// README-END

// The README's presented-child example, verbatim between the markers.

// README-BEGIN presented
final class ContactForm: ArborealModel {
  enum Action: Sendable, Equatable {
    case nameChanged(String)
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var name: String
  @Tracked private(set) var isFavorite = false

  init(name: String = "") {
    self.name = name
  }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .nameChanged(let name):
      self.name = name
    }
    return .none
  }
}

final class Contacts: ArborealModel {
  enum Action: Sendable, Equatable {
    case addTapped
    case form(PresentationAction<ContactForm.Action>)
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var form: ContactForm?

  static let form = ChildRoute.child(\Contacts.form, tag: Action.form)

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .addTapped:
      form = ContactForm()
      return .none
    case .form(let action):
      return forward(action, to: Self.form, environment: ())
    }
  }
}

@MainActor
@Suite struct ContactsTests {
  @Test func addPresentsAnEmptyForm() async {
    let store = TestStore(state: Contacts())
    // A model the action puts into the state is checked whole: each of its tracked
    // properties, or the model compared with an expected one.
    await store.send(.addTapped) { model in
      #expect(stateDifferences(model.form, ContactForm()) == [])
    }
    await store.send(.form(.presented(.nameChanged("Ada")))) { model in
      #expect(model.form?.name == "Ada")
    }
    await store.send(.form(.dismiss)) { model in
      #expect(model.form == nil)
    }
  }
}
// README-END
