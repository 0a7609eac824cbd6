// swift-tools-version: 6.1
import PackageDescription

// A nested package, so that the library itself never depends on the benchmark tooling.
// Run with `swift package benchmark` from this folder, or `./compare.sh` for the comparison
// table against the toolchain's Observation module.
let package = Package(
  name: "Benchmarks",
  platforms: [
    // The library's floor (the Synchronization module).
    .macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2),
  ],
  dependencies: [
    // Named, because a path dependency is otherwise known by its folder name, which differs
    // between checkouts.
    .package(name: "Arboreal", path: ".."),
    .package(
      url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1",
      traits: ["MallocInterposer"]),
  ],
  targets: [
    // Benchmarks: package-benchmark discovers executable targets under `Benchmarks/<Name>/`.
    .executableTarget(
      name: "TrackingBenchmarks",
      dependencies: [
        .product(name: "ArborealTracking", package: "Arboreal"),
        .product(name: "Arboreal", package: "Arboreal"),
        .product(name: "ArborealObservation", package: "Arboreal"),
        .product(name: "ArborealDevtools", package: "Arboreal"),
        .product(name: "ArborealPersistence", package: "Arboreal"),
        .product(name: "Benchmark", package: "package-benchmark"),
      ],
      path: "Benchmarks/TrackingBenchmarks",
      plugins: [
        .plugin(name: "BenchmarkPlugin", package: "package-benchmark")
      ]
    ),

    // Memory: bytes per model and per registration, ours against Observation, measured with
    // the C library's allocator statistics (no interposer, so that nothing else allocates).
    .executableTarget(
      name: "MemoryProfile",
      dependencies: [
        .product(name: "ArborealTracking", package: "Arboreal"),
        "AllocatorStatistics",
      ]
    ),
    .target(name: "AllocatorStatistics"),

    // Sessions: actions per second with 2 session actors (each owning a store) against 1, in
    // a process of its own: package-benchmark's runner blocks a thread of the concurrency
    // pool while an async benchmark runs, which leaves one of two cores to the sessions.
    .executableTarget(
      name: "SessionScaling",
      dependencies: [
        .product(name: "Arboreal", package: "Arboreal"),
        .product(name: "ArborealTracking", package: "Arboreal"),
      ]
    ),

    // Derived contention: the derived graph read from 2 threads against 1, and written on one
    // while another reads, on threads of its own (the runner's pool would leave one).
    .executableTarget(
      name: "DerivedContention",
      dependencies: [
        .product(name: "ArborealTracking", package: "Arboreal")
      ]
    ),

    // Profiling: the main scenarios without package-benchmark, for valgrind's callgrind.
    .executableTarget(
      name: "TrackingProfile",
      dependencies: [
        .product(name: "Arboreal", package: "Arboreal"),
        .product(name: "ArborealDevtools", package: "Arboreal"),
        .product(name: "ArborealObservation", package: "Arboreal"),
        .product(name: "ArborealTracking", package: "Arboreal"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .regular || target.name != "AllocatorStatistics"
{
  var settings = target.swiftSettings ?? []
  for feature in ["ExistentialAny", "MemberImportVisibility"] {
    settings.append(.enableUpcomingFeature(feature))
  }
  target.swiftSettings = settings
}
