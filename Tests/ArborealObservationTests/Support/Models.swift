import Arboreal
import ArborealObservation
import Observation
import Synchronization

/// A bridged model with two tracked properties and a hand-written one.
final class BridgedPerson: ObservableTrackable, @unchecked Sendable {
  // @unchecked Sendable invariant: the tests that share a person across threads never read
  // and write it concurrently; they hand it over through the test's own synchronisation.
  let registrar = TrackingRegistrar.observable()
  @Tracked var name = "Ada"
  @Tracked var age = 36

  static let nicknameKey = TrackingKey("nickname")
  private var nicknameStorage = ""
  var nickname: String {
    get {
      registrar.access(Self.nicknameKey)
      return nicknameStorage
    }
    set {
      registrar.withMutation(of: Self.nicknameKey) { nicknameStorage = newValue }
    }
  }
}

/// A model that does not opt in, but claims `ObservableTrackable` with a plain registrar.
final class UnbridgedPerson: ObservableTrackable {
  let registrar = TrackingRegistrar()
  @Tracked var name = "Ada"
}

/// An `@Observable` service a store depends on.
@Observable final class Session: @unchecked Sendable {
  // @unchecked Sendable invariant: the tests touch a session from one thread at a time.
  var userName = "ada"
  var unrelated = 0
}

/// A bridged store model with a bridged child and a dependency on an `@Observable` session.
final class AppModel: ArborealModel, ObservableTrackable {
  enum Action: Sendable {
    case increment
    case child(CounterModel.Action)
  }

  let registrar = TrackingRegistrar.observable()
  @Tracked private(set) var count = 0
  @Tracked private(set) var child = CounterModel()

  static let child = ChildRoute.child(\AppModel.child, tag: Action.child)
  let session: Session

  init(session: Session = Session()) { self.session = session }

  /// Depends on the session, through the backward bridge.
  var greeting: String { trackingObservation { "Hello, \(session.userName) (\(count))" } }

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .increment:
      count += 1
      return .none
    case .child(let action):
      return forward(action, to: Self.child, environment: ())
    }
  }
}

/// A bridged child model, which also reads the session when it has one.
final class CounterModel: ArborealModel, ObservableTrackable {
  enum Action: Sendable {
    case increment
  }

  let registrar = TrackingRegistrar.observable()
  @Tracked private(set) var count = 0

  func update(action: Action, environment: Void) -> Fx<Action> {
    switch action {
    case .increment:
      count += 1
      return .none
    }
  }
}

/// A thread-safe counter for callbacks that may run on any thread.
final class Counter: Sendable {
  private let storage = Atomic<Int>(0)
  var value: Int { storage.load(ordering: .acquiring) }
  func increment() { storage.wrappingAdd(1, ordering: .acquiringAndReleasing) }
}

/// A bridged model with more tracked properties than the mirror's lock-free slots (16), read
/// and written by index.
final class WideBridgedModel: ObservableTrackable, @unchecked Sendable {
  // @unchecked Sendable invariant: threads only read it concurrently; it is written once they
  // are done.
  let registrar = TrackingRegistrar.observable()
  static let count = 20
  @Tracked var p0 = 0
  @Tracked var p1 = 0
  @Tracked var p2 = 0
  @Tracked var p3 = 0
  @Tracked var p4 = 0
  @Tracked var p5 = 0
  @Tracked var p6 = 0
  @Tracked var p7 = 0
  @Tracked var p8 = 0
  @Tracked var p9 = 0
  @Tracked var p10 = 0
  @Tracked var p11 = 0
  @Tracked var p12 = 0
  @Tracked var p13 = 0
  @Tracked var p14 = 0
  @Tracked var p15 = 0
  @Tracked var p16 = 0
  @Tracked var p17 = 0
  @Tracked var p18 = 0
  @Tracked var p19 = 0

  private static let properties: [any ReferenceWritableKeyPath<WideBridgedModel, Int> & Sendable] =
    [
      \.p0, \.p1, \.p2, \.p3, \.p4, \.p5, \.p6, \.p7, \.p8, \.p9, \.p10, \.p11, \.p12, \.p13, \.p14,
      \.p15, \.p16, \.p17, \.p18, \.p19,
    ]

  subscript(index: Int) -> Int {
    get { self[keyPath: Self.properties[index]] }
    set { self[keyPath: Self.properties[index]] = newValue }
  }
}
