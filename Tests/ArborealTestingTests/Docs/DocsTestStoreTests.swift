import Arboreal
import ArborealTesting
import Testing

// The code of the "Testing with TestStore" article
// (ArborealTesting.docc/TestingWithTestStore.md), verbatim between the `article begins` and
// `article ends` markers, so that it keeps compiling and doing what the article says (the
// `tests` region is also on the ArborealTesting.docc/ArborealTesting.md landing page).
// `.ci/check-article-code.py` checks that the articles still show it.

// article begins: model
final class Greeter: ArborealModel {
  enum Action: Sendable, Equatable {
    case nameChanged(String)
    case greetTapped
    case greeted(String)
    case greetFailed(String)
  }

  struct Environment: Sendable {
    var greet: @Sendable (String) async throws -> String
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var name = ""
  @Tracked private(set) var greeting: String?
  @Tracked private(set) var error: String?
  @Tracked private(set) var isGreeting = false

  func update(action: Action, environment: Environment) -> Fx<Action> {
    switch action {
    case .nameChanged(let name):
      self.name = name
      return .none
    case .greetTapped:
      isGreeting = true
      let name = self.name
      return Fx {
        .greeted(try await environment.greet(name))
      } catch: { error in
        .greetFailed("\(error)")
      }
    case .greeted(let greeting):
      isGreeting = false
      self.greeting = greeting
      return .none
    case .greetFailed(let message):
      isGreeting = false
      error = message
      return .none
    }
  }
}
// article ends: model

struct GreeterError: Error, CustomStringConvertible {
  var description: String { "offline" }
}

// article begins: tests
@MainActor
@Suite struct GreeterTests {
  @Test func greetsByName() async {
    let store = TestStore(
      state: Greeter(),
      environment: .init(greet: { name in "Hello, \(name)!" })
    )

    await store.send(.nameChanged("Ada")) { model in
      #expect(model.name == "Ada")
    }
    await store.send(.greetTapped) { model in
      #expect(model.isGreeting)
    }
    await store.receive(.greeted("Hello, Ada!")) { model in
      #expect(!model.isGreeting)
      #expect(model.greeting == "Hello, Ada!")
    }
    await store.finish()
  }

  @Test func reportsAFailure() async {
    let store = TestStore(
      state: Greeter(),
      environment: .init(greet: { _ in throw GreeterError() })
    )

    await store.send(.greetTapped) { #expect($0.isGreeting) }
    // Match a case whatever its payload.
    await store.receive(where: { if case .greetFailed = $0 { true } else { false } }) { model in
      #expect(!model.isGreeting)
      #expect(model.error == "offline")
    }
    await store.finish()
  }

  @Test func checksOnlyWhatItCaresAbout() async {
    let store = TestStore(
      state: Greeter(),
      environment: .init(greet: { name in "Hello, \(name)!" }),
      exhaustivity: .off
    )

    await store.send(.nameChanged("Ada"))  // no assertion needed
    await store.send(.greetTapped)
    await store.receive(.greeted("Hello, Ada!")) { model in
      #expect(model.greeting == "Hello, Ada!")
    }
    await store.finish()  // still fails if an effect is running
  }
}
// article ends: tests

@Suite actor DocsTestStoreTests {
  @MainActor
  @Test func aForgottenPropertyFailsTheTestNamingIt() async {
    let store = TestStore(
      state: Greeter(),
      environment: .init(greet: { name in "Hello, \(name)!" })
    )
    let owner = "\(store.state.$isGreeting.owner!)"
    await withKnownIssue {
      // article begins: forgotten
      await store.send(.greetTapped) { model in
        #expect(model.name == "")  // reads `name`, but `isGreeting` changed
      }
      // article ends: forgotten
    } matching: { issue in
      issue.description.contains("send(greetTapped) changed 1 tracked property")
        && issue.description.contains("\(owner).isGreeting = true")
    }
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      issue.description.contains("greeted(\"Hello, !\")")
    }
  }
}
