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

    // The session runs in a function of its own, so that its store is released before the
    // program exits: a leak checker finds nothing of it left.
    await session(options, console: console)
    exit(0)
  }

  /// Runs the meetings until the input ends or the user quits.
  private static func session(_ options: MeetingsOptions, console: Console) async {
    let environment = MeetingsEnvironment(clock: ContinuousClock(), tick: options.tick)
    let app = MeetingsApp(
      store: Store(state: MeetingList(), environment: environment), console: console)
    app.start()
    await console.readCommands { line in await app.handle(line) }
    // A recording still shown keeps its timer running: the program ends without waiting, and
    // the store's release cancels the timer.
    app.stop()
  }
}
