import Arboreal
import ArborealTesting
import XCTest

/// The test store from an XCTest test case: outside a Swift Testing test its failures go
/// through `XCTFail`, so this passing path also proves nothing is reported spuriously.
final class XCTestUsageTests: XCTestCase {
  @MainActor
  func testSendReceiveFinish() async {
    let store = TestStore(state: Loader(), environment: LoaderEnvironment())
    await store.send(.load) { XCTAssertTrue($0.isLoading) }
    await store.receive(.loaded(42)) { model in
      XCTAssertEqual(model.count, 42)
      XCTAssertFalse(model.isLoading)
    }
    await store.finish()
  }
}
