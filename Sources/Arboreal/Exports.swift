// `import Arboreal` is enough to declare a model: `Trackable`, `@Tracked`, `TrackingRegistrar`,
// `observe(_:)` and the rest of the tracking layer come with it.
@_exported import ArborealTracking
