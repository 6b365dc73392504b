// swift-tools-version: 6.1
import Foundation
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

// The executable is linked by the toolchain's lld with packed relative relocations (DT_RELR,
// glibc 2.36+): the loader reads 12 KB of them instead of 1.4 MB that stayed resident. Release
// builds also lay functions out in the order Tools/Link/meshport.order gives (made by
// Tools/Link/make-order.sh from a profiled `meshport serve`), so the code a running server uses
// sits together rather than in every 64 KB block the kernel maps around a page. Names the
// order lists that no longer exist are skipped.
let meshportLinking: [LinkerSetting] = [
    .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"]),
    .unsafeFlags(["-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Tools/Link/meshport.order",
                  "-Xlinker", "--no-warn-symbol-ordering"], .when(configuration: .release)),
]

var targets: [Target] = [
    // libm: Double.rounded() links against it and a Foundation-free module does not pull it in.
    .target(name: "MeshCodec", path: "Modules/MeshCodec", swiftSettings: strict, linkerSettings: [.linkedLibrary("m")]),
    // Ed25519, X25519 and SHA-512 in pure Swift, for simulated nodes and signature checks;
    // packet sealing (AES-128, HMAC-SHA256) through swift-crypto.
    .target(
        name: "MeshCrypto",
        dependencies: [.product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto")],
        // Optimized in debug builds too: unoptimized, a key pair takes 5 ms of a thread that
        // every simulated radio (23 keys each) and test shares.
        path: "Modules/MeshCrypto", swiftSettings: strict + [.unsafeFlags(["-O"], .when(configuration: .debug))]),
    // The driver ABI: one C header shared by the host and every plugin; the pkg-config file
    // is for drivers built outside this package (Docs/plugin-authoring.md).
    .target(name: "MeshDriverABI", path: "Modules/MeshDriverABI", exclude: ["meshport-driver.pc"]),
    // Transport URLs split into their generic parts, and discovered radios: what the host and
    // the drivers share besides the C header (no scheme rules, no Foundation, no codec).
    .target(name: "MeshTransportURL", path: "Modules/MeshTransportURL", swiftSettings: strict),
    .target(
        name: "MeshTransport", dependencies: ["MeshCodec", "MeshDriverABI", "MeshTransportURL", .product(name: "Logging", package: "swift-log")],
        path: "Modules/MeshTransport", swiftSettings: strict),
    // The commands only a conformance far side answers (0x7C-0x7E): the suite sends them,
    // MeshSim answers them.
    .target(name: "MeshConformanceCommands", path: "Modules/MeshConformanceCommands", swiftSettings: strict),
    // A simulated companion radio and the mesh around it; pure Swift on MeshCodec, no I/O.
    .target(name: "MeshSim", dependencies: ["MeshCodec", "MeshCrypto", "MeshConformanceCommands"], path: "Modules/MeshSim", swiftSettings: strict),
    // MeshSim on stream links: the TCP and pty listeners of `meshport sim` and the tests.
    .target(name: "MeshSimServe", dependencies: ["MeshSim", "MeshCodec", "MeshDriverKit"], path: "Modules/MeshSimServe", swiftSettings: strict),
    // Client sessions: one actor per radio link, values across boundaries.
    // Its MeshportVersion holds the VERSION file's number and the git commit, written for each
    // build by the MeshportBuildInfo plugin (Tools/build-info.sh).
    .target(
        name: "MeshServices", dependencies: ["MeshCodec", "MeshCrypto", "MeshTransport", "MeshStore", .product(name: "Logging", package: "swift-log")],
        path: "Modules/MeshServices", swiftSettings: strict, plugins: ["MeshportBuildInfo"]),
    .plugin(name: "MeshportBuildInfo", capability: .buildTool(), path: "Tools/BuildInfo"),
    // Gateway mode: the community uplink's topics, messages and broker token (no MQTT here).
    // JSON written straight into bytes, for the server's busiest answers and the uplink.
    .target(name: "MeshJSON", path: "Modules/MeshJSON", swiftSettings: strict),
    .target(name: "MeshGateway", dependencies: ["MeshCodec", "MeshJSON"], path: "Modules/MeshGateway", swiftSettings: strict),
    .target(
        name: "MeshConformance", dependencies: ["MeshCodec", "MeshTransport", "MeshConformanceCommands"],
        path: "Modules/MeshConformance", swiftSettings: strict),
    // What a Swift driver builds on: only the ABI and the URL module, so a plugin carries no
    // copy of the host's modules (Docs/plugin-authoring.md).
    .target(
        name: "MeshDriverKit", dependencies: ["MeshDriverABI", "MeshTransportURL"],
        path: "Modules/MeshDriverKit", swiftSettings: strict),
    .target(
        name: "MeshportDriverTCP", dependencies: ["MeshDriverKit"],
        path: "Plugins/TCP", swiftSettings: strict),
    // The serial driver lives in a module (MeshSerial) so the USB guest benchmark can link it;
    // the plugin is only its entry point.
    .target(name: "MeshSerial", dependencies: ["MeshDriverKit"], path: "Plugins/Serial/MeshSerial", swiftSettings: strict),
    .target(
        name: "MeshportDriverSerial", dependencies: ["MeshSerial", "MeshDriverKit"],
        path: "Plugins/Serial/Driver", swiftSettings: strict),
    // ci.sh: how a C driver's own CI builds and checks it (Docs/plugin-authoring.md).
    .target(name: "MeshportExampleLoopback", dependencies: ["MeshDriverABI"], path: "Plugins/Loopback", exclude: ["ci.sh"]),
    .target(name: "MeshportTestBadABI", dependencies: ["MeshDriverABI"], path: "Tests/Fixtures/BadABIDriver"),
    .target(name: "MeshportTestNoEntry", path: "Tests/Fixtures/NoEntryDriver"),
    .target(name: "MeshportTestOldABI", dependencies: ["MeshDriverABI"], path: "Tests/Fixtures/OldABIDriver"),
    .target(name: "MeshportTestShortDescriptor", dependencies: ["MeshDriverABI"], path: "Tests/Fixtures/ShortDescriptorDriver"),
    .target(
        name: "MeshStore",
        dependencies: [
            "MeshCodec", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
        ],
        path: "Modules/MeshStore", swiftSettings: strict),
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
    .testTarget(
        name: "MeshCryptoTests", dependencies: ["MeshCrypto", "MeshCodec"],
        path: "Tests/MeshCryptoTests", swiftSettings: strict),
    .testTarget(
        name: "MeshSimTests", dependencies: ["MeshSim", "MeshSimServe", "MeshConformanceCommands", "MeshCodec", "MeshCrypto", "MeshportTestSupport"],
        path: "Tests/MeshSimTests", swiftSettings: strict),
    .testTarget(
        name: "MeshServicesTests", dependencies: ["MeshServices", "MeshCodec", "MeshSim", "MeshTransport", "MeshStore", "MeshCrypto", "MeshGateway", "MeshportTestSupport",
                                             .product(name: "GRDB", package: "GRDB.swift")],
        path: "Tests/MeshServicesTests", swiftSettings: strict),
    .testTarget(
        name: "MeshGatewayTests", dependencies: ["MeshGateway", "MeshCodec", "MeshCrypto", "MeshSim", "MeshportTestSupport"],
        path: "Tests/MeshGatewayTests", swiftSettings: strict),
    .testTarget(
        name: "MeshTransportTests", dependencies: ["MeshTransport", "MeshDriverKit", "MeshSimServe", "MeshSim", "MeshConformanceCommands", "MeshportTestSupport"],
        path: "Tests/MeshTransportTests", swiftSettings: strict),
    // Helpers the test targets share: running the meshport executable, temporary folders, the
    // crash test's acknowledgements.
    .target(name: "MeshportTestSupport", dependencies: ["MeshStore"], path: "Tests/Support", swiftSettings: strict),
    // Test-only executables, built beside `meshport` and never linked into it: the crash test's
    // ingest workload (KillTests, Tools/Store/kill-rounds.sh), and `meshport serve` plus a route
    // publishing synthetic events (EventsTests, Tools/Benchmarks/Serve).
    .executableTarget(
        name: "MeshportTestIngest",
        dependencies: ["MeshStore", "MeshCodec", "MeshportTestSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")],
        path: "Tests/Tools/TestIngest", swiftSettings: strict),
    .executableTarget(
        name: "MeshportTestServe",
        dependencies: ["MeshportCLI", "MeshportServer", .product(name: "Hummingbird", package: "hummingbird")],
        path: "Tests/Tools/TestServe", swiftSettings: strict),
    .testTarget(
        name: "MeshStoreTests",
        dependencies: ["MeshStore", "MeshCodec", "MeshportTestSupport", .product(name: "GRDB", package: "GRDB.swift")],
        path: "Tests/MeshStoreTests", resources: [.copy("Fixtures")], swiftSettings: strict),
    // The command line: command types live in a library so later issues add subcommands there;
    // the executable stays a one-line main.
    .target(
        name: "MeshportCLI",
        dependencies: [
            "MeshStore", "MeshCodec", "MeshTransport", "MeshConformance", "MeshSim", "MeshSimServe", "MeshServices", "MeshBLE", "MeshportServer",
            "MeshUplink", "MeshIngest", "MeshRegion", "MeshSerial", "MeshUSB",
            .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "TOMLKit", package: "TOMLKit"),
            .product(name: "Logging", package: "swift-log"),
        ],
        path: "Modules/MeshportCLI", swiftSettings: strict),
    .executableTarget(name: "meshport", dependencies: ["MeshportCLI"], path: "Modules/meshport", swiftSettings: strict,
                      linkerSettings: meshportLinking),
    // The meshport client commands end to end: the real executable against `meshport sim`;
    // `meshport doctor`'s checks against prepared trees (through the library).
    .testTarget(
        name: "MeshportCLITests",
        dependencies: ["MeshportTestSupport", "MeshCodec", "MeshSim", "MeshConformanceCommands", "MeshportCLI", "MeshServices",
                       .product(name: "Logging", package: "swift-log")],
        path: "Tests/MeshportCLITests", swiftSettings: strict),
    .executableTarget(
        name: "MeshportTransportBench", dependencies: ["MeshTransport", "MeshConformance", "MeshSimServe", "MeshCodec"],
        path: "Tools/Benchmarks/TransportBench", swiftSettings: strict),
    .executableTarget(
        name: "MeshportStoreBench",
        dependencies: ["MeshStore", "MeshCodec", .product(name: "GRDB", package: "GRDB.swift")],
        path: "Tools/Benchmarks/StoreBench", swiftSettings: strict),
    .executableTarget(
        name: "MeshportSimBench", dependencies: ["MeshSim", "MeshCodec"],
        path: "Tools/Benchmarks/SimBench", swiftSettings: strict),
    // BLE: Meshport's own LE host (HCI, L2CAP, ATT/GATT, SMP), one file per layer, tested
    // without I/O; the driver plugin wraps it (Plugins/BLE).
    .systemLibrary(name: "CBluetooth", path: "Plugins/BLE/CBluetooth"),
    .target(
        name: "MeshBLE",
        dependencies: ["CBluetooth", .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto")],
        path: "Plugins/BLE/MeshBLE", swiftSettings: strict),
    .target(
        name: "MeshportDriverBLE", dependencies: ["MeshBLE", "MeshDriverKit"],
        path: "Plugins/BLE/Driver", swiftSettings: strict),
    .testTarget(name: "MeshBLETests", dependencies: ["MeshBLE", "MeshportTestSupport"], path: "Tests/MeshBLETests", swiftSettings: strict),
    // Meshport's LE host against Bumble's on one emulated world (Tools/Benchmarks/BLE/run.sh).
    .executableTarget(name: "MeshportBLEBench", dependencies: ["MeshBLE"], path: "Tools/Benchmarks/BLEBench", swiftSettings: strict),
    // USB: libusb-1.0 through a system library; chips and links in MeshUSB (one file per chip
    // family, tested through recorded control transfers), the plugin is only its entry point.
    .systemLibrary(name: "CLibUSB", path: "Plugins/USB/CLibUSB", providers: [.apt(["libusb-1.0-0-dev"])]),
    .systemLibrary(name: "CUSBFS", path: "Plugins/USB/CUSBFS"),
    .target(name: "MeshUSB", dependencies: ["CLibUSB", "CUSBFS", "MeshDriverKit"], path: "Plugins/USB/MeshUSB", swiftSettings: strict),
    .target(name: "MeshportDriverUSB", dependencies: ["MeshUSB", "MeshDriverKit"], path: "Plugins/USB/Driver", swiftSettings: strict),
    .testTarget(name: "MeshUSBTests", dependencies: ["MeshUSB", "MeshTransportURL", "MeshportTestSupport"], path: "Tests/MeshUSBTests", swiftSettings: strict),
    // The conformance suite over usb:// and ble:// (the guest kernel's own hci0) inside a QEMU
    // guest (Tools/USB): the drivers are linked in, since a static executable cannot dlopen a
    // Swift plugin.
    .executableTarget(
        name: "MeshportGuest",
        dependencies: ["MeshUSB", "MeshSerial", "MeshportDriverBLE", "MeshBLE", "CBluetooth", "MeshDriverKit", "MeshConformance", "MeshConformanceCommands", "MeshSim", "MeshTransport"],
        path: "Tools/USB/Guest", swiftSettings: strict),
    // The local server (`meshport serve`): HTTP and WebSocket API on Hummingbird, the companion
    // protocol re-exported over TCP, static files of the web UI from Web/.
    .target(
        name: "MeshportServer",
        dependencies: [
            "MeshCodec", "MeshStore", "MeshServices", "MeshTransport", "MeshUplink", "MeshRegion", "MeshMQTT", "MeshJSON",
            .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOWebSocket", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"), .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Metrics", package: "swift-metrics"), .product(name: "Prometheus", package: "swift-prometheus"),
        ],
        path: "Modules/MeshportServer", resources: [.copy("Web")], swiftSettings: strict),
    .testTarget(
        name: "MeshportServerTests",
        dependencies: [
            "MeshportServer", "MeshportTestSupport", "MeshCodec", "MeshServices", "MeshStore", "MeshTransport", "MeshRegion", "MeshJSON",
            .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
        ],
        path: "Tests/MeshportServerTests", swiftSettings: strict),
    // MQTT: Eclipse Paho's asynchronous C client (libpaho-mqtt3as: TLS, WebSockets) through a
    // system library; MeshMQTT wraps it in an actor with its own bounded backlog (Docs/mqtt.md).
    .systemLibrary(name: "CPahoMQTT", path: "Modules/CPahoMQTT", providers: [.apt(["libpaho-mqtt-dev"])]),
    .target(name: "MeshMQTT", dependencies: ["CPahoMQTT", .product(name: "Logging", package: "swift-log")], path: "Modules/MeshMQTT", swiftSettings: strict),
    .testTarget(name: "MeshMQTTTests", dependencies: ["MeshMQTT", "MeshportTestSupport"], path: "Tests/MeshMQTTTests", swiftSettings: strict),
    // A gateway's uplink: one radio's heard packets and status to one broker in the community
    // format (MeshGateway) over MeshMQTT; `serve --mqtt` and `meshport uplink` run it.
    // Region history: the records ingest workers write and the PostgreSQL store behind them
    // (postgres-nio, with NIOSSL for TLS to the database; swift-crypto for the raw packets' SHA-256 keys).
    .target(
        name: "MeshRegion",
        dependencies: [
            .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "Crypto", package: "swift-crypto"),
        ],
        path: "Modules/MeshRegion", swiftSettings: strict),
    .testTarget(
        name: "MeshRegionTests",
        dependencies: ["MeshRegion", "MeshportTestSupport", .product(name: "PostgresNIO", package: "postgres-nio")],
        path: "Tests/MeshRegionTests", swiftSettings: strict),
    .target(
        name: "MeshUplink", dependencies: ["MeshGateway", "MeshMQTT", "MeshServices", "MeshCodec", .product(name: "Logging", package: "swift-log")], path: "Modules/MeshUplink", swiftSettings: strict),
    // Ingest workers: the community topics from a broker (MQTT 5 shared subscription) through a
    // local spool into a RegionSink, in batches (Docs/ingest.md).
    .target(
        name: "MeshIngest", dependencies: ["MeshMQTT", "MeshRegion", "MeshCodec", "MeshCrypto", .product(name: "Logging", package: "swift-log")], path: "Modules/MeshIngest", swiftSettings: strict),
    .testTarget(
        name: "MeshIngestTests",
        dependencies: ["MeshIngest", "MeshRegion", "MeshMQTT", "MeshGateway", "MeshCodec", "MeshCrypto", "MeshSim", "MeshportTestSupport"],
        path: "Tests/MeshIngestTests", swiftSettings: strict),
    // A worker with a sink writing lines to a file, for the test that kills it with SIGKILL (MeshIngestTests).
    .executableTarget(name: "MeshportTestIngestWorker", dependencies: ["MeshIngest", "MeshRegion", "MeshMQTT"], path: "Tests/Tools/TestIngestWorker", swiftSettings: strict),
    .testTarget(name: "MeshUplinkTests", dependencies: ["MeshportTestSupport", "MeshCodec", "MeshUplink"], path: "Tests/MeshUplinkTests", swiftSettings: strict),
    // A client that connects with a last will and waits to be killed (MeshMQTTTests).
    .executableTarget(name: "MeshportTestMQTTWill", dependencies: ["MeshMQTT"], path: "Tests/Tools/TestMQTTWill", swiftSettings: strict),
    // RadioSession against meshcore_py on one `meshport sim`, and contact sync on a paced serial line
    // (Tools/Benchmarks/run.sh, "session").
    .executableTarget(
        name: "MeshportSessionBench", dependencies: ["MeshServices", "MeshTransport", "MeshCodec"],
        path: "Tools/Benchmarks/SessionBench", exclude: ["README.md", "rounds.sh", "serial-sync.sh", "session-bench.json"], swiftSettings: strict),
]

