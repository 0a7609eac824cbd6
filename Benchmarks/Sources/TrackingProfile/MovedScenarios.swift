import Arboreal
import ArborealDevtools
import ArborealObservation
import ArborealTracking
import Foundation
import Observation

// The scenarios of the rows issue 23 moved: a store's send with and without a log handler,
// the `Observation` bridge, and a write through a diamond of 1,000 derived values. Each is
// the TrackingBenchmarks scenario of the same name, one operation repeated `count` times.

/// A store's counter, as `BenchCounter` in the benchmarks.
final class ProfileCounter: ReplayableModel {
  enum Action: Codable, Sendable { case increment }
  let registrar = TrackingRegistrar()
  @Tracked private(set) var count = 0

  init() {}

  /// For `send/recorded`; restoring is never profiled.
  init(snapshot: Int) { count = snapshot }

  var snapshot: Int { count }

  func update(action: Action, environment: Void) -> Fx<Action> {
    count &+= 1
    return .none
  }
}

/// A parent that forwards to a counter, as `BenchParent` in the benchmarks.
final class ProfileParent: ArborealModel {
  enum Action: Sendable { case child(ProfileCounter.Action) }
  let registrar = TrackingRegistrar()
  @Tracked private(set) var child = ProfileCounter()

  static let child = ChildRoute.child(\ProfileParent.child, tag: Action.child)

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .child(let action):
      return forward(action, to: Self.child, environment: ())
    }
  }
}

/// A parent presenting a counter as an optional child, and the same counter as a case of an
/// enumeration of destinations: what a `ModelCases` forward costs beyond a plain one.
final class ProfilePresenter: ArborealModel {
  enum Destination: ModelCases {
    case counter(ProfileCounter)
    case other(ProfileCounter)
    enum Action: Sendable {
      case counter(ProfileCounter.Action)
      case other(ProfileCounter.Action)
    }
    var child: CaseChild<Destination> {
      switch self {
      case .other(let value): .model(value, action: Action.other)
      case .counter(let value): .model(value, action: Action.counter)
      }
    }

    static func child(of action: Action) -> CaseAction<Destination> {
      switch action {
      case .other(let action): .model(action, in: Destination.other)
      case .counter(let action): .model(action, in: Destination.counter)
      }
    }
  }

  enum Action: Sendable {
    case sheet(PresentationAction<ProfileCounter.Action>)
    case destination(PresentationAction<Destination.Action>)
    case routed(PresentationAction<ProfileCounter.Action>)
  }

  static let sheet = ChildRoute.child(\ProfilePresenter.sheet, tag: Action.sheet)
  /// The sheet again, through a second route: `send/presented-route`, kept beside
  /// `send/presented` for the figures of earlier stops (both are routes now).
  static let sheetRoute = ChildRoute.child(\ProfilePresenter.sheet, tag: Action.routed)
  static let destination = ChildRoute.destination(
    \ProfilePresenter.destination, tag: Action.destination)

  let registrar = TrackingRegistrar()
  @Tracked var sheet: ProfileCounter? = ProfileCounter()
  @Tracked var destination: Destination? = .counter(ProfileCounter())

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .sheet(let action):
      return forward(action, to: Self.sheet, environment: ())
    case .destination(let action):
      return forward(action, to: Self.destination, environment: ())
    case .routed(let action):
      return forward(action, to: Self.sheetRoute, environment: ())
    }
  }
}

/// A model bridged to `Observation`. `@unchecked Sendable`: used on one thread only.
final class ProfileBridgedModel: ObservableTrackable, @unchecked Sendable {
  let registrar = TrackingRegistrar.observable()
  @Tracked var count = 0
}

/// The benchmarks' diamond: one input, 998 derived values that read it, one that reads them
/// all. `@unchecked Sendable`: used on one thread only.
final class ProfileDiamond: @unchecked Sendable {
  let input = TrackedModel()
  var middle: [Derived<Int>] = []
  var bottom: Derived<Int>?

  init() {
    for offset in 0..<998 { middle.append(Derived { [input] in input.count &+ offset }) }
    bottom = Derived { [self] in middle.reduce(0) { $0 &+ $1.value } }
  }
}

/// The same graph as computed properties of an `@Observable` model.
@Observable
final class ProfileObservedDiamond {
  var count = 0
  func middle(_ offset: Int) -> Int { count &+ offset }
  var bottom: Int { (0..<998).reduce(0) { $0 &+ middle($1) } }
}

/// A continuous `Observation` observer of the diamond's bottom. `@unchecked Sendable`: used
/// on one thread only.
final class ProfileDiamondLoop: @unchecked Sendable {
  private let diamond: ProfileObservedDiamond
  private let sink: Sink
  private var isStopped = false

