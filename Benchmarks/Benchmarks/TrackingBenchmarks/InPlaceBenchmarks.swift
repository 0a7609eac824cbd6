import ArborealTracking
import Benchmark
import Observation

/// One row of the lists the in-place scenarios edit.
struct ListItem: Equatable {
  var done = false
  var rank = 0
}

/// How many items the in-place scenarios' lists hold when they start.
let listSize = 100_000

/// Ours: a list in a `@Tracked` property.
///
/// `@unchecked Sendable` because nonisolated `observe` bodies must be `@Sendable`.
/// Invariant: a benchmark runs on one thread (see ``Sink``).
final class TrackedList: Trackable, @unchecked Sendable {
  let registrar = TrackingRegistrar()
  @Tracked var items: [ListItem]

  init(count: Int) {
    items = Array(repeating: ListItem(), count: count)
  }
}

/// The anchor: the same list in an `@Observable` class.
///
/// `@unchecked Sendable` for the same reason, with the same invariant.
@Observable
final class ObservedList: @unchecked Sendable {
  var items: [ListItem]

  init(count: Int) {
    items = Array(repeating: ListItem(), count: count)
  }
}

/// A continuous Observation observer of a list's `items` (see ``ObservationLoop``).
///
/// Invariant (why `@unchecked Sendable` holds): used on one thread only.
final class ListObservationLoop: @unchecked Sendable {
  private let list: ObservedList
  private let sink: Sink
  private var isStopped = false

  init(list: ObservedList, sink: Sink) {
    self.list = list
    self.sink = sink
    arm()
  }

  private func arm() {
    withObservationTracking {
      sink.value &+= list.items.count
    } onChange: { [self] in
      sink.runs &+= 1
      if !isStopped { arm() }
    }
  }

  /// Ends the loop with one more write, so that no registration outlives the benchmark.
  func flush() {
    isStopped = true
    list.items[0].rank &+= 1
  }
}

/// In-place edits of a large observed collection: each must cost O(1), not a copy of the
/// list. One operation is one edit, which notifies the list's one continuous observer.
func registerInPlaceBenchmarks() {
  // MARK: inplace-edit-observed: `items[i].done.toggle()` in a 100,000-item list.

  benchmark(
    "inplace-edit-observed/ours", .perOperation(.kilo),
    setUp: { () -> (TrackedList, TrackingToken, Sink) in
      let list = TrackedList(count: listSize)
      let sink = Sink()
      let token = observe { _ in
        sink.value &+= list.items.count
        sink.runs &+= 1
      }
      return (list, token, sink)
    }
  ) { benchmark, state in
    let (list, _, sink) = state
    let runs = sink.runs
    for index in benchmark.scaledIterations {
      list.items[(index &* 97) % listSize].done.toggle()
    }
    let notified = sink.runs - runs
    expect(notified == benchmark.operations, benchmark, "\(notified) notifications")
  }

  benchmark(
    "inplace-edit-observed/observation", .perOperation(.kilo),
    setUp: { () -> (ObservedList, ListObservationLoop, Sink) in
      let list = ObservedList(count: listSize)
      let sink = Sink()
      return (list, ListObservationLoop(list: list, sink: sink), sink)
    },
    tearDown: { state in state.1.flush() }
  ) { benchmark, state in
    let (list, _, sink) = state
    let runs = sink.runs
    for index in benchmark.scaledIterations {
      list.items[(index &* 97) % listSize].done.toggle()
    }
    let notified = sink.runs - runs
    expect(notified == benchmark.operations, benchmark, "\(notified) notifications")
  }

  // MARK: append-observed: `items.append(x)` to a list that starts with 100,000 items.

  benchmark(
    "append-observed/ours", .perOperation(.kilo),
    setUp: { () -> (TrackedList, TrackingToken, Sink) in
      let list = TrackedList(count: listSize)
      let sink = Sink()
      let token = observe { _ in
        sink.value &+= list.items.count
        sink.runs &+= 1
      }
      return (list, token, sink)
    }
  ) { benchmark, state in
    let (list, _, sink) = state
    let runs = sink.runs
    for index in benchmark.scaledIterations {
      list.items.append(ListItem(done: false, rank: index))
    }
    let notified = sink.runs - runs
    expect(notified == benchmark.operations, benchmark, "\(notified) notifications")
  }

  benchmark(
    "append-observed/observation", .perOperation(.kilo),
    setUp: { () -> (ObservedList, ListObservationLoop, Sink) in
      let list = ObservedList(count: listSize)
      let sink = Sink()
      return (list, ListObservationLoop(list: list, sink: sink), sink)
    },
    tearDown: { state in state.1.flush() }
  ) { benchmark, state in
    let (list, _, sink) = state
    let runs = sink.runs
    for index in benchmark.scaledIterations {
      list.items.append(ListItem(done: false, rank: index))
    }
    let notified = sink.runs - runs
    expect(notified == benchmark.operations, benchmark, "\(notified) notifications")
  }
}