// The libFuzzer targets have no `main` of their own (libFuzzer supplies it), so they only
// exist in the instrumented build that Tools/Fuzz/run.sh makes with MESHPORT_FUZZ=1: one per
// parser a peer controls, each in Tools/Fuzz/Fuzz<Name> (Tools/Fuzz/README.md).
if ProcessInfo.processInfo.environment["MESHPORT_FUZZ"] == "1" {
    targets.append(.target(name: "MeshportFuzzSupport", path: "Tools/Fuzz/Support", swiftSettings: strict))
    let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
        ("Codec", ["MeshCodec"]),
        ("Air", ["MeshCodec", "MeshCrypto", "MeshServices", "MeshStore"]),
        ("HCI", ["MeshBLE"]),
        ("ATT", ["MeshBLE"]),
        ("SMP", ["MeshBLE"]),
        ("USB", ["MeshUSB"]),
        ("Scenario", ["MeshSim", "MeshCodec"]),
        ("SavedState", ["MeshSim"]),
        ("Ingest", ["MeshIngest", "MeshRegion"]),
    ]
    for target in fuzzTargets {
        targets.append(
            .executableTarget(
                name: "MeshportFuzz\(target.name)", dependencies: target.dependencies + ["MeshportFuzzSupport"],
                path: "Tools/Fuzz/Fuzz\(target.name)",
                swiftSettings: strict + [.unsafeFlags(["-parse-as-library"])]))
    }
}

