import Foundation
import Testing

/// End-to-end tests of `meetings` with commands piped on standard input: the list, a meeting's
/// screen, its edit sheet and its delete question, and every bad-input case.
///
/// Piped, the program shows no prompt, and each line is handled (with the actions it leads
/// to) before the next is read, so the output is the same on every run. The recording's timer
/// is set to ten minutes a tick here, so no tick can show; `MeetingsTerminalTests` watches it
/// tick.
@Suite struct MeetingsTests {
  let meetings = ExampleProgram(name: "meetings")

  @Test func aSessionAddsOpensEditsAndSaves() async throws {
    let directory = try TemporaryDirectory()
    let run = try await meetings.run(
      ["--tick-ms", "600000"],
      input: """
        add Standup
        add Retro
        open 2
        edit
        title Sprint retro
        attendees Ada, Grace ,
        minutes 45
        save
        back
        quit
        list
        """, in: directory.url)

    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(
      run.stdout == """
        (no meetings yet: add one with 'add TITLE')
         1. Standup · no attendees · 5 min
         1. Standup · no attendees · 5 min
         2. Retro · no attendees · 5 min
        Retro
          attendees: none
          duration: 5 min
        Editing: Retro · no attendees · 5 min
        Editing: Sprint retro · no attendees · 5 min
        Editing: Sprint retro · Ada, Grace · 5 min
        Editing: Sprint retro · Ada, Grace · 45 min
        Saved.
        Sprint retro
          attendees: Ada, Grace
          duration: 45 min
         1. Standup · no attendees · 5 min
         2. Sprint retro · Ada, Grace · 45 min
        Bye.

        """)
  }

  /// `--record FILE`: one line for the start and one per action, the stack's screens named
  /// by identifier. (`MeetingsRecordingTests` replays such a session.)
  @Test func aSessionIsRecordedWithRecord() async throws {
    let directory = try TemporaryDirectory()
    let run = try await meetings.run(
      ["--tick-ms", "600000", "--record", "session.jsonl"],
      input: "add Standup\nopen 1\nedit\ntitle Daily\nsave\nback\nquit\n", in: directory.url)
    #expect(run.status == 0)
    #expect(run.stderr == "")
    let lines = try String(contentsOf: directory.file("session.jsonl"), encoding: .utf8)
      .split(separator: "\n")
    // The header, add, open, edit, title, save, the editor's delegate save, the detail's
    // delegate change, back.
    #expect(lines.count == 9, "\(lines.joined(separator: "\n"))")
    #expect(
      lines.first?.hasPrefix(#"{"format":"arboreal-recording","version":1,"model":"MeetingList""#)
        == true)
    #expect(lines.last?.contains(#""action":{"path":{"_0":{"popFrom":{"id":0}}}}"#) == true)
  }

  @Test func cancellingTheEditSheetKeepsTheMeetingAsItWas() async throws {
    let directory = try TemporaryDirectory()
    let run = try await meetings.run(
      input: "add Standup\nopen 1\nedit\ntitle Daily\nminutes 15\ncancel\nback\n",
      in: directory.url)

    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(
      run.stdout.hasSuffix(
        """
        Editing: Daily · no attendees · 15 min
        Not saved.
        Standup
          attendees: none
          duration: 5 min
         1. Standup · no attendees · 5 min

        """))
  }

  @Test func deletingAsksFirst() async throws {
    let directory = try TemporaryDirectory()
    let run = try await meetings.run(
      input: "add Standup\nadd Retro\nopen 1\ndelete\nno\ndelete\nyes\nlist\n",
      in: directory.url)

    #expect(run.status == 0)
    #expect(run.stderr == "")
    let question = "Delete “Standup”? It cannot be undone.\n  yes: Delete · no: Cancel\n"
    #expect(
      run.stdout.hasSuffix(
        """
        \(question)Kept Standup.
        Standup
          attendees: none
          duration: 5 min
        \(question)Deleted Standup.
         1. Retro · no attendees · 5 min
         1. Retro · no attendees · 5 min

        """))
  }

  @Test func leavingARecordingPopsItsScreen() async throws {
    let directory = try TemporaryDirectory()
    let run = try await meetings.run(
      ["--tick-ms", "600000"], input: "add Standup\nopen 1\nrecord\nback\nback\n",
      in: directory.url)

    #expect(run.status == 0)
    #expect(run.stderr == "")
    #expect(
      run.stdout.hasSuffix(
        """
        Recording Standup (5 min). Type 'back' to stop.
        Left the recording after 0s.
        Standup
          attendees: none
          duration: 5 min
         1. Standup · no attendees · 5 min

        """))
  }

  @Test func badInputGetsOneErrorAndAHintEach() async throws {
    let directory = try TemporaryDirectory()
    let run = try await meetings.run(
      input: """
        open 1
        add
        add Standup
        open 0
        open two
        record
        open 1
        open 1
        edit now
        edit
        minutes 0
        minutes x
        bogus
        back
        cancel
        delete
        maybe
        back
        """, in: directory.url)

    #expect(run.status == 0)
    let errors: [(String, String)] = [
      ("there is no meeting 1: the list is empty", "add one with 'add TITLE'"),
      ("a meeting needs a title", "for example 'add Weekly planning'"),
      ("there is no meeting 0: the numbers go from 1 to 1", "type 'list' to see the numbers"),
      ("'two' is not a number", "for example 'open 1'; 'list' shows the numbers"),
      ("'record' does nothing in the list", "here: list, add, open, help, quit"),
      ("'open' does nothing in a meeting", "here: edit, record, delete, back, help, quit"),
      ("'edit' takes nothing after it", "type just 'edit'"),
      ("a meeting lasts from 1 to 600 minutes", "for example 'minutes 30'"),
      ("'x' is not a number", "for example 'minutes 30'"),
      ("unknown command 'bogus'", "type 'help' to see the commands"),
      (
        "'back' does nothing in the edit sheet",
        "here: title, attendees, minutes, save, cancel, help, quit"
      ),
      ("unknown command 'maybe'", "type 'help' to see the commands"),
      ("'back' does nothing in the delete question", "here: yes, no, help, quit"),
    ]
    #expect(run.stderr == errors.map { "error: \($0)\nhint: \($1)\n" }.joined())
    #expect(
      run.stdout.hasSuffix("Delete “Standup”? It cannot be undone.\n  yes: Delete · no: Cancel\n"))
  }

  @Test func helpListsTheCommandsThatApplyWhereYouAre() async throws {
    let directory = try TemporaryDirectory()
    let run = try await meetings.run(input: "add Standup\nopen 1\nhelp\n", in: directory.url)

    #expect(run.status == 0)
    #expect(
      run.stdout.hasSuffix(
        """
          edit            edit this meeting
          record          record it, with a timer
          delete          delete it (asks first)
          back            back to the list
          help            show the commands that apply here
          quit            leave

        """))
  }

  @Test(arguments: [
    (["--tick-ms", "0"], "--tick-ms needs a number of milliseconds, more than 0"),
    (["--tick-ms"], "--tick-ms needs a number of milliseconds, more than 0"),
    (["--frobnicate"], "unknown option '--frobnicate'"),
  ])
  func badOptionsStopTheProgram(arguments: [String], message: String) async throws {
    let directory = try TemporaryDirectory()
    let run = try await meetings.run(arguments, input: "", in: directory.url)
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(run.stderr.hasPrefix("error: \(message)\nhint: "))
  }
}
