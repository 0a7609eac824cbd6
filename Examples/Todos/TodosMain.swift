import Arboreal
import ArborealDevtools
import ArborealPersistence
import ExampleSupport
import Foundation

/// `swift run todos [--file PATH] [--record FILE] [--replay FILE]`: a to-do list in a JSON
/// file (kept there by a `StorePersister`), driven from a prompt.
@main
@MainActor
enum TodosMain {
  static func main() async {
    // The options prologue is the same in every example's `main`, on purpose: each example
    // reads top to bottom on its own.
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
    // The session runs in a function of its own, so that its store, recorder and persister are
    // released before the program exits: a leak checker finds nothing of theirs left.
    exit(await session(options, console: console))
  }

  /// Runs the to-do list until the input ends or the user quits; the exit status.
  private static func session(_ options: TodosOptions, console: Console) async -> Int32 {
    let store: Store<TodoList>
    var persister: StorePersister<TodoList>?
    var replayed: [RecordedStep<TodoList.Action>] = []
    var replayedStart: TodoList.Snapshot?
    let environment = TodoList.Environment()
    if let replayPath = options.replayPath {
      guard let recording = replay(replayPath, options: options, console: console) else {
        return 1
      }
      // Replay runs no effect; afterwards the list lives in memory only.
      store = Store(state: recording.replay(environment: environment), environment: environment)
      replayed = recording.steps
      replayedStart = recording.start
      console.say(
        "Replayed \(recording.steps.count) \(recording.steps.count == 1 ? "action" : "actions")"
          + " from \(replayPath); changes stay in memory (\(options.path) is not written).")
    } else {
      let file = TodoList.file(at: options.path)
      guard let loaded = load(file, console: console) else { return 1 }
      store = Store(state: TodoList(snapshot: loaded), environment: environment)
      do {
        let path = options.path
        persister = try StorePersister(store, to: file, clock: environment.clock) { problem in
          TodosApp.report(problem, path: path, console: console)
        }
      } catch {
        console.error(
          "\(error)", hint: "fix or remove the file, or use --file PATH to choose another")
        return 1
      }
    }

    // Always recorded, in memory at least, for `history` and `why`.
    let recorder: StoreRecorder<TodoList>
    do {
      recorder = try StoreRecorder(store, to: options.recordPath)
    } catch {
      console.error("\(error)", hint: "choose a file in a folder that exists: --record PATH")
      // Finished, not dropped: a persister released before `finish()` reports it in debug.
      await persister?.finish()
      return 1
    }
    let app = TodosApp(
      store: store, path: options.path, console: console,
      history: TodoHistory(
        start: replayedStart ?? recorder.start, replayed: replayed, recorder: recorder),
      persister: persister)
    if console.isInteractive {
      console.say("To-dos in \(options.path). Type 'help' for the commands.")
    }
    app.start()
    await console.readCommands { line in await app.handle(line) }
    let status = await app.finish()
    await recorder.finish()
    if let problem = recorder.writeError {
      console.error("the recording is incomplete: \(problem)")
      return 1
    }
    return status
  }

  /// The list in the file (empty when there is none), or nil (after saying why) when it
  /// cannot be read. A file that is not a to-do list is moved aside, never overwritten; one
  /// from a newer version of the program is left alone and the program stops.
  private static func load(_ file: PersistedFile<TodoList>, console: Console) -> TodoList.Snapshot?
  {
    let path = file.path
    do {
      return try file.load() ?? TodoList.snapshot(of: [])
    } catch {
      switch error.kind {
      case .file, .newerVersion:
        console.error(
          "\(error)", hint: "fix or remove the file, or use --file PATH to choose another")
        return nil
      case .notJSON, .notASnapshot, .noMigration, .migrationFailed, .snapshotDoesNotDecode,
        .snapshotDoesNotEncode:
        let reason = if case .notJSON = error.kind { "not valid JSON" } else { error.reason }
        do {
          let aside = try file.moveAside()
          console.error(
            "\(path) is not a to-do list (\(reason)); it was moved to \(aside)",
            hint: "starting with an empty list; your old file is kept at that path")
          return TodoList.snapshot(of: [])
        } catch {
          console.error(
            "\(path) is not a to-do list (\(reason)), and cannot be moved aside: \(error)",
            hint: "fix or remove the file, or use --file PATH to choose another")
          return nil
        }
      }
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
