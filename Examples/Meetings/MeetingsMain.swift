import Arboreal
import ArborealDevtools
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
    exit(await session(options, console: console))
  }

  /// Runs the meetings until the input ends or the user quits; the exit status.
  private static func session(_ options: MeetingsOptions, console: Console) async -> Int32 {
    let environment = MeetingsEnvironment(clock: ContinuousClock(), tick: options.tick)
    let store = Store(state: MeetingList(), environment: environment)
    var recorder: StoreRecorder<MeetingList>?
    if let path = options.recordPath {
      do {
        recorder = try StoreRecorder(store, to: path, keepingSteps: false)
      } catch {
        console.error("\(error)", hint: "choose a file in a folder that exists: --record PATH")
        return 1
      }
    }
    let app = MeetingsApp(store: store, console: console)
    app.start()
    await console.readCommands { line in await app.handle(line) }
    // A recording still shown keeps its timer running: the program ends without waiting, and
    // the store's release cancels the timer.
    app.stop()
    guard let recorder else { return 0 }
    await recorder.finish()
    guard let problem = recorder.writeError else { return 0 }
    console.error("the recording is incomplete: \(problem)")
    return 1
  }
}
