import Foundation
import Testing
@testable import MeshTransport

/// The directory SwiftPM built the plugins into (the test runner lives there too).
let binDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path
func builtLibrary(_ product: String) -> String { "\(binDirectory)/lib\(product).so" }

/// A fresh private directory holding copies of the given files (mode 0755 unless told).
func pluginDirectory(_ files: [(source: String, name: String, mode: Int)]) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("meshport-plugins-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    for f in files {
        let dest = "\(dir)/\(f.name)"
        try FileManager.default.copyItem(atPath: f.source, toPath: dest)
        try FileManager.default.setAttributes([.posixPermissions: f.mode], ofItemAtPath: dest)
    }
    return dir
}

@Suite struct PluginLoaderTests {
    @Test func loadsBuiltInDriversBesideTheExecutable() throws {
        var loader = PluginLoader()
        loader.load(directories: [(binDirectory, true)])
        let tcp = try #require(loader.driver(for: "tcp"))
        #expect(tcp.name == "tcp" && tcp.linkKind == .stream && tcp.maxFrameSize == 176)
        // Only libMeshportDriver*.so count as built-in: fixtures and the example are not loaded.
        #expect(loader.driver(for: "loopback") == nil)
        #expect(!loader.refused.contains { $0.path.contains("BadABI") })
    }

    /// Loading for known schemes maps only what it needs, and picks the driver loading all would.
    @Test func loadsOnlyUntilTheWantedSchemesAreFound() throws {
        var all = PluginLoader()
        all.load(directories: [(binDirectory, true)])
        #expect(all.loaded.count >= 3, "\(all.loaded.map(\.name))")
        var some = PluginLoader()
        some.load(directories: [(binDirectory, true)], until: ["tcp"])
        #expect(some.loaded.map(\.name) == ["tcp"] && some.driver(for: "tcp")?.path == all.driver(for: "tcp")?.path)
        // A scheme nobody claims loads everything, so an error can list what there is.
        var none = PluginLoader()
        none.load(directories: [(binDirectory, true)], until: ["nosuch"])
        #expect(none.loaded.map(\.name) == all.loaded.map(\.name))
        // Across directories the earlier one still wins, even when a later file is named for the scheme.
        let later = try pluginDirectory([(builtLibrary("MeshportDriverTCP"), "libMeshportDriverTCP.so", 0o755)])
        var ordered = PluginLoader()
        ordered.load(directories: [(binDirectory, true), (later, false)], until: ["tcp"])
        #expect(ordered.driver(for: "tcp")?.path == all.driver(for: "tcp")?.path && ordered.refused.isEmpty)
    }

    @Test func loadsTheCExampleFromThePluginPath() throws {
        let dir = try pluginDirectory([(builtLibrary("MeshportExampleLoopback"), "libloopback.so", 0o755)])
        let loader = PluginLoader.loadDefault(environment: ["MESHPORT_PLUGIN_PATH": "/nonexistent:\(dir)"])
        let d = try #require(loader.driver(for: "loopback"))
        #expect(d.linkKind == .packet && d.version == "1.0.0" && d.path == "\(dir)/libloopback.so")
    }

