import ArborealTracking

extension TrackingRegistrar {
  /// Creates a registrar that also reports its model's reads and changes to the toolchain's
  /// `Observation`, for an ``ObservableTrackable`` model.
  ///
  /// ```swift
  /// final class Counter: ObservableTrackable {
  ///   let registrar = TrackingRegistrar.observable()
  ///   @Tracked var count = 0
  /// }
  /// ```
  ///
  /// Each property is its own `Observation` property: an observer of `count` is not told of a
  /// change of another property.
  ///
  /// - Returns: A new registrar with no observers.
  public static func observable() -> TrackingRegistrar {
    TrackingRegistrar(mirror: ObservationMirror())
  }
}
