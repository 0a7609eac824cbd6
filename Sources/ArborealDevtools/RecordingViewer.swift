import Arboreal
import ArborealPersistence
import Foundation

/// A recording as one self-contained HTML page: the actions, what each changed, the state at
/// any step, and why a property has its value, in any browser.
///
/// ```swift
/// let recording = try Recording<TodoList>(contentsOf: "session.jsonl", keepingValidPrefix: true)
/// let viewer = RecordingViewer(recording, environment: .offline)
/// try viewer.write(to: "session.html")  // open it in a browser
/// ```
///
/// The page lists the actions with their number, their cause (sent, or the effect of an
/// earlier step) and what they changed: the properties the recording names (`Todo#3.isDone`)
/// and the values that differ in the model's snapshot before and after, old → new. Beside
/// the list it shows the snapshot after the selected step as a tree. Move through the steps
/// by clicking a row, with the arrow keys or with the slider; filter the list by action
/// name; click a recorded property to see the step that last changed it and the chain of
/// effects back to the action the program sent (as ``ChangeExplanation`` tells it), or a
/// value in the tree to see the last step that changed it. `#step=N` at the end of the
/// page's address opens it at step *N* (`&filter=add` filters the list too).
///
/// The page needs no network and no other file. It holds the snapshot at the start and, for
/// each step, the differences from the one before, so its size grows with the number of
/// steps and the size of what they changed, not with the size of the state; the page
/// rebuilds the state at a step from the nearest of its checkpoints (one every 1,000
/// steps), and draws only the rows in view, so a recording of 100,000 steps opens in well
/// under two seconds (about half a second in headless Chromium).
///
/// The snapshots come from replaying the recording (as ``Recording/replay(upTo:environment:)``
/// does: no effect runs). A value whose `encode(to:)` throws is shown as its type's name in
/// braces, a floating-point value that is not a number as `nan` or `inf`. A recording read
/// with `keepingValidPrefix: true` that ends early shows its valid steps, with its
/// ``Recording/problem`` (the line at fault and what is wrong with it) in a banner.
public struct RecordingViewer: Sendable {
  /// The page: an HTML document in UTF-8.
  public let html: String

  /// Replays a recording and makes its page.
  ///
  /// - Parameters:
  ///   - recording: The recording to show.
  ///   - environment: The environment `update` receives while replaying; effects are never
  ///     started, so a placeholder that does nothing serves.
  ///   - title: The page's title; by default `Recording of` and the model's type name.
  /// - Complexity: O(*n* × *s*) for *n* steps and snapshots of *s* values: each step's
  ///   snapshot is encoded and compared with the one before.
  public init<Model: ReplayableModel>(
    _ recording: Recording<Model>, environment: Model.Environment, title: String? = nil
  ) where Model.Action: Codable {
    let title = title ?? "Recording of \(Model.self)"
    let data = ViewerData(recording, environment: environment, title: title)
    html = ViewerPage.html(title: title, data: data.json)
  }

  /// Replays a recording and makes its page, letting other work of the caller's actor run
  /// every `interval` steps: for a long recording, in a program whose main actor also drives
  /// a user interface, or a server actor that also serves its session.
  ///
  /// ```swift
  /// let viewer = await RecordingViewer(recording, environment: .offline, yieldingEvery: 1_000)
  /// ```
  ///
  /// - Parameters:
  ///   - recording: The recording to show.
  ///   - environment: The environment `update` receives while replaying; effects are never
  ///     started.
  ///   - title: The page's title; by default `Recording of` and the model's type name.
  ///   - interval: How many steps to replay between two suspensions (at least 1).
  /// - Complexity: O(*n* × *s*) for *n* steps and snapshots of *s* values.
  nonisolated(nonsending) public init<Model: ReplayableModel>(
    _ recording: Recording<Model>, environment: Model.Environment, title: String? = nil,
    yieldingEvery interval: Int
  ) async where Model.Action: Codable {
    let title = title ?? "Recording of \(Model.self)"
    var data = ViewerData(start: recording, environment: environment, title: title)
    while data.written < recording.steps.count {
      data.writeSteps(max(1, interval))
      await Task.yield()
    }
    data.finish()
    html = ViewerPage.html(title: title, data: data.json)
  }

  /// Writes the page to a file, replacing it if it exists.
  ///
  /// - Parameter path: Where to write the page (`session.html`).
  /// - Throws: ``RecordingError`` with kind ``RecordingError/Kind/file(_:)``, naming the file
  ///   and the system's reason, when the file cannot be written.
  /// - Complexity: O(*n*) for a page of *n* bytes.
  public func write(to path: String) throws(RecordingError) {
    // Written beside the file, then renamed over it: a reader never sees half a page.
    if let problem = replaceFile(at: path, with: Data(html.utf8), syncing: false) {
      throw RecordingError(.file(problem), line: 0, path: path)
    }
  }
}
