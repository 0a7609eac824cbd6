// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "Arboreal",
  platforms: [
    // The floor of the Synchronization module (`Mutex`, `Atomic`) the registrar is built on.
    .macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2),
  ],
  products: [
    .library(name: "ArborealTracking", targets: ["ArborealTracking"]),
    .library(name: "Arboreal", targets: ["Arboreal"]),
    .library(name: "ArborealTesting", targets: ["ArborealTesting"]),
    .library(name: "ArborealObservation", targets: ["ArborealObservation"]),
    .library(name: "ArborealDevtools", targets: ["ArborealDevtools"]),
    .library(name: "ArborealPersistence", targets: ["ArborealPersistence"]),
  ],
  dependencies: [],
  targets: [
    // Core Library
    .target(name: "ArborealTracking"),
    .target(name: "Arboreal", dependencies: ["ArborealTracking"]),
    .target(name: "ArborealTesting", dependencies: ["Arboreal", "ArborealTracking"]),
    // Keeping a model in a file between runs: a production feature, apart from the devtools.
    // With the devtools, the only library targets that import Foundation (for JSON and
    // files), so that the store itself never does.
    .target(name: "ArborealPersistence", dependencies: ["Arboreal"]),
    // Recording, replay, time travel, the viewer; their files are written with persistence's
    // file writing and JSON text.
    // The recording viewer's page is three files in `Viewer/`, embedded at build time by the
    // plugin (a string constant each), so that it ships inside the binary.
    .target(
      name: "ArborealDevtools", dependencies: ["Arboreal", "ArborealPersistence"],
      exclude: ["Viewer"], plugins: ["EmbedViewerPage"]),
    .plugin(
      name: "EmbedViewerPage", capability: .buildTool(), dependencies: ["EmbedText"],
      path: "Plugins/EmbedViewerPage"),
    .executableTarget(name: "EmbedText", path: "Plugins/EmbedText"),
    // Interop: the only target that imports the toolchain's Observation module, kept out of
    // Sources so that the registrar's independence from it is visible in the tree.
    // It needs nothing of the store, so it depends on the registrar alone.
    .target(
      name: "ArborealObservation", dependencies: ["ArborealTracking"],
      path: "Interop/ArborealObservation"),

    // Examples
    // What the example programs share (console output, input lines, hidden input); `package`
    // access, not a product.
    .target(name: "ExampleSupport", path: "Examples/ExampleSupport"),
    .executableTarget(
      name: "todos",
      dependencies: ["Arboreal", "ArborealDevtools", "ArborealPersistence", "ExampleSupport"],
      path: "Examples/Todos"),
    .executableTarget(
      name: "signup", dependencies: ["Arboreal", "ArborealDevtools", "ExampleSupport"],
      path: "Examples/Signup"),
    .executableTarget(
      name: "meetings", dependencies: ["Arboreal", "ArborealDevtools", "ExampleSupport"],
      path: "Examples/Meetings"),

    // Tests
    // A helper that `ExamplesTests` runs and kills mid-burst to check what a recording keeps;
    // an executable, not an example.
    .executableTarget(
      name: "recorder-burst", dependencies: ["Arboreal", "ArborealDevtools"],
      path: "Tests/RecorderBurst"),
    // The same for a `StorePersister`: killed mid-burst of saves, its file must stay whole.
    .executableTarget(
      name: "persist-burst", dependencies: ["Arboreal", "ArborealPersistence"],
      path: "Tests/PersistBurst"),
    // What several test targets share: a seeded generator, a thread-safe log, the switch of
    // the reliability suites. Depends on the registrar for its ThreadSanitizer-aware lock.
    .target(
      name: "ArborealTestSupport", dependencies: ["ArborealTracking"], path: "Tests/TestSupport"),
    .testTarget(
      name: "ArborealTrackingTests", dependencies: ["ArborealTracking", "ArborealTestSupport"]),
    .testTarget(name: "ArborealTests", dependencies: ["Arboreal", "ArborealTestSupport"]),
    .testTarget(
      name: "ArborealTestingTests", dependencies: ["ArborealTesting", "ArborealTestSupport"]),
    .testTarget(
      name: "ArborealDevtoolsTests",
      dependencies: [
        "ArborealDevtools", "ArborealPersistence", "ArborealTesting", "ArborealTestSupport",
      ]),
    .testTarget(
      name: "ArborealObservationTests", dependencies: ["ArborealObservation", "Arboreal"]),
    // Runs the example executables as processes; depends on nothing of the library but the
    // shared test support.
    .testTarget(name: "ExamplesTests", dependencies: ["ArborealTestSupport"]),
    // The README's examples again, in a module whose default isolation is the main actor (the
    // default of new app targets): they must compile and pass unchanged there too. The files
    // are links to the README's test files in the other test targets.
    .testTarget(
      name: "DefaultMainActorTests",
      dependencies: ["Arboreal", "ArborealTesting", "ArborealTestSupport"],
      swiftSettings: [.defaultIsolation(MainActor.self)]),
    // The models of the `meetings` example, through the test store and its clock.
    .testTarget(
      name: "MeetingsModelTests", dependencies: ["meetings", "ArborealDevtools", "ArborealTesting"]),
  ],
  swiftLanguageModes: [.v6]
)

// `ARBOREAL_NEW_DERIVED=1` in the environment builds the new derived engine, as
// `-Xswiftc -DARBOREAL_NEW_DERIVED` does (issue 51): what lets `Benchmarks/compare.sh`, which
// cannot pass compiler flags, measure it.
let buildsNewDerivedEngine = Context.environment["ARBOREAL_NEW_DERIVED"] == "1"

for target in package.targets where target.type != .plugin {
  var settings = target.swiftSettings ?? []
  for feature in ["ExistentialAny", "MemberImportVisibility"] {
    settings.append(.enableUpcomingFeature(feature))
  }
  if buildsNewDerivedEngine { settings.append(.define("ARBOREAL_NEW_DERIVED")) }
  target.swiftSettings = settings
}
