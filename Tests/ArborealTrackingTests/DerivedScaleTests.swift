import ArborealTestSupport
import ArborealTracking
import Testing

/// Derived values at sizes where a cost that grows by mistake shows: a value over many models
/// keeps one registration per model however often it recomputes, and a value read by many
/// others marks every one of them. Run at 1 and 10,000 here; at 1,000,000 in the reliability
/// step of `.ci/run` (`ARBOREAL_RELIABILITY=1`).
@Suite struct DerivedScaleTests {
  static let sizes = reliabilitySuiteEnabled ? [1, 10_000, 1_000_000] : [1, 10_000]

  @MainActor @Test(arguments: sizes)
  func anObservedTotalOverManyModelsSeesEachWriteAndKeepsOneRegistrationPerModel(rows: Int) {
    let ledger = Ledger(rows: rows)
    let seen = Log<Int>()
    let token = observe { _ in seen.append(ledger.total) }
    for (step, index) in [rows - 1, 0, rows / 2].enumerated() {
      ledger.rows[index].amount += 1
      #expect(seen.all.last == rows + step + 1)
    }
    #expect(seen.count == 4)
    #expect(ledger.totals.value == 4)
    // The input link was relinked in place at each recomputation: one registration per row.
    #expect(ledger.rows.reduce(0) { $0 + $1.registrar.registrationCount } == rows)
    token.cancel()
  }

  @Test(arguments: sizes)
  func aValueReadByManyOthersMarksEveryOneOfThem(readers: Int) {
    let counter = SharedCounter()
    let source = Derived("source") { counter.value * 2 }
    let dependents = (0..<readers).map { offset in Derived("reader") { source.value + offset } }
    #expect(dependents.last?.value == readers - 1)
    #expect(dependents.first?.value == 0)
    counter.value = 5
    // Unobserved, so only marked: every one of them reads the new source when read.
    #expect(dependents.enumerated().allSatisfy { $1.value == 10 + $0 })
    counter.value = 6
    #expect(dependents.enumerated().allSatisfy { $1.value == 12 + $0 })
  }
}
