// swift-tools-version: 6.1
// A Meshport transport driver in a package of its own (Docs/plugin-authoring.md, "Building a
// driver outside this repository"): copy this folder anywhere, point MESHPORT_CHECKOUT at a
// checkout of Meshport (or replace the path dependency by the repository's URL), run
// `swift build`, and put the folder holding libMeshportDriverUnix.so on MESHPORT_PLUGIN_PATH.
import Foundation
import PackageDescription

// Inside the repository the checkout is two folders up.
let checkout = ProcessInfo.processInfo.environment["MESHPORT_CHECKOUT"] ?? "../.."
// SwiftPM names a path dependency after its folder.
let meshport = URL(fileURLWithPath: checkout).standardizedFileURL.lastPathComponent.lowercased()

let package = Package(
    name: "MeshportDriverUnix",
    platforms: [.macOS(.v13)],
    products: [
        // A shared library: what `meshport` loads from MESHPORT_PLUGIN_PATH.
        .library(name: "MeshportDriverUnix", type: .dynamic, targets: ["MeshportDriverUnix"]),
    ],
    dependencies: [.package(path: checkout)],
    targets: [
        .target(
            name: "MeshportDriverUnix", dependencies: [.product(name: "MeshDriverKit", package: meshport)],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
