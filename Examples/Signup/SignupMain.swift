import Arboreal
import ArborealDevtools
import ExampleSupport
import Foundation

/// `swift run signup [--fail N] [--latency MS] [--record FILE]`: a sign-up form against a simulated service.
@main
@MainActor
enum SignupMain {
  static func main() async {
    // The options prologue is the same in every example's `main`, on purpose: each example
    // reads top to bottom on its own.
    let console = Console()
    let options: SignupOptions
    do {
      options = try SignupOptions.parse(
        Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
    } catch {
      console.error(error.message, hint: "signup --help")
      exit(2)
    }
    if options.showHelp {
      console.say(SignupOptions.usage)
      return
    }

    // Lines from standard input, or nil at its end; the app ends the stream once signed up.
    let (events, continuation) = AsyncStream.makeStream(of: String?.self)
    Task {
      for await line in StandardInput.lines() { continuation.yield(line) }
      continuation.yield(nil)
    }
    let service = SignupService.simulated(latency: options.latency, failures: options.failures)
    let store = Store(state: SignupForm(), environment: service)
    var recorder: StoreRecorder<SignupForm>?
    if let path = options.recordPath {
      do {
        recorder = try StoreRecorder(store, to: path, keepingSteps: false)
      } catch {
        console.error("\(error)", hint: "choose a file in a folder that exists: --record PATH")
        exit(1)
      }
    }
    let app = SignupApp(store: store, console: console, onFinish: { continuation.finish() })
    app.start()
    for await line in events {
      guard let line else { break }
      // While sending, only `cancel` is handled at once; anything else waits for the outcome.
      if app.step == .sending, line.trimmingWhitespace.lowercased() != "cancel" {
        await app.waitWhileSending()
      }
      if app.step == .finished || !app.handle(line) { break }
    }
    await app.waitWhileSending()
    if let recorder {
      await recorder.finish()
      if let problem = recorder.writeError {
        console.error("the recording is incomplete: \(problem)")
      }
    }
    exit(app.exitCode)
  }
}
