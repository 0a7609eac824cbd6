import Arboreal
import ExampleSupport
import Foundation

/// `swift run todos [--file PATH]`: a to-do list in a JSON file, driven from a prompt.
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

    let file = TodoFile(path: options.path)
    var records: [TodoRecord] = []
    do {
      switch try file.load() {
      case .missing:
        break
      case .records(let loaded):
        records = loaded
      case .corrupt(let reason, let aside):
        console.error(
          "\(options.path) is not a to-do list (\(reason)); it was moved to \(aside)",
          hint: "starting with an empty list; your old file is kept at that path")
      }
    } catch {
      console.error(
        "\(error)", hint: "fix or remove the file, or use --file PATH to choose another")
      exit(1)
    }

    let environment = TodoList.Environment(save: { records, revision in
      try await file.save(records, revision: revision)
    })
    let store = Store(state: TodoList(records: records), environment: environment)
    let app = TodosApp(store: store, path: options.path, console: console)
    if console.isInteractive {
      console.say("To-dos in \(options.path). Type 'help' for the commands.")
    }
    app.start()
    var quit = false
    for await line in StandardInput.lines() {
      guard await app.handle(line) else {
        quit = true
        break
      }
    }
    // At a terminal, end of input (control-D) leaves the cursor after the prompt.
    if quit || console.isInteractive { console.say(quit ? "Bye." : "") }
    exit(await app.finish())
  }
}
