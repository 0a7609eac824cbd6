import ArborealDevtools
import ExampleSupport

/// `todos --inspect FILE --html OUT`: turns a recording into the recording viewer's page,
/// one HTML file to open in a browser, and exits.
///
/// A recording that ends early (cut short by a crash, a damaged line) still gives a page: its
/// valid steps, with the problem and its line in a banner on the page and on standard error.
@MainActor
enum TodoInspect {
  /// Writes the page for the recording at `recordingPath` to `htmlPath`; the exit status.
  static func run(recordingPath: String, htmlPath: String, console: Console) -> Int32 {
    let recording: Recording<TodoList>
    do {
      recording = try Recording<TodoList>(contentsOf: recordingPath, keepingValidPrefix: true)
    } catch {
      console.error("\(error)", hint: "todos --record FILE writes a recording")
      return 1
    }
    if let problem = recording.problem {
      console.error(
        "\(problem)", hint: "the page shows the \(recording.steps.count) actions before that line")
    }
    // Replay runs no effect: the environment is never used.
    let viewer = RecordingViewer(
      recording, environment: TodoList.Environment(), title: "todos: \(recordingPath)")
    do {
      try viewer.write(to: htmlPath)
    } catch {
      console.error("\(error)", hint: "choose a file in a folder that exists: --html PATH")
      return 1
    }
    let count = recording.steps.count
    console.say(
      "Wrote \(htmlPath): \(count) \(count == 1 ? "action" : "actions") from \(recordingPath);"
        + " open it in a browser.")
    return 0
  }
}
