import Foundation
import Testing

/// `todos --record FILE`, `todos --replay FILE`, and the `history` and `why N` commands, run
/// as a user would: at a terminal (a pseudo-terminal as standard input), one command at a
/// time, each typed after the output of the one before; and piped, for the bad recordings.
///
/// The time limit only ends a hung run, so it is 10 minutes: longer than the whole suite under
/// a sanitizer with other processes on the cores. A test's time includes its wait for one of
/// the two `ProcessSlots` that every example test shares; under ThreadSanitizer and load some
/// took 66 seconds, past the one minute they had.
@Suite(.serialized, .timeLimit(.minutes(10))) struct TodosRecordingTests {
  let todos = ExampleProgram(name: "todos")

  /// The session both terminal tests type, and what each command must print before the next
  /// one is typed.
  private let session: [(command: String, waitFor: String)] = [
    ("add milk", "Added 1. milk"),
    ("add eggs", "Added 2. eggs"),
    ("done 2", "Done: 2. eggs"),
    ("edit 1 oat milk", "Edited 1. oat milk"),
    ("remove 1", "Removed 1. oat milk"),
    ("undo", "Undid the last change."),
  ]

  /// What `why 2` and `why 1` print at the end of the session. A new to-do is not a changed
  /// one: the text `add` gave it, and the fields of the to-do `undo` brought back, are as
  /// they were when it was added or last changed.
  private let explanations = """
    2. [x] eggs
      text = "eggs": unchanged since the to-do was added by #2 add("eggs")
      isDone = true: set by #3 todo(id: 2, setDone(true))
    todos> 1. [ ] oat milk
      text = "oat milk": set by #4 todo(id: 1, setText("oat milk"))
      isDone = false: unchanged since the to-do was added by #1 add("milk")
    """

  @Test func aRecordedSessionReplaysInATerminalWithItsHistoryAndWhy() async throws {
    let directory = try TemporaryDirectory()
    let terminal = try PseudoTerminal()
    let recording = try await todos.start(
      ["--record", "session.jsonl"], in: directory.url, standardInput: terminal.secondary)
    #expect(await recording.stdout.wait(for: "todos> "))
    for step in session {
      try terminal.type(step.command + "\n")
      #expect(await recording.stdout.wait(for: step.waitFor), "\(step.command)")
    }
    try terminal.type("history\n")
    #expect(await recording.stdout.wait(for: "#6 undo → "))
    try terminal.type("why 2\n")
    #expect(await recording.stdout.wait(for: "isDone = true: set by #3"))
    try terminal.type("why 1\n")
    #expect(await recording.stdout.wait(for: "unchanged since the to-do was added by #1"))
    try terminal.type("quit\n")
    let recorded = await recording.finish()

    #expect(recorded.status == 0)
    #expect(recorded.stderr == "")
    #expect(recorded.stdout.contains("todos> " + explanations))
    #expect(
      recorded.stdout.contains(
        """
        #1 add("milk") → TodoList#1.undoHistory, TodoList#1.items
        #2 add("eggs") → TodoList#1.undoHistory, TodoList#1.items
        """))
    #expect(recorded.stdout.contains(#"#3 todo(id: 2, setDone(true)) → Todo#2.isDone"#))

    // The file: a header, then one line per action, each with its number, cause and changes.
    let lines = try String(contentsOf: directory.file("session.jsonl"), encoding: .utf8)
      .split(separator: "\n").map(String.init)
    #expect(lines.count == 7)
    let steps = try lines.dropFirst().map { line in
      try #require(
        JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    #expect(steps.map { $0["seq"] as? Int } == Array(1...6))
    #expect(steps.allSatisfy { $0["cause"] as? String == "sent" && $0["startedBy"] == nil })
    let header = try #require(
      JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
    #expect(header["format"] as? String == "arboreal-recording")

    // Replayed in another terminal: the same list, history and explanations, and the list
    // file is not written.
    let replayTerminal = try PseudoTerminal()
    let replay = try await todos.start(
      ["--replay", "session.jsonl", "--file", "other.json"], in: directory.url,
      standardInput: replayTerminal.secondary)
    #expect(await replay.stdout.wait(for: "todos> "))
    try replayTerminal.type("list\n")
    #expect(await replay.stdout.wait(for: " 2. [x] eggs"))
    try replayTerminal.type("history\n")
    #expect(await replay.stdout.wait(for: "#6 undo → "))
    try replayTerminal.type("why 2\n")
    #expect(await replay.stdout.wait(for: "isDone = true"))
    try replayTerminal.type("why 1\n")
    #expect(await replay.stdout.wait(for: "unchanged since"))
    try replayTerminal.type("add tea\n")
    #expect(await replay.stdout.wait(for: "Added 3. tea"))
    try replayTerminal.type("history\n")
    #expect(await replay.stdout.wait(for: #"#7 add("tea") → "#))
    try replayTerminal.type("quit\n")
    let replayed = await replay.finish()

    #expect(replayed.status == 0)
    #expect(
      replayed.stdout.hasPrefix(
        "Replayed 6 actions from session.jsonl; changes stay in memory (other.json is not written).\n"
      ))
    #expect(replayed.stdout.contains(" 1. [ ] oat milk\n 2. [x] eggs\n"))
    #expect(replayed.stdout.contains("todos> " + explanations))
    #expect(
      replayed.stdout.contains(#"#7 add("tea") → TodoList#1.undoHistory, TodoList#1.items"#))
    #expect(!FileManager.default.fileExists(atPath: directory.file("other.json").path))
    #expect(try savedTodos(at: directory.file("todos.json")).map(\.text) == ["oat milk", "eggs"])
  }

  @Test func aTruncatedRecordingIsAnErrorWithItsLineUnlessThePrefixIsAskedFor() async throws {
    let directory = try TemporaryDirectory()
    let first = try await todos.run(
      ["--record", "session.jsonl"], input: "add milk\nadd eggs\ndone 1\n", in: directory.url)
    #expect(first.status == 0)
    let path = directory.file("session.jsonl")
    var text = try String(contentsOf: path, encoding: .utf8)
    // Cut the last line in half, as a crash while writing it would.
    text.removeLast(20)
    try Data(text.utf8).write(to: path)

    let refused = try await todos.run(
      ["--replay", "session.jsonl"], input: "list\n", in: directory.url)
    #expect(refused.status == 1)
    #expect(
      refused.stderr == """
        error: session.jsonl:4: the line is cut short (the recording was interrupted while writing it)
        hint: add --valid-prefix to replay the actions before that line

        """)

    let prefix = try await todos.run(
      ["--replay", "session.jsonl", "--valid-prefix"], input: "list\nhistory\n", in: directory.url)
    #expect(prefix.status == 0)
    #expect(prefix.stderr.hasPrefix("error: session.jsonl:4: the line is cut short"))
    #expect(prefix.stderr.contains("hint: replaying the 2 actions before that line\n"))
    #expect(prefix.stdout.contains("Replayed 2 actions from session.jsonl"))
    #expect(prefix.stdout.contains(" 1. [ ] milk\n 2. [ ] eggs\n"))
    #expect(prefix.stdout.contains(#"#2 add("eggs") → TodoList#1.undoHistory, TodoList#1.items"#))
  }

  @Test func aRenamedActionIsReportedByName() async throws {
    let directory = try TemporaryDirectory()
    _ = try await todos.run(["--record", "session.jsonl"], input: "add milk\n", in: directory.url)
    let path = directory.file("session.jsonl")
    let text = try String(contentsOf: path, encoding: .utf8)
    try Data(text.replacingOccurrences(of: "{\"add\":", with: "{\"addItem\":").utf8).write(to: path)

    let run = try await todos.run(
      ["--replay", "session.jsonl"], input: "list\n", in: directory.url)
    #expect(run.status == 1)
    #expect(run.stderr.hasPrefix("error: session.jsonl:2: the action 'addItem' no longer decodes"))
  }

  @Test func notARecordingAndAMissingFileAreErrors() async throws {
    let directory = try TemporaryDirectory()
    try Data("{\"todos\": []}\n".utf8).write(to: directory.file("todos.json"))
    let wrong = try await todos.run(["--replay", "todos.json"], input: "", in: directory.url)
    #expect(wrong.status == 1)
    #expect(
      wrong.stderr == """
        error: todos.json:1: not an Arboreal recording (the first line is not its header)
        hint: is it a recording?

        """)
    let missing = try await todos.run(["--replay", "nothing.jsonl"], input: "", in: directory.url)
    #expect(missing.status == 1)
    #expect(missing.stderr.hasPrefix("error: nothing.jsonl: cannot use the file: No such file"))
    let unwritable = try await todos.run(
      ["--record", "no/such/folder.jsonl"], input: "", in: directory.url)
    #expect(unwritable.status == 1)
    #expect(
      unwritable.stderr.hasPrefix(
        "error: no/such/folder.jsonl: cannot use the file: No such file or directory"))
  }

  @Test func badOptionsAndBadWhyNumbersGetAnErrorAndAHint() async throws {
    let directory = try TemporaryDirectory()
    let noFile = try await todos.run(["--record"], input: "", in: directory.url)
    #expect(noFile.status == 2)
    #expect(noFile.stderr == "error: --record needs a file\nhint: todos --record session.jsonl\n")
    let alone = try await todos.run(["--valid-prefix"], input: "", in: directory.url)
    #expect(alone.status == 2)
    #expect(alone.stderr.hasPrefix("error: --valid-prefix goes with --replay\n"))

    let run = try await todos.run(
      input: "history\nwhy\nwhy 3\nadd milk\nwhy one\nwhy 1\n", in: directory.url)
    #expect(run.status == 0)
    #expect(run.stdout.contains("(no actions yet)"))
    #expect(
      run.stderr == """
        error: why needs a to-do number
        hint: for example 'why 1'; 'list' shows the numbers
        error: there is no to-do 3: the list is empty
        hint: add one with 'add <text>'
        error: 'one' is not a number
        hint: for example 'why 1'; 'list' shows the numbers

        """)
    #expect(
      run.stdout.contains(
        "1. [ ] milk\n  text = \"milk\": unchanged since the to-do was added by #1 "
          + "add(\"milk\")\n"))
  }
}
