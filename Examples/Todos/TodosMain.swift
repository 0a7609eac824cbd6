import Arboreal
import ArborealDevtools
import ExampleSupport
import Foundation

/// `swift run todos [--file PATH] [--record FILE] [--replay FILE]`: a to-do list in a JSON
/// file, driven from a prompt.
@main
@MainActor
enum TodosMain {
  static func main() async {
    let console = Console()
    let options: TodosOptions
    do {
      options = try TodosOptions.parse(
        Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
    } catch {
      console.error(error)
      exit(2)
    }
    if options.showHelp {
      console.say(TodosOptions.usage)
      return
    }
    if let inspectPath = options.inspectPath, let htmlPath = options.htmlPath {
      exit(TodoInspect.run(recordingPath: inspectPath, htmlPath: htmlPath, console: console))
    }

    let store: Store<TodoList>
    var replayed: [RecordedStep<TodoList.Action>] = []
    var replayedStart: TodoList.Snapshot?
    if let replayPath = options.replayPath {
      guard let recording = replay(replayPath, options: options, console: console) else { exit(1) }
      // Replay runs no effect; afterwards the list lives in memory only.
      let offline = TodoList.Environment(save: { _, _ in })
      store = Store(state: recording.replay(environment: offline), environment: offline)
      replayed = recording.steps
      replayedStart = recording.start
      console.say(
        "Replayed \(recording.steps.count) \(recording.steps.count == 1 ? "action" : "actions")"
          + " from \(replayPath); changes stay in memory (\(options.path) is not written).")
    } else {
      guard let loaded = load(options.path, console: console) else { exit(1) }
      let file = TodoFile(path: options.path)
      let environment = TodoList.Environment(save: { records, revision in
        try await file.save(records, revision: revision)
      })
      store = Store(state: TodoList(records: loaded), environment: environment)
    }

    // Always recorded, in memory at least, for `history` and `why`.
    let recorder: StoreRecorder<TodoList>
    do {
      recorder = try StoreRecorder(store, to: options.recordPath)
    } catch {
      console.error("\(error)", hint: "choose a file in a folder that exists: --record PATH")
      exit(1)
    }
    let app = TodosApp(
      store: store, path: options.path, console: console,
      history: TodoHistory(
        start: replayedStart ?? recorder.start, replayed: replayed, recorder: recorder))
    if console.isInteractive {
      console.say("To-dos in \(options.path). Type 'help' for the commands.")
    }
    app.start()
    await console.readCommands { line in await app.handle(line) }
    let status = await app.finish()
    await recorder.finish()
    if let problem = recorder.writeError {
      console.error("the recording is incomplete: \(problem)")
      exit(1)
    }
    exit(status)
  }

  /// The records in the list file, or nil (after saying why) when it cannot be read.
  private static func load(_ path: String, console: Console) -> [TodoRecord]? {
    do {
      switch try TodoFile(path: path).load() {
      case .missing:
        return []
      case .records(let loaded):
        return loaded
      case .corrupt(let reason, let aside):
        console.error(
          "\(path) is not a to-do list (\(reason)); it was moved to \(aside)",
          hint: "starting with an empty list; your old file is kept at that path")
        return []
      }
    } catch {
      console.error(
        "\(error)", hint: "fix or remove the file, or use --file PATH to choose another")
      return nil
    }
  }

  /// The recording at `path`, or nil (after saying why) when it cannot be replayed.
  private static func replay(
    _ path: String, options: TodosOptions, console: Console
  ) -> Recording<TodoList>? {
    do {
      let recording = try Recording<TodoList>(
        contentsOf: path, keepingValidPrefix: options.replayValidPrefix)
      if let problem = recording.problem {
        console.error(
          "\(problem)",
          hint: "replaying the \(recording.steps.count) actions before that line")
      }
      return recording
    } catch {
      console.error(
        "\(error)",
        hint: error.line > 1
          ? "add --valid-prefix to replay the actions before that line" : "is it a recording?")
      return nil
    }
  }
}
