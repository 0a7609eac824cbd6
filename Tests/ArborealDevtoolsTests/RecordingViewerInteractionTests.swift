import Arboreal
import ArborealTestSupport
import Foundation
import Testing

@testable import ArborealDevtools

/// The viewer driven as a user drives it: the arrow keys, a click on a row, the slider, the
/// buttons and the filter. The page gets a script of its own at the end, which sends the
/// events its handlers listen to (real `KeyboardEvent`s, clicks and `input` events) once the
/// viewer's script has run, and writes the step shown after each into the document; headless
/// Chromium runs it and the test reads the steps and the state the page ended on.
@Suite(.serialized, .needsBrowser)
actor RecordingViewerInteractionTests {
  /// The events, in order, each followed by the step the page shows.
  private static let script = """
    <script>
    (function () {
      const shown = [];
      const note = () => shown.push(Number(document.body.dataset.step));
      const key = (name) => {
        document.body.dispatchEvent(new KeyboardEvent("keydown", { key: name, bubbles: true }));
        note();
      };
      key("ArrowDown"); key("ArrowDown"); key("ArrowUp"); key("ArrowRight"); key("ArrowLeft");
      document.querySelector('#rows .row[data-seq="3"]').click(); note();
      const slider = document.getElementById("slider");
      slider.value = "10";
      slider.dispatchEvent(new Event("input", { bubbles: true })); note();
      document.getElementById("next").click(); note();
      document.getElementById("previous").click(); note();
      const filter = document.getElementById("filter");
      filter.value = "card";
      filter.dispatchEvent(new Event("input", { bubbles: true })); note();
      key("ArrowDown"); key("ArrowDown");
      document.body.dataset.shown = JSON.stringify(shown);
    })();
    </script>
    """

  @Test func keysARowTheSliderTheButtonsAndTheFilterMoveThroughTheSteps() async throws {
    var random = SeededRandom(seed: 5)
    let store = Store(state: Board(), environment: ())
    let recorder = try StoreRecorder(store, to: nil)
    for _ in 0..<60 {
      store.send(random.boardAction(ids: store.state.cards.map(\.id)))
      await store.finish()
    }
    await recorder.finish()
    let recording = recorder.recording
    let html = RecordingViewer(recording, environment: ()).html
    let file = try TemporaryFile("viewer.html")
    let end = try #require(html.range(of: "</body>", options: .backwards))
    try file.write(html.replacingCharacters(in: end, with: Self.script + "</body>"))

    let document = ViewerDocument(html: try await Browser.dom(of: file.path, fragment: "step=5"))
    let shown = try #require(document.bodyAttribute("data-shown"))
    // The steps whose action's name holds "card", as the filter matches them.
    let cards = recording.steps.filter { step in
      String(describing: step.action).prefix { $0 != "(" }.lowercased().contains("card")
    }.map(\.sequence)
    let firstCards = cards.filter { $0 > 10 }.prefix(2)
    try #require(firstCards.count == 2, "the session has card actions after step 10")
    #expect(
      shown
        == "["
        + ([6, 7, 6, 7, 6, 3, 10, 11, 10, 10] + firstCards).map(String.init).joined(separator: ",")
        + "]")
    // The state shown is the state after the last step reached, as a timeline has it.
    let last = try #require(firstCards.last)
    #expect(document.bodyAttribute("data-step") == "\(last)")
    let timeline = Timeline(recording, environment: ())
    timeline.jump(to: last)
    #expect(document.stateLeaves == Leaf.of(SnapshotValue(of: timeline.state.snapshot)))
    // The filter left only the card actions (and the start) among the rows drawn.
    #expect(document.rowSteps.allSatisfy { $0 == 0 || cards.contains($0) })
  }
}
