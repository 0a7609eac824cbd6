import Arboreal
import ArborealTracking

/// The tracked properties in which `model` differs from `expected`, recursively through their
/// child models: how a test checks a model as a whole, such as one an action presented.
///
/// ```swift
/// await store.send(.addTapped) { model in
///   #expect(stateDifferences(model.destination, Form(name: "")) == [])
/// }
/// ```
///
/// Every `@Tracked` property of `model` it compares counts as read by the assertion, so an
/// exhaustive ``TestStore`` needs nothing more for a new model compared this way. Its other
/// stored properties (its `let`s, where a wrapper model holds its child) are compared too. Values are
/// compared with `==` when their type is `Equatable`, models property by property, and other
/// values part by part as reflection shows them (their descriptions at the leaves).
///
/// - Parameters:
///   - model: The model in the state (nil when absent).
///   - expected: The model it should equal (nil for absent).
/// - Returns: One line per difference, `Form.name: "Blob" ≠ ""`; empty when they hold the
///   same state.
public func stateDifferences<Model: Trackable>(_ model: Model?, _ expected: Model?) -> [String] {
  var differences = StateComparison()
  differences.compare(model, expected, at: "\(Model.self)")
  return differences.lines
}

/// The walk behind ``stateDifferences(_:_:)``.
private struct StateComparison {
  var lines: [String] = []
  /// The pairs of models compared already (a model graph may share or loop).
  private var visited = Set<[ObjectIdentifier]>()

  mutating func compare(_ model: (any Trackable)?, _ expected: (any Trackable)?, at path: String) {
    switch (model, expected) {
    case (nil, nil):
      return
    case (nil, .some):
      lines.append("\(path): nil ≠ a model")
    case (.some, nil):
      lines.append("\(path): a model ≠ nil")
    case (.some(let model), .some(let expected)):
      guard type(of: model) == type(of: expected) else {
        lines.append("\(path): \(type(of: model)) ≠ \(type(of: expected))")
        return
      }
      guard visited.insert([ObjectIdentifier(model), ObjectIdentifier(expected)]).inserted
      else { return }
      let expectedProperties = trackedProperties(of: expected)
      for (property, other) in zip(trackedProperties(of: model), expectedProperties) {
        property.markRead()
        compareValues(property.value, other.value, at: "\(path).\(property.name)")
      }
      // The `let`s too: a wrapper model holds its child in one.
      for (stored, other) in zip(
        untrackedStoredValues(of: model), untrackedStoredValues(of: expected))
      {
        compareValues(stored.value, other.value, at: "\(path).\(stored.name)")
      }
    }
  }

  private mutating func compareValues(_ value: Any, _ expected: Any, at path: String) {
    // Only an object can be a model; asking first keeps a long array from the cast, which the
    // runtime answers by looking at its elements. An optional model is reached through the
    // optional's reflection below.
    let model = type(of: value) is AnyClass ? value as? any Trackable : nil
    let expectedModel = type(of: expected) is AnyClass ? expected as? any Trackable : nil
    if model != nil || expectedModel != nil {
      if let model, let expectedModel {
        compare(model, expectedModel, at: path)
      } else {
        lines.append("\(path): \(describeForTest(value)) ≠ \(describeForTest(expected))")
      }
      return
    }
    if let equatable = value as? any Equatable {
      if !Self.isEqual(equatable, expected) {
        lines.append("\(path): \(describeForTest(value)) ≠ \(describeForTest(expected))")
      }
      return
    }
    let mirror = Mirror(reflecting: value)
    let expectedMirror = Mirror(reflecting: expected)
    guard mirror.displayStyle != .class, mirror.children.count == expectedMirror.children.count,
      !mirror.children.isEmpty
    else {
      // A redacted value describes as its placeholder, whatever it holds: its secrets compare.
      if let secret = value as? any RedactedValueRevealing,
        let expectedSecret = expected as? any RedactedValueRevealing
      {
        compareValues(secret.revealedValue, expectedSecret.revealedValue, at: path)
        return
      }
      if String(reflecting: value) != String(reflecting: expected) {
        lines.append("\(path): \(describeForTest(value)) ≠ \(describeForTest(expected))")
      }
      return
    }
    for (index, (child, other)) in zip(mirror.children, expectedMirror.children).enumerated() {
      // An optional's value is named by the path to the optional.
      let step = mirror.displayStyle == .optional ? "" : "[\(child.label ?? "\(index)")]"
      compareValues(child.value, other.value, at: path + step)
    }
  }

  private static func isEqual<Value: Equatable>(_ value: Value, _ other: Any) -> Bool {
    guard let other = other as? Value else { return false }
    return value == other
  }
}
