// swift-tools-version: 6.1
import PackageDescription

// An HTTP server over a to-do list model, one store per session: an example of running
// Arboreal's stores inside actors of their own. A package of its own, so that the library
// never depends on Hummingbird: it depends on the library by path.
let package = Package(
  name: "TodoServer",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "Arboreal", path: "../.."),
    // No traits: the server reads no configuration files and needs no more of Foundation
    // than its JSON coders.
    .package(
      url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
    // Hummingbird's logger, to log a failed request.
    .package(url: "https://github.com/apple/swift-log", from: "1.14.0"),
    // Tests only: the client that drives the server over real HTTP, and the NIO modules whose
    // types its API speaks (`HTTPMethod`, `ByteBuffer`).
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
  ],
  targets: [
    // The server: the model, the sessions, the routes.
    .target(
      name: "TodoServer",
      dependencies: [
        .product(name: "Arboreal", package: "Arboreal"),
        .product(name: "ArborealDevtools", package: "Arboreal"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    // The command: reads the options and runs the server until it is stopped.
    .executableTarget(name: "todo-server", dependencies: ["TodoServer"]),

    // Tests
    // Start the server on a loopback port (Hummingbird's live test set-up picks a free one) and
    // drive it over real HTTP.
    .testTarget(
      name: "TodoServerTests",
      dependencies: [
        "TodoServer",
        .product(name: "Arboreal", package: "Arboreal"),
        .product(name: "ArborealDevtools", package: "Arboreal"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)

for target in package.targets {
  var settings = target.swiftSettings ?? []
  for feature in ["ExistentialAny", "MemberImportVisibility"] {
    settings.append(.enableUpcomingFeature(feature))
  }
  target.swiftSettings = settings
}
