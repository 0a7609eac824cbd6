import Foundation
import Testing

/// End-to-end tests of `todos`: the built executable, commands piped on standard input, a
/// temporary directory as the current directory.
@Suite struct TodosTests {
  let todos = ExampleProgram(name: "todos")

  @Test func aSessionAddsMarksFiltersUndoesRemovesAndQuits() async throws {
    let directory = try TemporaryDirectory()
    let run = try await todos.run(
      input: """
        add milk
        add eggs
        add bread
        done 2
        filter active
        filter done
        filter all
        remove 3
        undo
        undone 2
        undo
        list
        quit
        add after quit is ignored
        """, in: directory.url)

    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(run.stdout.contains("Added 3. bread"))
    #expect(run.stdout.contains("Done: 2. eggs"))
    #expect(
      run.stdout.contains(
        "[3 to-dos: 2 active, 1 done · showing active]\n 1. [ ] milk\n 3. [ ] bread\n"))
    #expect(run.stdout.contains("showing done]\n 2. [x] eggs\n"))
    #expect(run.stdout.contains("Removed 3. bread\n[2 to-dos: 1 active, 1 done · showing all]"))
    #expect(run.stdout.contains(" 1. [ ] milk\n 2. [x] eggs\n 3. [ ] bread\nBye.\n"))
    #expect(!run.stdout.contains("after quit"))
    #expect(!run.stdout.contains("todos>"), "no prompts when input is piped")
    #expect(
      try savedTodos(at: directory.file("todos.json")) == [
        SavedTodo(text: "milk", done: false), SavedTodo(text: "eggs", done: true),
        SavedTodo(text: "bread", done: false),
      ])
    #expect(try directory.contents() == ["todos.json"], "no temporary file left behind")
  }

  @Test func aSessionThatChangesNothingEndsWithoutWarnings() async throws {
    // The observers of the status line and of save problems see no change here; ending the
    // session cancels them, so the debug build's released-token warning stays quiet.
    let directory = try TemporaryDirectory()
    let run = try await todos.run(input: "list\n", in: directory.url)
    #expect(run.status == 0)
    #expect(run.stderr == "")
  }

  @Test func theListPersistsAcrossRuns() async throws {
    let directory = try TemporaryDirectory()
    let first = try await todos.run(input: "add milk\nadd eggs\ndone 1\n", in: directory.url)
    #expect(first.status == 0)
    let second = try await todos.run(input: "list\nremove 2\n", in: directory.url)
    #expect(second.status == 0, "end of input ends the program cleanly")
    #expect(second.lines.first == "[2 to-dos: 1 active, 1 done · showing all]")
    #expect(second.stdout.contains(" 1. [x] milk\n 2. [ ] eggs\n"))
    let third = try await todos.run(input: "list\n", in: directory.url)
    #expect(third.stdout.contains(" 1. [x] milk\n"))
    #expect(!third.stdout.contains("eggs"))
  }

  @Test func editReadsTheNewTextFromTheNextLine() async throws {
    let directory = try TemporaryDirectory()
    let run = try await todos.run(
      input: "add milk\nadd tea\nedit 1\noat milk\nedit 2 green tea\nedit 2\n\nlist\n",
      in: directory.url)
    #expect(run.status == 0)
    #expect(run.stdout.contains("Edited 1. oat milk"))
    #expect(run.stdout.contains(" 1. [ ] oat milk\n 2. [ ] green tea\n"))
    #expect(
      run.stderr == "error: a to-do needs some text\nhint: for example 'edit 2 buy oat milk'\n")
    #expect(
      try savedTodos(at: directory.file("todos.json")).map(\.text) == ["oat milk", "green tea"])
  }

  @Test func theStatusLineIsRedrawnOnlyWhenItChanges() async throws {
    let directory = try TemporaryDirectory()
    let run = try await todos.run(
      input: "add a\nedit 1 b\nlist\nfilter all\ndone 1\ndone 1\nhelp\n", in: directory.url)
    let statusLines = run.lines.filter { $0.hasPrefix("[") }
    #expect(
      statusLines == [
        "[0 to-dos: 0 active, 0 done · showing all]",
        "[1 to-do: 1 active, 0 done · showing all]",
        "[1 to-do: 0 active, 1 done · showing all]",
      ])
  }

  @Test func anUnknownCommandGetsAnErrorAndAHint() async throws {
    let directory = try TemporaryDirectory()
    let run = try await todos.run(
      input: "frobnicate now\nadd milk\nfilter sideways\n", in: directory.url)
    #expect(run.status == 0)
    #expect(
      run.stderr == """
        error: unknown command 'frobnicate'
        hint: type 'help' to see the commands
        error: unknown filter 'sideways'
        hint: filter all, filter active or filter done

        """)
    #expect(
      try savedTodos(at: directory.file("todos.json")) == [SavedTodo(text: "milk", done: false)])
  }

  @Test func emptyTextIsRefused() async throws {
    let directory = try TemporaryDirectory()
    let run = try await todos.run(
      input: "add milk\nadd\nadd    \nedit 1\n   \nlist\n", in: directory.url)
    #expect(run.status == 0)
    let errors = run.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }
    #expect(errors == Array(repeating: "error: a to-do needs some text", count: 3))
    #expect(run.stdout.contains(" 1. [ ] milk\n"))
    #expect(
      try savedTodos(at: directory.file("todos.json")) == [SavedTodo(text: "milk", done: false)])
  }

  @Test func anIndexOutOfRangeIsRefused() async throws {
    let directory = try TemporaryDirectory()
    let run = try await todos.run(
      input: "done 1\nadd milk\ndone 2\nundone 0\nremove 7\nedit 3\ndone one\nlist\n",
      in: directory.url)
    #expect(run.status == 0)
    #expect(
      run.stderr == """
        error: there is no to-do 1: the list is empty
        hint: add one with 'add <text>'
        error: there is no to-do 2: the numbers go from 1 to 1
        hint: type 'list' to see the numbers
        error: there is no to-do 0: the numbers go from 1 to 1
        hint: type 'list' to see the numbers
        error: there is no to-do 7: the numbers go from 1 to 1
        hint: type 'list' to see the numbers
        error: there is no to-do 3: the numbers go from 1 to 1
        hint: type 'list' to see the numbers
        error: 'one' is not a number
        hint: for example 'done 1'; 'list' shows the numbers

        """)
    #expect(run.stdout.contains(" 1. [ ] milk\n"))
    #expect(
      try savedTodos(at: directory.file("todos.json")) == [SavedTodo(text: "milk", done: false)])
  }

  @Test func aCorruptFileIsMovedAsideNotOverwritten() async throws {
    let directory = try TemporaryDirectory()
    let corrupt = Data("{\"todos\": [ half a list".utf8)
    try corrupt.write(to: directory.file("todos.json"))
    let run = try await todos.run(input: "list\nadd fresh start\n", in: directory.url)

    #expect(run.status == 0)
    let aside = try #require(try directory.contents().first { $0.hasPrefix("todos.json.corrupt-") })
    #expect(
      run.stderr == """
        error: todos.json is not a to-do list (not valid JSON); it was moved to \(aside)
        hint: starting with an empty list; your old file is kept at that path

        """)
    #expect(
      try Data(contentsOf: directory.file(aside)) == corrupt, "the old file is kept as it was")
    #expect(run.stdout.contains("(no to-dos yet)"))
    #expect(
      try savedTodos(at: directory.file("todos.json")) == [
        SavedTodo(text: "fresh start", done: false)
      ])

    // A second corrupt file does not replace the first copy.
    try corrupt.write(to: directory.file("todos.json"))
    _ = try await todos.run(input: "", in: directory.url)
    #expect(try directory.contents().filter { $0.hasPrefix("todos.json.corrupt-") }.count == 2)
  }

  @Test func aListFileFromBeforeTheEnvelopeIsMigratedAndWrittenBackInTheNewFormat() async throws {
    let directory = try TemporaryDirectory()
    let old =
      #"{"todos": [{"id": 4, "text": "milk", "done": true}, {"id": 9, "text": "eggs", "done": false}]}"#
    try Data(old.utf8).write(to: directory.file("todos.json"))
    let run = try await todos.run(input: "list\nadd tea\n", in: directory.url)

    #expect(run.status == 0 && run.stderr == "")
    #expect(run.stdout.contains(" 1. [x] milk\n 2. [ ] eggs\n"))
    #expect(
      try savedTodos(at: directory.file("todos.json")) == [
        SavedTodo(text: "milk", done: true), SavedTodo(text: "eggs", done: false),
        SavedTodo(text: "tea", done: false),
      ])
    let saved = try String(contentsOf: directory.file("todos.json"), encoding: .utf8)
    #expect(saved.hasPrefix(#"{"format":"arboreal-snapshot","version":1,"snapshot":{"#))
  }

  @Test func aListFileFromANewerVersionStopsTheProgramAndIsLeftAlone() async throws {
    let directory = try TemporaryDirectory()
    let newer = Data(#"{"format":"arboreal-snapshot","version":2,"snapshot":{"lists":[]}}"#.utf8)
    try newer.write(to: directory.file("todos.json"))
    let run = try await todos.run(input: "add milk\n", in: directory.url)

    #expect(run.status == 1)
    #expect(
      run.stderr == """
        error: todos.json: written by a newer version of the program (format version 2; this one reads up to 1)
        hint: fix or remove the file, or use --file PATH to choose another

        """)
    #expect(try Data(contentsOf: directory.file("todos.json")) == newer)
    #expect(try directory.contents() == ["todos.json"])
  }

  @Test func aFailedSaveIsReportedAndTheListKept() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.file("missing-folder/todos.json").path
    let run = try await todos.run(
      ["--file", path], input: "add milk\nadd eggs\ndone 1\nlist\n", in: directory.url)

    #expect(run.stdout.contains(" 1. [x] milk\n 2. [ ] eggs\n"), "the list is kept in memory")
    #expect(
      run.stderr == """
        error: could not save to \(path): No such file or directory
        hint: your list is kept in memory; fix that, or quit and use --file PATH
        error: your last changes were not saved to \(path): No such file or directory

        """)
    #expect(run.status == 1, "unsaved changes at exit are a failure")
  }

  @Test func theFileComesFromTheFlagOrTheEnvironment() async throws {
    let directory = try TemporaryDirectory()
    let fromVariable = try await todos.run(
      input: "add from variable\n", in: directory.url,
      environment: ["ARBOREAL_TODOS_FILE": directory.file("env.json").path])
    let fromFlag = try await todos.run(
      ["--file=flag.json"], input: "add from flag\n", in: directory.url,
      environment: ["ARBOREAL_TODOS_FILE": directory.file("env.json").path])
    #expect(fromVariable.status == 0 && fromFlag.status == 0)
    #expect(try directory.contents() == ["env.json", "flag.json"])
    #expect(try savedTodos(at: directory.file("flag.json")).map(\.text) == ["from flag"])
    #expect(try savedTodos(at: directory.file("env.json")).map(\.text) == ["from variable"])
  }

  @Test func undoWithNothingToUndoSaysSo() async throws {
    let directory = try TemporaryDirectory()
    let run = try await todos.run(input: "undo\n", in: directory.url)
    #expect(run.stdout.contains("Nothing to undo."))
    #expect(run.status == 0)
    #expect(try directory.contents() == [], "nothing changed, nothing written")
  }
}
