import Arboreal

/// Why a property has its value: the step that last changed it, and the chain of actions and
/// effects that led to that step, from the action the program sent.
///
/// ```swift
/// let why = recording.explain(RecordedProperty(owner: "Search#1", name: "results"))
/// print(why!)
/// // Search#1.results was last changed by #5 resultsLoaded(["milk"])
/// //   #5 resultsLoaded(["milk"]) ← effect of #4
/// //   #4 debounced ← effect of #2
/// //   #2 queryChanged("mi")
/// ```
///
/// The chain follows each effect's action to the step whose update started the effect, until
/// a step the program sent (or an effect started before the recording began).
public struct ChangeExplanation<Action: Sendable>: Sendable, CustomStringConvertible {
  /// The property explained.
  public let property: RecordedProperty
  /// The step that last changed it.
  public let step: RecordedStep<Action>
  /// The steps that led to ``step``, ``step`` first, each followed by the step that started
  /// the effect it came from; the last was sent by the program, or came from an effect
  /// started before the recording.
  public let chain: [RecordedStep<Action>]

  /// Finds the step that last changed a property and the chain that led to it.
  ///
  /// - Parameters:
  ///   - property: The property and its owner, as the steps name them.
  ///   - steps: Steps numbered from 1 in order (a ``Recording``'s, or a ``StoreRecorder``'s).
  ///   - last: The last step to consider; by default, all.
  /// - Returns: nil if no step up to `last` changed the property.
  /// - Complexity: O(*n*) for *n* steps.
  public init?(
    _ property: RecordedProperty, in steps: [RecordedStep<Action>], upTo last: Int? = nil
  ) {
    let end = min(max(last ?? steps.count, 0), steps.count)
    guard let found = steps[0..<end].lastIndex(where: { $0.changes.contains(property) }) else {
      return nil
    }
    var chain = [steps[found]]
    while case .effect(let startedBy?) = chain[chain.count - 1].cause,
      steps.indices.contains(startedBy - 1), steps[startedBy - 1].sequence == startedBy,
      startedBy < chain[chain.count - 1].sequence
    {
      chain.append(steps[startedBy - 1])
    }
    self.property = property
    self.step = steps[found]
    self.chain = chain
  }

  /// The step that changed the property, then the chain, one step a line.
  public var description: String {
    (["\(property) was last changed by #\(step.sequence) \(step.action)"]
      + chain.map { "  \($0.summary)" }).joined(separator: "\n")
  }
}
