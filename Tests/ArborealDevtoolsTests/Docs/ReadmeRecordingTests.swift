import Arboreal
import ArborealDevtools
import Testing

/// The README's "Recording, replay and time travel" example, verbatim in `readmeExample`,
/// with the article's `Search` model; the checks after it hold what its comments claim.
@Suite actor ReadmeRecordingTests {
  typealias Search = DocsRecording.Search

  @Test func theReadmeExampleDoesWhatItSays() async throws {
    let file = try TemporaryFile("session.jsonl")
    let path = file.path
    var printed: [String] = []
    let print = { (text: Any) in printed.append("\(text)") }

    let store = Store(state: Search(), environment: .init(find: { query in ["\(query) milk"] }))
    store.printChanges(to: { print($0) })  // #1 queryChanged("oat") / Search#1.query: "" → "oat"
    let recorder = try StoreRecorder(store, to: path)
    store.send(.queryChanged("oat"))
    await store.send(.search).value
    await recorder.finish()

    let recording = try Recording<Search>(contentsOf: path)
    let offline = Search.Environment(find: { _ in [] })
    print(recording.replay(environment: offline).results)  // ["oat milk"]: no search ran
    let timeline = Timeline(recording, environment: offline)
    timeline.jump(to: 1)  // the state after step 1 (jumps go back too)
    let owner = store.state.$results.owner!.description  // "Search#1"
    if let why = recording.explain(RecordedProperty(owner: owner, name: "results")) {
      print(why)
      // Search#1.results was last changed by #3 resultsLoaded(["oat milk"])
      //   #3 resultsLoaded(["oat milk"]) ← effect of #2
      //   #2 search
    }

    #expect(printed.count == 5)
    #expect(printed[0] == "#1 queryChanged(\"oat\")\n  \(owner).query: \"\" → \"oat\"")
    #expect(printed[3] == #"["oat milk"]"#)
    #expect(timeline.state.query == "oat" && timeline.state.results.isEmpty)
    #expect(
      printed[4] == """
        \(owner).results was last changed by #3 resultsLoaded(["oat milk"])
          #3 resultsLoaded(["oat milk"]) ← effect of #2
          #2 search
        """)
  }
}
