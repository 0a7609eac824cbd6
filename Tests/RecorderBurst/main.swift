// A test helper, not an example: records bursts of actions with a `StoreRecorder` that syncs
// after each batch, and prints `flushed N` each time `flush()` has returned for the first N
// steps. `ExamplesTests` kills it with SIGKILL mid-burst and checks that the recording holds
// at least the steps it promised, each line complete, but for at most a partial last one.
//
//   recorder-burst PATH

import Arboreal
import ArborealDevtools
import Foundation

/// A running total: the smallest model a recording can replay.
final class Tally: ReplayableModel {
  enum Action: Sendable, Codable, Equatable {
    case add(Int)
  }

  struct Snapshot: Codable, Equatable, Sendable {
    var total: Int
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var total = 0

  init() {}

  init(snapshot: Snapshot) {
    total = snapshot.total
  }

  var snapshot: Snapshot { Snapshot(total: total) }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .add(let amount):
      total += amount
    }
    return .none
  }
}

guard CommandLine.arguments.count == 2 else {
  FileHandle.standardError.write(Data("usage: recorder-burst PATH\n".utf8))
  exit(2)
}
let store = Store(state: Tally(), environment: ())
let recorder: StoreRecorder<Tally>
do {
  recorder = try StoreRecorder(
    store, to: CommandLine.arguments[1], keepingSteps: false, limit: 64,
    durability: .afterEachBatch)
} catch {
  FileHandle.standardError.write(Data("recorder-burst: \(error)\n".utf8))
  exit(1)
}
var sent = 0
while true {
  for _ in 0..<50 {
    sent += 1
    store.send(.add(sent))
  }
  await recorder.flush()
  // Unbuffered: the line is out before the next burst begins.
  FileHandle.standardOutput.write(Data("flushed \(sent)\n".utf8))
}
