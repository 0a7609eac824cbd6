import Arboreal
import ArborealDevtools
import Foundation
import Testing

// The code of the viewer's section of the "Debugging with recordings" article
// (Sources/Arboreal/Arboreal.docc/DebuggingWithRecordings.md), verbatim between the
// `article begins` and `article ends` markers. `.ci/check-article-code.py` checks that the
// article still shows it.

@Suite actor DocsViewerTests {
  typealias Search = DocsRecording.Search

  @Test func aRecordingBecomesAPage() async throws {
    let file = try TemporaryFile("search.jsonl")
    let path = file.path
    let htmlPath = file.directory.appendingPathComponent("search.html").path
    let store = Store(state: Search(), environment: .init(find: { query in ["\(query) milk"] }))
    let recorder = try StoreRecorder(store, to: path)
    store.send(.queryChanged("oat"))
    await store.send(.search).value
    await recorder.finish()

    // article begins: viewer
    let recording = try Recording<Search>(contentsOf: path, keepingValidPrefix: true)
    let viewer = RecordingViewer(recording, environment: .init(find: { _ in [] }))
    try viewer.write(to: htmlPath)  // one file: open it in any browser
    // article ends: viewer

    let page = try String(contentsOfFile: htmlPath, encoding: .utf8)
    #expect(page.hasPrefix("<!doctype html>"))
    #expect(page.contains("<title>Recording of Search</title>"))
    // Numbered among the `Search` models that other tests, running alongside, change too.
    let owner = try #require(store.state.$results.owner).description
    #expect(page.contains(#"["resultsLoaded([\"oat milk\"])",2,["# + "\"\(owner).results\"]"))
  }
}
