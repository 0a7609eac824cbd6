import Foundation
import TodoServer

/// `todo-server`: reads the options and runs the server until it is stopped (Ctrl-C).
@main
enum TodoServerCommand {
  static func main() async {
    let options: ServerOptions
    do {
      options = try ServerOptions.parse(Array(CommandLine.arguments.dropFirst()))
    } catch {
      FileHandle.standardError.write(Data("todo-server: \(error)\n\(ServerOptions.usage)\n".utf8))
      exit(2)
    }
    if options.showHelp {
      print(ServerOptions.usage)
      return
    }
    do {
      try await TodoServerApp(configuration: options.configuration).run()
    } catch {
      FileHandle.standardError.write(Data("todo-server: \(error)\n".utf8))
      exit(1)
    }
  }
}
