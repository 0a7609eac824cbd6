/// A model that can be saved as a value and rebuilt from it: what a recording starts from,
/// what replay compares, and what time travel jumps back to.
///
/// ```swift
/// extension Counter: ReplayableModel {
///   struct Snapshot: Codable, Equatable, Sendable {
///     var count: Int
///   }
///
///   var snapshot: Snapshot { Snapshot(count: count) }
///
///   convenience init(snapshot: Snapshot) {
///     self.init()
///     count = snapshot.count
///   }
/// }
/// ```
///
/// The snapshot must hold everything `update` depends on, the untracked properties too (a
/// counter that hands out ids, a revision number): two models with equal snapshots must give
/// equal snapshots after the same action. Child models are saved inside their parent's
/// snapshot. Snapshots are compared with `==` to check that a replay reproduced a state.
public protocol ReplayableModel: ArborealModel {
  /// The model's state as a value.
  associatedtype Snapshot: Codable & Equatable & Sendable

  /// The model's state now, children included.
  var snapshot: Snapshot { get }

  /// Creates a model in the state a snapshot describes.
  ///
  /// - Parameter snapshot: A snapshot of a model of this type.
  init(snapshot: Snapshot)
}
