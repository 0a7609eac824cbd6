import Arboreal
import ArborealDevtools
import Benchmark
import Foundation

// Recording and replay (ArborealDevtools).
//
// - `record-vs-send`: `Store.send` of a synchronous action (`BenchCounter.increment`, one
//   tracked write, `Fx.none`) with a `StoreRecorder` writing to a file, against the same send
//   with no recorder; `record-vs-send/loghandler` is the same send with an empty log handler,
//   the store's share of the recording cost (its change recording). Only the sends are measured: the main actor's cost. The recorder's
//   writer encodes and writes the lines on its own queue; each iteration waits for it to
//   finish outside the measurement, so iterations do not pile up work for each other.
// - `replay`: `Recording.replay` of 1,000,000 decoded `increment` steps on a fresh model, per
//   action.
// - `recording-load`: reading 1,000 recorded lines (`Recording(data:)`, JSON decoding
//   included), per line: what loading a file costs before replay.
// - `timeline-jump`: a `Timeline` over 100,000 steps (checkpoints every 1,000, all taken
//   beforehand), jumping back and forth between steps 12,345 and 98,765, per jump.

extension BenchCounter: ReplayableModel {
  var snapshot: Int { count }

  convenience init(snapshot: Int) {
    self.init()
    for _ in 0..<snapshot { _ = update(action: .increment, environment: ()) }
  }
}

/// A counter whose snapshot restores in O(1), for time travel.
final class BenchTally: ReplayableModel {
  enum Action: Codable, Sendable {
    case add(Int)
  }

  let registrar = TrackingRegistrar()
  @Tracked private(set) var total = 0

  init() {}

  init(snapshot: Int) { total = snapshot }

  var snapshot: Int { total }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .add(let value): total &+= value
    }
    return .none
  }
}

/// A file in the temporary directory for one recorder, removed afterwards.
private func recordingPath() -> String {
  FileManager.default.temporaryDirectory
    .appendingPathComponent("arboreal-bench-\(UUID().uuidString).jsonl").path
}

func registerDevtoolsBenchmarks() {
  _ = Benchmark("record-vs-send/record", configuration: .perOperation(.kilo)) {
    @MainActor benchmark async in
    let path = recordingPath()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let store = Store(state: BenchCounter(), environment: ())
    let recorder: StoreRecorder<BenchCounter>
    do {
      recorder = try StoreRecorder(store, to: path, keepingSteps: false)
    } catch {
      benchmark.error("\(error)")
      return
    }
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { store.send(.increment) }
    benchmark.stopMeasurement()
    await recorder.finish()
    check(store.state.count, benchmark.scaledIterations.count, benchmark)
    if let error = recorder.writeError { benchmark.error("\(error)") }
  }

  _ = Benchmark("record-vs-send/loghandler", configuration: .perOperation(.kilo)) {
    @MainActor benchmark async in
    let store = Store(state: BenchCounter(), environment: ())
    var seen = 0
    store.addLogHandler { seen &+= $0.sequence }
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { store.send(.increment) }
    benchmark.stopMeasurement()
    blackHole(seen)
    check(store.state.count, benchmark.scaledIterations.count, benchmark)
  }

  _ = Benchmark("record-vs-send/send", configuration: .perOperation(.kilo)) {
    @MainActor benchmark async in
    let store = Store(state: BenchCounter(), environment: ())
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { store.send(.increment) }
    benchmark.stopMeasurement()
    check(store.state.count, benchmark.scaledIterations.count, benchmark)
  }

  let steps = (1...1_000_000).map {
    RecordedStep<BenchCounter.Action>(sequence: $0, action: .increment, cause: .sent, changes: [])
  }
  let recording = Recording<BenchCounter>(start: 0, steps: steps)
  _ = Benchmark("replay/ours", configuration: .perOperation(.mega)) {
    @MainActor benchmark async in
    let model = recording.replay(environment: ())
    check(model.count, benchmark.scaledIterations.count, benchmark)
  }

  let line =
    #"{"seq":SEQ,"cause":"sent","action":{"increment":{}},"changes":[{"owner":"BenchCounter#1","property":"count"}]}"#
  let file = Data(
    ([#"{"format":"arboreal-recording","version":1,"model":"BenchCounter","snapshot":0}"#]
      + (1...1_000).map { line.replacingOccurrences(of: "SEQ", with: "\($0)") })
      .joined(separator: "\n").utf8 + [UInt8(ascii: "\n")])
  _ = Benchmark("recording-load/ours", configuration: .perOperation(.kilo)) { benchmark in
    do {
      let loaded = try Recording<BenchCounter>(data: file)
      if loaded.steps.count != 1_000 { benchmark.error("read \(loaded.steps.count) steps") }
    } catch {
      benchmark.error("\(error)")
    }
  }

  let tallySteps = (1...100_000).map {
    RecordedStep<BenchTally.Action>(sequence: $0, action: .add($0), cause: .sent, changes: [])
  }
  let tallyRecording = Recording<BenchTally>(start: 0, steps: tallySteps)
  _ = Benchmark("timeline-jump/ours", configuration: .perOperation(.kilo)) {
    @MainActor benchmark async in
    let timeline = Timeline(tallyRecording, environment: ())
    timeline.jump(to: 100_000)  // takes every checkpoint
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
      timeline.jump(to: index % 2 == 0 ? 12_345 : 98_765)
    }
    benchmark.stopMeasurement()
    let step = timeline.step
    if timeline.state.total != step * (step + 1) / 2 {
      benchmark.error("total \(timeline.state.total) at step \(step)")
    }
  }
}
