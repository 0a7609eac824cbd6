import Arboreal
import ArborealTracking

/// The distinct properties among recorded changes, first change first, each described with
/// its owner, name and current value: `Counter#1.count = 2`, `Item#2.title = "deux"`.
enum ChangeSummary {
  /// The changes no access in `accesses` read, one per property.
  ///
  /// - Complexity: O(*c* × *a*) for *c* changes and *a* accesses.
  static func unasserted(
    _ changes: [RecordedChange], accesses: Set<RecordedAccess>
  ) -> [RecordedChange] {
    var seen = Set<Property>()
    var result: [RecordedChange] = []
    for change in changes {
      guard seen.insert(Property(registrar: change.registrar, key: change.key)).inserted,
        !accesses.contains(where: { $0.matches(change) })
      else { continue }
      result.append(change)
    }
    return result
  }

  /// One property of one model.
  private struct Property: Hashable {
    let registrar: ObjectIdentifier
    let key: TrackingKey
  }

  /// `Counter#1.count = 2`.
  static func describe(_ change: RecordedChange) -> String {
    let value = change.currentValue.map(describeForTest) ?? "(unavailable)"
    return "\(change.key.qualifiedName) = \(value)"
  }
}