let package = Package(
    name: "Meshport",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "MeshCodec", targets: ["MeshCodec"]),
        .library(name: "MeshCrypto", targets: ["MeshCrypto"]),
        // For Swift drivers in packages of their own (Plugins/Template).
        .library(name: "MeshDriverKit", targets: ["MeshDriverKit"]),
        // Transport drivers: each its own shared library, loaded at run time.
        .library(name: "MeshportDriverTCP", type: .dynamic, targets: ["MeshportDriverTCP"]),
        .library(name: "MeshportDriverSerial", type: .dynamic, targets: ["MeshportDriverSerial"]),
        .library(name: "MeshportDriverBLE", type: .dynamic, targets: ["MeshportDriverBLE"]),
        .library(name: "MeshportDriverUSB", type: .dynamic, targets: ["MeshportDriverUSB"]),
        // The example driver in C, and fixtures the loader must refuse; not built-in (other prefix).
        .library(name: "MeshportExampleLoopback", type: .dynamic, targets: ["MeshportExampleLoopback"]),
        .library(name: "MeshportTestBadABI", type: .dynamic, targets: ["MeshportTestBadABI"]),
        .library(name: "MeshportTestNoEntry", type: .dynamic, targets: ["MeshportTestNoEntry"]),
        .library(name: "MeshportTestOldABI", type: .dynamic, targets: ["MeshportTestOldABI"]),
        .library(name: "MeshportTestShortDescriptor", type: .dynamic, targets: ["MeshportTestShortDescriptor"]),
        .library(name: "MeshStore", targets: ["MeshStore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // TLS to PostgreSQL (postgres-nio's own TLS library).
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // /metrics: swift-metrics types on a Prometheus registry of each server's own.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // `meshport serve --config`: TOML through toml++.
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
    ],
    targets: targets
)
