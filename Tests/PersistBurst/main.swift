// A test helper, not an example: changes a persisted model in bursts, with a `StorePersister`
// that saves 1 ms after a change, and prints `saved N` each time `flush()` has returned with
// the state after action N on the disk. `ExamplesTests` kills it with SIGKILL mid-burst and
// checks that the file always holds a complete state, at least as new as the last one
// promised.
//
//   persist-burst PATH

import Arboreal
import ArborealPersistence
import Foundation

/// A list of numbers that are all equal: a state that is easy to check whole (every entry
/// equals `count`) and big enough (4,000 numbers) that a save takes a while to write.
final class Filled: ReplayableModel {
  enum Action: Sendable, Codable, Equatable {
    case next
  }

  struct Snapshot: Codable, Equatable, Sendable {
    var count: Int
    var entries: [Int]
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var count = 0
  @Tracked private(set) var entries = [Int](repeating: 0, count: 4_000)

  init() {}

  init(snapshot: Snapshot) {
    count = snapshot.count
    entries = snapshot.entries
  }

  var snapshot: Snapshot { Snapshot(count: count, entries: entries) }

  func update(action: Action, environment: Void) -> Fx<Action> {
    count += 1
    entries = [Int](repeating: count, count: entries.count)
    return .none
  }
}

guard CommandLine.arguments.count == 2 else {
  FileHandle.standardError.write(Data("usage: persist-burst PATH\n".utf8))
  exit(2)
}
let file = PersistedFile<Filled>(path: CommandLine.arguments[1])
let persister: StorePersister<Filled>
let store: Store<Filled>
do {
  store = Store(state: try file.load().map(Filled.init(snapshot:)) ?? Filled(), environment: ())
  persister = try StorePersister(store, to: file, debounce: .milliseconds(1))
} catch {
  FileHandle.standardError.write(Data("persist-burst: \(error)\n".utf8))
  exit(1)
}
while true {
  for _ in 0..<20 {
    store.send(.next)
    // Lets the debounced saves run between the actions of a burst.
    await Task.yield()
  }
  await persister.flush()
  if let problem = persister.problem {
    FileHandle.standardError.write(Data("persist-burst: \(problem)\n".utf8))
    exit(1)
  }
  // Unbuffered: the line is out before the next burst begins.
  FileHandle.standardOutput.write(Data("saved \(store.state.count)\n".utf8))
}
