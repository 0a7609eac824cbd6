import Arboreal
import ArborealTracking

/// The distinct properties among recorded changes, first change first, each described with
/// its model type, name and current value: `Counter.count = 2`.
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

  /// `Counter.count = 2`.
  static func describe(_ change: RecordedChange) -> String {
    let owner = change.model.map { "\(type(of: $0))." } ?? ""
    let value = change.currentValue.map { String(reflecting: $0) } ?? "(unavailable)"
    return "\(owner)\(change.key.name) = \(value)"
  }
}