  init(diamond: ProfileObservedDiamond, sink: Sink) {
    self.diamond = diamond
    self.sink = sink
    arm()
  }

  private func arm() {
    withObservationTracking {
      sink.value &+= diamond.bottom
    } onChange: { [self] in
      sink.runs &+= 1
      if !isStopped { arm() }
    }
  }

  func stop() { isStopped = true }
}

/// The scenarios of the rows issue 23 moved, by name.
let movedScenarios: [String: @Sendable (Int) -> Void] = [
  "send/plain": { count in
    MainActor.assumeIsolated {
      let store = Store(state: ProfileCounter(), environment: ())
      for _ in 0..<count { store.send(.increment) }
      precondition(store.state.count == count)
    }
  },
  "send/logged": { count in
    MainActor.assumeIsolated {
      let store = Store(state: ProfileCounter(), environment: ())
      let sink = Sink()
      let token = store.addLogHandler { sink.runs &+= $0.sequence }
      for _ in 0..<count { store.send(.increment) }
      precondition(store.state.count == count)
      token.cancel()
    }
  },
  "send/logged-values": { count in
    MainActor.assumeIsolated {
      let store = Store(state: ProfileCounter(), environment: ())
      let sink = Sink()
      let token = store.addLogHandler(logsValues: true) {
        sink.runs &+= $0.changedValues.count
      }
      for _ in 0..<count { store.send(.increment) }
      precondition(store.state.count == count)
      token.cancel()
    }
  },
  "send/recorded": { count in
    MainActor.assumeIsolated {
      let store = Store(state: ProfileCounter(), environment: ())
      let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("arboreal-profile-\(UUID().uuidString).jsonl").path
      defer { try? FileManager.default.removeItem(atPath: path) }
      guard let recorder = try? StoreRecorder(store, to: path, keepingSteps: false) else {
        fatalError("the recorder did not start")
      }
      for _ in 0..<count { store.send(.increment) }
      precondition(store.state.count == count)
      keep(recorder)
    }
  },
  "send/forwarded": { count in
    MainActor.assumeIsolated {
      let store = Store(state: ProfileParent(), environment: ())
      for _ in 0..<count { store.send(.child(.increment)) }
      precondition(store.state.child.count == count)
    }
  },
  "send/presented": { count in
    MainActor.assumeIsolated {
      let store = Store(state: ProfilePresenter(), environment: ())
      for _ in 0..<count { store.send(.sheet(.presented(.increment))) }
      precondition(store.state.sheet?.count == count)
    }
  },
  "send/presented-route": { count in
    MainActor.assumeIsolated {
      let store = Store(state: ProfilePresenter(), environment: ())
      for _ in 0..<count { store.send(.routed(.presented(.increment))) }
      precondition(store.state.sheet?.count == count)
    }
  },
  "send/destination-case": { count in
    MainActor.assumeIsolated {
      let store = Store(state: ProfilePresenter(), environment: ())
      for _ in 0..<count { store.send(.destination(.presented(.counter(.increment)))) }
      precondition(
        store.state.destination?[case: ProfilePresenter.Destination.counter]?.count == count)
    }
  },
  "bridged-read/ours": { count in
    let model = opaque(ProfileBridgedModel())
    var sum = 0
    for _ in 0..<count {
      sum &+= model.count
      keep(model)
    }
    keep(sum)
  },
  "bridged-write/ours": { count in
    let model = opaque(ProfileBridgedModel())
    for index in 0..<count {
      model.count = index
      keep(model)
    }
  },
  "diamond/ours": { count in
    let diamond = ProfileDiamond()
    let sink = Sink()
    let token = observe { [diamond] _ in
      sink.value &+= diamond.bottom?.value ?? 0
      sink.runs &+= 1
    }
    for _ in 0..<count { diamond.input.count &+= 1 }
    precondition(sink.runs == count + 1)
    token.cancel()
  },
  "broad/ours": { count in
    // `derived-broad`: 1,000 values on one source, each observed.
    let source = TrackedModel()
    let values = (0..<1_000).map { offset in Derived { source.count &+ offset } }
    let sink = Sink()
    let tokens = values.map { value in
      observe { _ in
        sink.value &+= value.value
        sink.runs &+= 1
      }
    }
    for index in 0..<count { source.count = index &+ 1 }
    precondition(sink.runs == 1_000 * (count + 1))
    for token in tokens { token.cancel() }
  },
  "diamond/observation": { count in
    let diamond = ProfileObservedDiamond()
    let sink = Sink()
    let loop = ProfileDiamondLoop(diamond: diamond, sink: sink)
    for _ in 0..<count { diamond.count &+= 1 }
    precondition(sink.runs == count)
    loop.stop()
  },
]
