import Synchronization

@testable import ArborealTracking

final class Person: Trackable {
  let registrar = TrackingRegistrar()
  @Tracked var firstName = "Ada"
  @Tracked var lastName = "Lovelace"
  @Tracked var age = 36

  var fullName: String { "\(firstName) \(lastName)" }
}

final class Counter: Trackable {
  let registrar = TrackingRegistrar()
  @Tracked var count = 0
  @Tracked var step = 1
}

/// A value that is not `Equatable`: every write notifies.
struct Blob {
  var size: Int
}

final class Document: Trackable {
  let registrar = TrackingRegistrar()
  @Tracked var blob = Blob(size: 0)
  @Tracked var title = "untitled"
}

final class Child: Trackable {
  let registrar = TrackingRegistrar()
  @Tracked var count = 0
  init(count: Int = 0) { self.count = count }
}

final class Parent: Trackable {
  let registrar = TrackingRegistrar()
  @Tracked var child = Child()
  @Tracked var useChild = true
  @Tracked var fallback = -1
}

/// Hand-written accessors over custom storage, with a key shared by all instances.
final class Thermometer: Trackable {
  let registrar = TrackingRegistrar()
  static let celsiusKey = TrackingKey("celsius")
  private var storage = 20.0

  var celsius: Double {
    get {
      registrar.access(Self.celsiusKey)
      return storage
    }
    set {
      registrar.withMutation(of: Self.celsiusKey) { storage = newValue }
    }
  }

  /// A computed property over a tracked one: tracked through `celsius`.
  var fahrenheit: Double { celsius * 9 / 5 + 32 }
}

/// A model whose storage is synchronised, so threads may read and write it at once.
final class SharedCounter: Trackable, Sendable {
  let registrar = TrackingRegistrar()
  let valueKey = TrackingKey("value")
  let otherKey = TrackingKey("other")
  private let storage = Locked.make(0)
  private let otherStorage = Locked.make(0)

  var value: Int {
    get {
      registrar.access(valueKey)
      return storage.withLock { $0 }
    }
    set {
      registrar.withMutation(of: valueKey) { storage.withLock { $0 = newValue } }
    }
  }

  var other: Int {
    get {
      registrar.access(otherKey)
      return otherStorage.withLock { $0 }
    }
    set {
      registrar.withMutation(of: otherKey) { otherStorage.withLock { $0 = newValue } }
    }
  }

  func increment() {
    registrar.withMutation(of: valueKey) { storage.withLock { $0 += 1 } }
  }
}
