import Foundation
import Testing

@testable import ArborealDevtools

/// The viewer's page is three files embedded at build time (`EmbedViewerPage`); these check
/// that the page made of them is whole: each slot where it belongs, the files' text in place.
@Suite struct ViewerPageFilesTests {
  @Test func thePageHasItsTitleTwiceThenItsDataOnce() {
    let slots = ViewerPage.parts.filter { !isText($0) }
    #expect(slots == [.title, .title, .data])
  }

  @Test func theStyleAndTheScriptAreInThePageAsTheFilesHoldThem() {
    let page = ViewerPage.html(title: "A <title>", data: "{\"steps\":[]}")
    #expect(page.hasPrefix("<!doctype html>"))
    #expect(page.contains("<title>A &lt;title&gt;</title>"))
    #expect(page.contains("<style>\n" + String(ViewerPageFiles.css.dropLast()) + "\n</style>"))
    #expect(page.contains("<script>\n" + String(ViewerPageFiles.script.dropLast()) + "\n</script>"))
    #expect(page.contains(#"id="recording">{"steps":[]}</script>"#))
  }

  @Test func aTemplateIsCutAtItsSlotsAndFilled() {
    let parts = ViewerPage.parts(
      of: "a{{title}}b{{style}}c{{data}}{{script}}d", style: "S", script: "J")
    #expect(parts == [.text("a"), .title, .text("bSc"), .data, .text("Jd")])
  }

  private func isText(_ part: ViewerPage.Part) -> Bool {
    if case .text = part { return true }
    return false
  }
}
