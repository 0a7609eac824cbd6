import ArborealTestSupport
import Testing

@testable import Arboreal

/// Effects belong to the child that started them, once its parent forwards its actions: a
/// child's cancellation identifiers are scoped to it (sibling rows forwarded by id share none),
/// the parent cancels all of one child's effects, and a removed child's effects deliver nothing.
@Suite actor ChildEffectTests {
  /// A store in the caller's isolation (an actor-isolated test's, or a main-actor one's).
  private func makeStore(
    ids: [Int] = [1, 2], isolation: isolated (any Actor)? = #isolation
  ) -> (Store<UploadList>, Uploads) {
    let uploads = Uploads(ids: [0] + ids)
    let store = Store(state: UploadList(), environment: uploads)
    for id in ids { store.send(.add(id: id)) }
    return (store, uploads)
  }

  @Test func siblingRowsForwardedByIDCancelInFlightOnlyTheirOwnUploads() async {
    let (store, uploads) = makeStore()
    let first = store.send(.row(id: 1, .upload))
    let second = store.send(.row(id: 2, .upload))
    // Each row's `cancelInFlight` on the shared `UploadID` stays within the row.
    #expect(store.runningEffectCount == 2)
    uploads.gates[1]?.open()
    uploads.gates[2]?.open()
    await first.value
    await second.value
    #expect(store.state.rows.map(\.isUploaded) == [true, true])
  }

  @Test func cancelInFlightStillReplacesTheSameRowsUpload() async {
    let (store, _) = makeStore()
    store.send(.row(id: 1, .upload))
    store.send(.row(id: 1, .upload))
    #expect(store.runningEffectCount == 1)
    store.send(.cancelRow(id: 1))
    #expect(store.runningEffectCount == 0)
  }

  @Test func aRowCancellingByIDLeavesItsSiblingRunning() async {
    let (store, uploads) = makeStore()
    store.send(.row(id: 1, .upload))
    let second = store.send(.row(id: 2, .upload))
    store.send(.row(id: 1, .cancelUpload))
    #expect(store.runningEffectCount == 1)
    uploads.gates[2]?.open()
    await second.value
    #expect(store.state.row(id: 1)?.isUploaded == false)
    #expect(store.state.row(id: 2)?.isUploaded == true)
  }

  @Test func theParentsIdentifiersDoNotReachIntoItsChildren() async {
    let (store, _) = makeStore()
    store.send(.row(id: 1, .upload))
    store.send(.featured(.upload))
    store.send(.cancelParentUpload)
    #expect(store.runningEffectCount == 2)
    store.send(.cancelRow(id: 1))
    store.send(.cancelFeatured)
    #expect(store.runningEffectCount == 0)
  }

  @Test func theParentCancelsEveryEffectOfOneRow() async {
    let (store, uploads) = makeStore()
    let first = store.send(.row(id: 1, .upload))
    let second = store.send(.row(id: 2, .upload))
    store.send(.cancelRow(id: 1))
    await first.value
    #expect(store.runningEffectCount == 1)
    uploads.gates[1]?.open()
    uploads.gates[2]?.open()
    await second.value
    #expect(store.state.rows.map(\.isUploaded) == [false, true])
  }

  @Test func removingARowEndsItsEffectsSoNothingArrivesForAMissingID() async {
    let (store, uploads) = makeStore()
    let upload = store.send(.row(id: 2, .upload))
    store.send(.remove(id: 2))
    #expect(store.runningEffectCount == 0)
    uploads.gates[2]?.open()
    await upload.value
    #expect(store.state.seen == ["row 2 upload"])
  }

  @Test func aChildsIdentifiersAreNamedWithTheirScopeInDescriptions() {
    let (store, _) = makeStore()
    store.send(.row(id: 2, .upload))
    #expect(store.runningEffectDescriptions.count == 1)
    #expect(store.runningEffectDescriptions.first?.contains("UploadID") == true)
    #expect(store.runningEffectDescriptions.first?.contains("UploadRow.Action[2]") == true)
    store.send(.cancelRow(id: 2))
  }

  #if DEBUG
    @MainActor
    @Test func aSendToARemovedRowIsReportedWithTheActionAndTheKey() {
      let (store, _) = makeStore()
      let messages = Log<String>()
      ArborealDiagnostics.droppedActionHandler = { messages.append($0) }
      defer { ArborealDiagnostics.droppedActionHandler = nil }
      let row = store.viewStore(UploadList.rows, id: 2)
      store.send(.remove(id: 2))
      row?.send(.upload)
      #expect(store.state.seen.isEmpty)
      let reported = messages.all.filter { $0.contains("UploadRow[2]") }
      #expect(reported.count == 1)
      #expect(reported.first?.contains("dropped upload") == true)
    }
  #endif
}
