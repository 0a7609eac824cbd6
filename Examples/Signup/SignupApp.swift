import Arboreal
import ExampleSupport

/// The command line around the form: asks for each value, submits, and offers a retry.
///
/// Each prompt reads and writes its field through `store.binding(get:tag:)`; the messages
/// come from the model's queries. Observers print the submission's progress and outcome
/// as the effects report back, while the main loop keeps reading input (so `cancel` works).
@MainActor
final class SignupApp {
  /// What the next line of input is for.
  enum Step: Equatable {
    case field(SignupField)
    /// After a failure or a cancellation: `retry`, `edit <field>` or `quit`.
    case choosing
    case sending
    case finished
  }

  let store: Store<SignupForm>
  let console: Console
  private(set) var step = Step.field(.name)
  private var observers: [TrackingToken] = []
  /// Called once the account exists: ends the input loop.
  private let onFinish: @MainActor () -> Void

  init(store: Store<SignupForm>, console: Console, onFinish: @escaping @MainActor () -> Void) {
    self.store = store
    self.console = console
    self.onFinish = onFinish
  }

  private var form: SignupForm { store.state }

  /// Starts the observers and asks for the first value.
  func start() {
    let form = form
    let console = console
    observers.append(
      observe({ form.submission }) { [weak self] _, submission in self?.show(submission) })
    observers.append(
      observe({ form.ticks }) { _, ticks in
        let spinner = ["|", "/", "-", "\\"][ticks % 4]
        let seconds = Double(ticks) * 0.1
        console.overwriteLine("Sending \(spinner) \(seconds.formatted1)s  (type 'cancel' to stop)")
      })
    prompt()
  }

  /// Handles one line of input; returns false when the user asked to quit.
  func handle(_ line: String) -> Bool {
    switch step {
    case .field(let field):
      enter(line, in: field)
    case .sending, .choosing, .finished:
      return command(line.trimmingWhitespace.lowercased())
    }
    prompt()
    return true
  }

  /// Suspends while a submission is in flight (the main actor stays free for its effects).
  func waitWhileSending() async {
    let form = form
    for await isSending in values(of: { form.isSending }) where !isSending { return }
  }

  /// 0 once an account was created, else 1.
  var exitCode: Int32 {
    if case .succeeded = form.submission { return 0 }
    console.error("no account was created")
    return 1
  }

  private func enter(_ line: String, in field: SignupField) {
    // The secrets travel in the action as `Redacted` too, so that no log or recording of it
    // holds them.
    let binding = store.binding(
      get: { $0.value(of: field) },
      tag: { field.isSecret ? .setSecret(field, Redacted($0)) : .set(field, $0) })
    // An empty line keeps a value that is already fine (when editing).
    if !(line.isEmpty && form.problem(with: field) == nil) {
      binding.wrappedValue = line
    }
    if let problem = form.problem(with: field) {
      console.error(problem, hint: "try again")
      return
    }
    next()
  }

  /// Moves to the first field that still has a problem, or submits.
  private func next() {
    if let field = form.firstInvalidField {
      step = .field(field)
    } else {
      step = .sending
      store.send(.submit)
    }
  }

  private func command(_ line: String) -> Bool {
    let words = line.split(separator: " ").map(String.init)
    switch words.first {
    case nil:
      break
    case "cancel":
      if step == .sending {
        store.send(.cancel)
      } else {
        console.say("Nothing to cancel.")
      }
    case "retry", "submit":
      next()
    case "edit":
      guard words.count == 2, let field = SignupField(rawValue: words[1]) else {
        console.error("edit what?", hint: "edit name, edit email or edit password")
        break
      }
      step = .field(field)
    case "quit", "q":
      return false
    default:
      console.error("unknown command '\(words[0])'", hint: choices)
    }
    prompt()
    return true
  }

  private let choices = "type 'retry', 'edit name', 'edit email', 'edit password' or 'quit'"

  private func show(_ submission: SignupForm.Submission) {
    console.overwriteLine("")
    switch submission {
    case .notSent:
      break
    case .sending(let attempt):
      console.say("Creating the account for \(form.email) (attempt \(attempt))…")
    case .succeeded(let accountID):
      step = .finished
      console.say("Welcome, \(form.name)! Your account id is \(accountID).")
      onFinish()
    case .failed(let message):
      step = .choosing
      console.error("sign-up failed: \(message)", hint: choices)
      prompt()
    case .cancelled:
      step = .choosing
      console.say("Cancelled.")
      prompt()
    }
  }

  private func prompt() {
    switch step {
    case .field(let field):
      let current = form.value(of: field)
      let shown = current.isEmpty || field.isSecret ? "" : " [\(current)]"
      console.prompt("\(field.label)\(shown): ", hidingInput: field.isSecret)
    case .choosing:
      console.prompt("signup> ")
    case .sending, .finished:
      console.showInput()  // `cancel` shows as it is typed
    }
  }
}

extension Double {
  /// One decimal place: `1.5`.
  fileprivate var formatted1: String {
    let tenths = Int((self * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
  }
}
