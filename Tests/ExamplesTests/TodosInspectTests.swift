import Foundation
import Testing

/// `todos --inspect FILE --html OUT`: a recording turned into the viewer's page, run as a
/// user would after `todos --record FILE`.
///
/// The time limit only ends a hung run, so it is 10 minutes: longer than the whole suite under
/// a sanitizer with other processes on the cores. A test's time includes its wait for one of
/// the two `ProcessSlots` that every example test shares; under ThreadSanitizer and load some
/// took 66 seconds, past the one minute they had.
@Suite(.timeLimit(.minutes(10))) struct TodosInspectTests {
  let todos = ExampleProgram(name: "todos")

  /// Records a short session in `directory` as `session.jsonl`.
  private func record(in directory: TemporaryDirectory) async throws {
    let run = try await todos.run(
      ["--record", "session.jsonl"], input: "add milk\nadd eggs\ndone 2\n", in: directory.url)
    #expect(run.status == 0)
  }

  @Test func aRecordingBecomesOnePage() async throws {
    let directory = try TemporaryDirectory()
    try await record(in: directory)
    let run = try await todos.run(
      ["--inspect", "session.jsonl", "--html", "session.html"], input: "", in: directory.url)
    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(
      run.stdout == "Wrote session.html: 3 actions from session.jsonl; open it in a browser.\n")
    let page = try String(contentsOf: directory.file("session.html"), encoding: .utf8)
    #expect(page.hasPrefix("<!doctype html>"))
    #expect(page.contains("<title>todos: session.jsonl</title>"))
    // The steps' text, causes and recorded changes are in the page's data.
    #expect(page.contains(#"["add(\"milk\")",0,["TodoList#1.undoHistory","TodoList#1.items"]"#))
    #expect(page.contains(#"["add(\"eggs\")",0,["TodoList#1.undoHistory","TodoList#1.items"]"#))
    #expect(page.contains(#""Todo#2.isDone""#))
    #expect(!page.contains("http://") && !page.contains("https://"))
  }

  @Test func aTruncatedRecordingGivesAPageOfItsValidStepsAndSaysWhere() async throws {
    let directory = try TemporaryDirectory()
    try await record(in: directory)
    let path = directory.file("session.jsonl")
    var text = try String(contentsOf: path, encoding: .utf8)
    text.removeLast(20)
    try Data(text.utf8).write(to: path)

    let run = try await todos.run(
      ["--inspect", "session.jsonl", "--html", "session.html"], input: "", in: directory.url)
    #expect(run.status == 0)
    let problem =
      "session.jsonl:4: the line is cut short (the recording was interrupted while writing it)"
    #expect(
      run.stderr == "error: \(problem)\nhint: the page shows the 2 actions before that line\n")
    #expect(run.stdout.hasPrefix("Wrote session.html: 2 actions from session.jsonl"))
    let page = try String(contentsOf: directory.file("session.html"), encoding: .utf8)
    #expect(page.contains("\"problem\":\"\(problem)\""))
  }

  @Test func aMissingRecordingAMissingArgumentOrAnUnwritablePageIsAnError() async throws {
    let directory = try TemporaryDirectory()
    let missing = try await todos.run(
      ["--inspect", "nothing.jsonl", "--html", "out.html"], input: "", in: directory.url)
    #expect(missing.status == 1)
    #expect(missing.stderr.hasPrefix("error: nothing.jsonl: cannot use the file: No such file"))
    #expect(!FileManager.default.fileExists(atPath: directory.file("out.html").path))

    let noHTML = try await todos.run(["--inspect", "session.jsonl"], input: "", in: directory.url)
    #expect(noHTML.status == 2)
    #expect(
      noHTML.stderr
        == "error: --inspect and --html go together\nhint: todos --inspect r.jsonl --html r.html\n")
    let noPath = try await todos.run(
      ["--inspect", "session.jsonl", "--html"], input: "", in: directory.url)
    #expect(noPath.status == 2)
    #expect(noPath.stderr.hasPrefix("error: --html needs a file\n"))

    try await record(in: directory)
    let unwritable = try await todos.run(
      ["--inspect", "session.jsonl", "--html", "no/such/out.html"], input: "", in: directory.url)
    #expect(unwritable.status == 1)
    #expect(
      unwritable.stderr.hasPrefix(
        "error: no/such/out.html: cannot use the file: No such file or directory\n"))
    #expect(unwritable.stderr.contains("hint: choose a file in a folder that exists: --html PATH"))
  }
}
