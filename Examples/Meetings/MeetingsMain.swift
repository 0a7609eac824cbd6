import Arboreal
import ExampleSupport
import Foundation

/// `swift run meetings [--tick-ms N]`: meetings on a navigation stack, driven from a prompt.
@main
@MainActor
enum MeetingsMain {
  static func main() async {
    // The options prologue is the same in every example's `main`, on purpose: each example
    // reads top to bottom on its own.
    let console = Console()
    let options: MeetingsOptions
    do {
      options = try MeetingsOptions.parse(Array(CommandLine.arguments.dropFirst()))
    } catch {
      console.error(error)
      exit(2)
    }
    if options.showHelp {
      console.say(MeetingsOptions.usage)
      return
    }

    let environment = MeetingsEnvironment(clock: ContinuousClock(), tick: options.tick)
    let app = MeetingsApp(
      store: Store(state: MeetingList(), environment: environment), console: console)
    app.start()
    await console.readCommands { line in await app.handle(line) }
    // A recording still shown keeps its timer running: the program ends without waiting.
    app.stop()
    exit(0)
  }
}
