import Arboreal
import ArborealTestSupport
import Foundation
import Testing

@testable import ArborealDevtools

/// The questions the viewer answers, asked as a user asks them in headless Chromium: search
/// the state by path or value (`/` to start, Enter to go to the first match), list only the
/// actions that changed a property, and step through a recording whose state is too large to
/// draw whole. A script added at the end of the page acts and writes what it saw into
/// `body[data-…]`.
@Suite(.serialized, .needsBrowser)
actor RecordingViewerQuestionsTests {
  /// A page for `recording` with `script` run after the viewer's own.
  private func page(_ html: String, running script: String) throws -> TemporaryFile {
    let file = try TemporaryFile("viewer.html")
    let end = try #require(html.range(of: "</body>", options: .backwards))
    try file.write(html.replacingCharacters(in: end, with: "<script>\(script)</script></body>"))
    return file
  }

  private func session(_ count: Int, seed: UInt64) async throws -> Recording<Board> {
    var random = SeededRandom(seed: seed)
    let store = Store(state: Board(), environment: ())
    let recorder = try StoreRecorder(store, to: nil)
    for _ in 0..<count {
      store.send(random.boardAction(ids: store.state.cards.map(\.id)))
      await store.finish()
    }
    await recorder.finish()
    return recorder.recording
  }

  @Test func searchByPathAndByValueThenGoToTheFirstMatch() async throws {
    let recording = try await session(60, seed: 5)
    let step = 40
    let timeline = Timeline(recording, environment: ())
    timeline.jump(to: step)
    let leaves = Leaf.of(SnapshotValue(of: timeline.state.snapshot))
    let value = try #require(leaves.first { $0.path.hasSuffix(".text") }?.text)
    let word = String(value.dropFirst().prefix(3)).lowercased()
    let script = """
      (function () {
        const b = document.body;
        const key = (name) => document.activeElement.dispatchEvent(
          new KeyboardEvent("keydown", { key: name, bubbles: true }));
        const hits = () => [...document.querySelectorAll("#results li[data-hit]")]
          .map((li) => li.dataset.path).join("|");
        key("/");
        b.dataset.focused = document.activeElement.id;
        const search = document.getElementById("search");
        search.value = "TEXT";
        search.dispatchEvent(new Event("input", { bubbles: true }));
        b.dataset.pathHits = hits();
        search.value = "\(word)";
        search.dispatchEvent(new Event("input", { bubbles: true }));
        b.dataset.valueHits = hits();
        key("Enter");
        const picked = document.querySelector("#state li.picked");
        b.dataset.picked = picked ? picked.dataset.path : "";
        b.dataset.stepAfterEnter = b.dataset.step;
        key("Escape");
        b.dataset.resultsHidden = String(document.getElementById("results").hidden);
      })();
      """
    let file = try page(RecordingViewer(recording, environment: ()).html, running: script)
    let document = ViewerDocument(
      html: try await Browser.dom(of: file.path, fragment: "step=\(step)"))

    #expect(document.bodyAttribute("data-focused") == "search", "`/` moves to the search")
    // Any case, in document order: the paths that hold the text, and the values.
    let byPath = leaves.filter { $0.path.lowercased().contains("text") }.map(\.path)
    #expect(!byPath.isEmpty)
    #expect(document.bodyAttribute("data-path-hits") == byPath.joined(separator: "|"))
    let byValue = leaves.filter {
      $0.path.lowercased().contains(word) || $0.text.lowercased().contains(word)
    }.map(\.path)
    #expect(document.bodyAttribute("data-value-hits") == byValue.joined(separator: "|"))
    #expect(document.bodyAttribute("data-picked") == byValue.first, "Enter picks the first")
    #expect(document.bodyAttribute("data-step-after-enter") == "\(step)")
    #expect(document.bodyAttribute("data-results-hidden") == "true", "Escape clears it")
  }

  @Test func aPropertysActionsAloneAreListedFromTheRecordedChanges() async throws {
    let recording = try await session(80, seed: 9)
    let step = try #require(
      recording.steps.last { $0.changes.contains { $0.owner?.hasPrefix("Card#") == true } })
    let property = try #require(step.changes.first { $0.owner?.hasPrefix("Card#") == true })
    let script = """
      (function () {
        const b = document.body;
        const rows = () => [...document.querySelectorAll("#rows .row")].map((r) => r.dataset.seq).join(",");
        document.querySelector('#details [data-why="\(property.description)"]').click();
        document.getElementById("why-only").click();
        b.dataset.only = rows();
        b.dataset.footer = document.getElementById("shown").textContent;
        b.dataset.hash = location.hash;
        document.body.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowUp", bubbles: true }));
        b.dataset.afterUp = b.dataset.step;
        document.getElementById("only-clear").click();
        b.dataset.all = String(document.querySelectorAll("#rows .row").length);
      })();
      """
    let file = try page(RecordingViewer(recording, environment: ()).html, running: script)
    let document = ViewerDocument(
      html: try await Browser.dom(of: file.path, fragment: "step=\(step.sequence)"))

    let changing = recording.steps.filter { $0.changes.contains(property) }.map(\.sequence)
    #expect(
      document.bodyAttribute("data-only")
        == ([0] + changing).map(String.init).joined(separator: ","))
    #expect(
      document.bodyAttribute("data-footer")?.hasPrefix(
        "\(changing.count) of \(recording.steps.count) actions changed \(property)") == true)
    #expect(document.bodyAttribute("data-hash")?.contains("changed=") == true)
    // Up moves to the previous action that changed it.
    let previous = changing.last { $0 < step.sequence } ?? 0
    #expect(document.bodyAttribute("data-after-up") == "\(previous)")
    #expect(Int(document.bodyAttribute("data-all") ?? "") ?? 0 > changing.count + 1)
  }

  /// A page of 100,000 steps over a state of 50,000 values (16,667 rows of three), each step
  /// setting one row's `done`. The page's data is written here in the format `ViewerData`
  /// documents: what is measured is the page. Only what can be drawn without a scroll is in
  /// the document, and each step is timed: printed, not asserted (a loaded machine must not
  /// fail a test); the bound on what is drawn, which keeps a step fast, is asserted.
  @Test func aLargeStateIsDrawnOnDemandAndEachStepIsTimed() async throws {
    let rows = 16_667
    let count = 100_000
    var json = #"{"title":"large","model":"Sheet","problem":null,"start":{"o":["rows",["#
    for row in 0..<rows {
      if row > 0 { json += "," }
      json += #"{"o":["id",\#(row),"text","row \#(row)","done",false]}"#
    }
    json += #"]]},"steps":["#
    var done = [Bool](repeating: false, count: rows)
    var random = SeededRandom(seed: 11)
    for step in 0..<count {
      let row = random.next(below: rows)
      if step > 0 { json += "," }
      json +=
        #"["toggle(row: \#(row))",0,["Sheet#1.rows"],[[0,["rows",\#(row),"done"],\#(done[row]),\#(!done[row])]]]"#
      done[row].toggle()
    }
    json += "]}"
    let script = """
      (function () {
        const b = document.body;
        const times = [];
        const timed = (act) => { const t = performance.now(); act(); times.push(performance.now() - t); };
        const key = (name) => timed(() => document.body.dispatchEvent(
          new KeyboardEvent("keydown", { key: name, bubbles: true })));
        for (let i = 0; i < 30; i++) key("ArrowDown");
        for (let i = 0; i < 30; i++) key("ArrowUp");

        const slider = document.getElementById("slider");
        for (const to of [99999, 3, 51234, 51233, 7777, 88888]) {
          timed(() => { slider.value = String(to); slider.dispatchEvent(new Event("input", { bubbles: true })); });
        }
        times.sort((x, y) => x - y);
        b.dataset.median = String(times[times.length >> 1]);
        b.dataset.max = String(times[times.length - 1]);
        b.dataset.drawn = String(document.querySelectorAll("#state li").length);
        const more = document.querySelector("#state [data-more]");
        b.dataset.more = more ? more.dataset.more : "";
        if (more) more.click();
        b.dataset.drawnAfterMore = String(document.querySelectorAll("#state li").length);
        const search = document.getElementById("search");
        search.value = "row 16666";
        timed(() => search.dispatchEvent(new Event("input", { bubbles: true })));
        b.dataset.searchMs = String(times[times.length - 1]);
        search.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
        const picked = document.querySelector("#state li.picked");
        b.dataset.picked = picked ? picked.dataset.path : "";
      })();
      """
    let file = try page(ViewerPage.html(title: "large", data: json), running: script)
    let document = ViewerDocument(
      html: try await Browser.dom(of: file.path, fragment: "step=50000"))

    let median = try #require(document.bodyAttribute("data-median").flatMap(Double.init))
    let slowest = try #require(document.bodyAttribute("data-max").flatMap(Double.init))
    let search = try #require(document.bodyAttribute("data-search-ms").flatMap(Double.init))
    let ready = try #require(document.bodyAttribute("data-ready-ms").flatMap(Double.init))
    print(
      "viewer: 100,000 steps over 50,000 values: ready after \(Int(ready)) ms; a step takes "
        + "\(median) ms (median of 66), \(slowest) ms at most; a search \(search) ms")
    #expect(document.bodyAttribute("data-step") == "88888")
    let drawn = try #require(document.bodyAttribute("data-drawn").flatMap(Int.init))
    #expect(drawn > 100 && drawn <= 1_600, "drawn on demand: \(drawn) items")
    #expect(document.bodyAttribute("data-more") == "rows")
    let afterMore = try #require(document.bodyAttribute("data-drawn-after-more").flatMap(Int.init))
    #expect(afterMore > drawn, "“show more” draws more rows")
    #expect(
      document.bodyAttribute("data-picked") == "rows[16666].text", "a match far down is reached")
  }
}