    @Test func refusals() throws {
        let text = FileManager.default.temporaryDirectory.appendingPathComponent("not-elf-\(UUID().uuidString)").path
        try Data("#!/bin/sh\necho not a library\n".utf8).write(to: URL(fileURLWithPath: text))
        let dir = try pluginDirectory([
            (builtLibrary("MeshportTestBadABI"), "a-bad-abi.so", 0o755),
            (builtLibrary("MeshportTestNoEntry"), "b-no-entry.so", 0o755),
            (text, "c-text.so", 0o755),
            (builtLibrary("MeshportDriverTCP"), "d-tcp.so", 0o755),
            (builtLibrary("MeshportDriverTCP"), "e-tcp-again.so", 0o755),
            (builtLibrary("MeshportExampleLoopback"), "f-group-writable.so", 0o775),
        ])
        var loader = PluginLoader()
        loader.load(directories: [(dir, false)])
        let reasons = Dictionary(uniqueKeysWithValues: loader.refused.map { (URL(fileURLWithPath: $0.path).lastPathComponent, $0.reason) })
        #expect(reasons["a-bad-abi.so"]?.contains("majors differ") == true, "\(reasons)")
        #expect(reasons["b-no-entry.so"]?.contains("missing entry symbol meshport_driver_entry") == true)
        #expect(reasons["c-text.so"]?.contains("not a shared object") == true)
        #expect(reasons["e-tcp-again.so"]?.contains("scheme \"tcp\" is already claimed by tcp") == true)
        #expect(reasons["f-group-writable.so"]?.contains("writable by group or others") == true)
        #expect(reasons["f-group-writable.so"]?.contains("chmod go-w") == true)
        #expect(loader.loaded.map(\.name) == ["tcp"])
    }

    /// A driver built for ABI 1.0 loads; the 1.1 fields its descriptor_size does not cover
    /// (the fixture puts a refusing validate and every flag there) are never read.
    @Test func loadsADriverBuiltForABI1_0() throws {
        let dir = try pluginDirectory([(builtLibrary("MeshportTestOldABI"), "libold.so", 0o755)])
        var loader = PluginLoader()
        loader.load(directories: [(dir, false)])
        let old = try #require(loader.driver(for: "old"), "\(loader.refused)")
        #expect(old.abi == "1.0" && old.flags.isEmpty && !old.needsPairing)
        let url = try TransportURL.parsed("old://anything")
        #expect(try loader.target(url).url == url)
    }

    @Test func refusesADescriptorSmallerThanABI1_0() throws {
        let dir = try pluginDirectory([(builtLibrary("MeshportTestShortDescriptor"), "libshort.so", 0o755)])
        var loader = PluginLoader()
        loader.load(directories: [(dir, false)])
        #expect(loader.loaded.isEmpty)
        let reason = try #require(loader.refused.first?.reason)
        #expect(reason.contains("descriptor_size 8 is smaller than the ABI 1.0 descriptor (\(PluginLoader.minimumDescriptorSize) bytes)"), "\(reason)")
    }

    /// What a front end needs to know comes from each driver's descriptor.
    @Test func builtInDriversSayWhatTheirLinksNeed() throws {
        var loader = PluginLoader()
        loader.load(directories: [(binDirectory, true)])
        let flags = Dictionary(uniqueKeysWithValues: loader.loaded.map { ($0.name, $0.flags) })
        #expect(flags == ["tcp": [], "serial": .serialConsole, "usb": .serialConsole, "ble": .needsPairing])
        #expect(loader.loaded.allSatisfy { $0.abi == "1.2" })
    }

    /// A driver's validate entry refuses a bad URL before anything is opened.
    @Test func theCExampleValidatesItsOwnURLs() throws {
        let dir = try pluginDirectory([(builtLibrary("MeshportExampleLoopback"), "libloopback.so", 0o755)])
        var loader = PluginLoader()
        loader.load(directories: [(dir, false)])
        #expect(try loader.target(TransportURL.parsed("loopback://example")).driver.name == "loopback")
        do {
            _ = try loader.target(TransportURL.parsed("loopback://no good"))
            Issue.record("accepted a bad loopback name")
        } catch let .invalidURL(url, _, reason) {
            #expect(url == "loopback://no good" && reason.contains("only letters, digits"), "\(reason)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func refusesAWritableDirectory() throws {
        let dir = try pluginDirectory([(builtLibrary("MeshportExampleLoopback"), "libloopback.so", 0o755)])
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: dir)
        var loader = PluginLoader()
        loader.load(directories: [(dir, false)])
        #expect(loader.loaded.isEmpty)
        #expect(loader.refused.first?.reason.contains("directory \(dir) is writable by group or others") == true)
    }
}
