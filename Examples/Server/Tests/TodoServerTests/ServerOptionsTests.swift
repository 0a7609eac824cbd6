import Testing

@testable import TodoServer

/// The command line of `todo-server`.
@Suite struct ServerOptionsTests {
  @Test func theDefaultsListOn8080WithAnActorPerSession() throws {
    let options = try ServerOptions.parse([])
    #expect(options.configuration == ServerConfiguration())
    #expect(options.configuration.host == "127.0.0.1")
    #expect(options.configuration.port == 8080)
    #expect(options.configuration.sessionIsolation == .ownActor)
    #expect(!options.showHelp)
  }

  @Test func optionsSetTheirPartOfTheConfiguration() throws {
    let options = try ServerOptions.parse([
      "--port", "9000", "--main-actor", "--idle-timeout", "60", "--no-recording",
    ])
    #expect(options.configuration.port == 9000)
    #expect(options.configuration.sessionIsolation == .mainActor)
    #expect(options.configuration.idleTimeout == .seconds(60))
    #expect(options.configuration.sweepInterval == .seconds(15))
    #expect(!options.configuration.recordsSessions)
    #expect(try ServerOptions.parse(["--help"]).showHelp)
  }

  @Test func badCommandLinesAreRefused() {
    for arguments in [
      ["--port"], ["--port", "http"], ["--port", "70000"], ["--port", "-1"],
      ["--idle-timeout", "0"], ["--verbose"],
    ] {
      #expect(throws: ServerOptionsError.self, "\(arguments)") {
        try ServerOptions.parse(arguments)
      }
    }
  }
}
