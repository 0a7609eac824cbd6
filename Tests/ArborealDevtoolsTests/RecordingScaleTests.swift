import Arboreal
import ArborealDevtools
import ArborealTestSupport
import Foundation
import Testing

/// A recording at every size, on an actor of its own (the store's isolation is the actor's):
/// every step reaches the file, once and in order, through a recorder whose queue holds at most
/// 1,000 steps. One step in every `swift test`; a million in the reliability step of
/// `.ci/run` (`ARBOREAL_RELIABILITY=1`), which takes seconds.
@Suite struct RecordingScaleTests {
  @Test(arguments: reliabilitySuiteEnabled ? [1, 1_000_000] : [1])
  func everyStepIsWrittenOnceInOrder(count: Int) async throws {
    let file = try TemporaryFile()
    let total = try await RecordingScaleHost().record(count, to: file.path)
    #expect(total == count)
    // Read off the actor; the file's numbers, without decoding a million lines.
    let path = file.path
    let numbers = try await Task.detached { try Self.stepNumbers(in: path) }.value
    #expect(numbers.count == count)
    let outOfOrder = numbers.enumerated().first { $0.offset + 1 != $0.element }
    #expect(
      outOfOrder == nil, "line \((outOfOrder?.offset ?? 0) + 2) is step \(outOfOrder?.element ?? 0)"
    )
  }

  /// The `"seq"` of each step line of the recording at `path` (the header line has none).
  static func stepNumbers(in path: String) throws -> [Int] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let key = Array(#""seq":"#.utf8)
    var numbers: [Int] = []
    data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
      var index = 0
      let end = bytes.count
      while index + key.count <= end {
        if bytes[index] == key[0], (0..<key.count).allSatisfy({ bytes[index + $0] == key[$0] }) {
          index += key.count
          var number = 0
          while index < end, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            number = number * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
          }
          numbers.append(number)
        } else {
          index += 1
        }
      }
    }
    return numbers
  }
}

/// Records `count` actions of a board's store in the actor's isolation.
actor RecordingScaleHost {
  /// Adds a card, bumps it `count - 1` times, and returns the steps the store handled.
  func record(_ count: Int, to path: String) async throws -> Int {
    let store = Store(state: Board(), environment: ())
    let recorder = try StoreRecorder(store, to: path, keepingSteps: false, limit: 1_000)
    store.send(.add("a"))
    for _ in 1..<count { store.send(.card(id: 1, .bump)) }
    await store.finish()
    await recorder.finish()
    return 1 + (store.state.cards.first?.count ?? 0)
  }
}
