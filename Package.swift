// swift-tools-version: 6.1
import Foundation
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

var targets: [Target] = [
    // libm: Double.rounded() links against it and a Foundation-free module does not pull it in.
    .target(name: "MeshCodec", path: "Modules/MeshCodec", swiftSettings: strict, linkerSettings: [.linkedLibrary("m")]),
    .executableTarget(
        name: "MeshportCodecDemo", dependencies: ["MeshCodec"],
        path: "Tools/CodecDemo", exclude: ["recorded-session.txt"], swiftSettings: strict),
    .executableTarget(
        name: "MeshportInteropExport", dependencies: ["MeshCodec"],
        path: "Tools/Interop/Export", swiftSettings: strict),
    .executableTarget(
        name: "MeshportBench", dependencies: ["MeshCodec"],
        path: "Tools/Benchmarks/MeshportBench", swiftSettings: strict),
    .testTarget(
        name: "MeshCodecTests", dependencies: ["MeshCodec"],
        path: "Tests/MeshCodecTests", swiftSettings: strict),
]

// The libFuzzer target has no `main` of its own (libFuzzer supplies it), so it only
// exists in the instrumented build that `make fuzz` runs with MESHPORT_FUZZ=1.
if ProcessInfo.processInfo.environment["MESHPORT_FUZZ"] == "1" {
    targets.append(
        .executableTarget(
            name: "MeshportFuzzCodec", dependencies: ["MeshCodec"],
            path: "Tools/Fuzz/FuzzCodec",
            swiftSettings: strict + [.unsafeFlags(["-parse-as-library"])]))
}

let package = Package(
    name: "Meshport",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "MeshCodec", targets: ["MeshCodec"]),
    ],
    targets: targets
)
