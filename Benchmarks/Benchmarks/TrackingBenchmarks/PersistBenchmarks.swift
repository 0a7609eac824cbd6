import Arboreal
import ArborealDevtools
import ArborealPersistence
import Benchmark
import Foundation

// Persisted models (`StorePersister`), per action:
// - `persist-vs-send/persist`: `Store.send` of an action that changes the model
//   (`BenchTally.add`, one tracked write, `Fx.none`) while a `StorePersister` keeps it in a
//   file with the default half-second debounce on the continuous clock, against the same send
//   with no persister (`persist-vs-send/send`). An iteration is 1,000 sends: the first hears
//   the change through tracking and books the save; the others run as plain sends, since the
//   persister watches again only when the save takes its snapshot. Each iteration makes its
//   store and persister before the measurement and ends with `finish()` (the write) after it.

func registerPersistBenchmarks() {
  _ = Benchmark("persist-vs-send/persist", configuration: .perOperation(.kilo)) {
    @MainActor benchmark async in
    let path = NSTemporaryDirectory() + "arboreal-persist-\(UUID().uuidString).json"
    defer { try? FileManager.default.removeItem(atPath: path) }
    let store = Store(state: BenchTally(), environment: ())
    let persister: StorePersister<BenchTally>
    do {
      persister = try StorePersister(store, to: PersistedFile(path: path))
    } catch {
      benchmark.error("\(error)")
      return
    }
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { store.send(.add(1)) }
    benchmark.stopMeasurement()
    await persister.finish()
    check(store.state.total, benchmark.scaledIterations.count, benchmark)
    if let problem = persister.problem { benchmark.error("\(problem)") }
    do {
      let saved = try PersistedFile<BenchTally>(path: path).load()
      if saved != store.state.total { benchmark.error("saved \(String(describing: saved))") }
    } catch {
      benchmark.error("\(error)")
    }
  }

  _ = Benchmark("persist-vs-send/send", configuration: .perOperation(.kilo)) {
    @MainActor benchmark async in
    let store = Store(state: BenchTally(), environment: ())
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { store.send(.add(1)) }
    benchmark.stopMeasurement()
    check(store.state.total, benchmark.scaledIterations.count, benchmark)
  }
}
