import ArborealTestSupport
import ArborealTracking
import Testing

/// Models, observers and derived values that are still in use when the program ends are not
/// leaks, and a leak checker must be able to see that: every reference the registrar keeps is
/// stored as an address, never with bits of its own mixed in.
///
/// The test keeps what it makes until the test process exits. In the AddressSanitizer run
/// (`.ci/run`), LeakSanitizer then walks the live memory from the globals: an observer's list of
/// registrations that it could not follow would be reported as a leak and fail that run (it
/// did, when the list sat in an enumeration whose case Swift keeps in the high bits of the
/// list's reference). In the other runs the test checks what it kept still works.
@Suite struct AliveAtExitTests {
  /// One tracked value. `@unchecked Sendable`: written by the test's own thread only.
  final class Cell: Trackable, @unchecked Sendable {
    let registrar = TrackingRegistrar()
    @Tracked var value = 0
  }

  /// Everything the test keeps to the end of the process.
  struct Kept: @unchecked Sendable {
    // `@unchecked Sendable`: made by one test and then only read by it; the rest of the
    // process merely holds it.
    let cells: [Cell]
    let token: TrackingToken
    let sum: Derived<Int>
  }

  static let kept = Locked.make([Kept]())

  @Test func observersOfManyModelsKeptToTheEndOfTheProgram() {
    let cells = (0..<300).map { _ in Cell() }
    let fired = Log<Int>()
    let runs = Log<Int>()
    // A one-shot observer, a continuous one and a derived value, each over 300 models: each
    // holds a list of 300 registrations.
    withTracking {
      for cell in cells { _ = cell.value }
    } onChange: { _ in
      fired.append(1)
    }
    let sum = Derived("sum") { cells.reduce(0) { $0 + $1.value } }
    let token = observe { _ in
      _ = sum.value
      for cell in cells { _ = cell.value }
      runs.append(1)
    }
    #expect(runs.count == 1)
    #expect(sum.value == 0)
    // Changed once, so that the derived value's and the observer's lists are made again.
    cells[299].value = 1
    #expect(fired.count == 1)
    #expect(runs.count == 2)
    #expect(sum.value == 1)
    Self.kept.withLock {
      $0.append(Kept(cells: cells, token: token, sum: sum))
    }
    // The one-shot fired; register another that stays registered to the end.
    withTracking {
      for cell in cells { _ = cell.value }
    } onChange: { _ in
    }
  }
}
