import Foundation
import MeshConformance
import Testing
@testable import MeshTransport

/// The whole suite over each driver built here, with the minimal responder on the far side
/// (the C example is an echo device: its protocol checks are skipped, its link checks run).
@Suite(.serialized) struct ConformanceTests {
    private func suite(scheme: String, pluginPath: String? = nil, url: @escaping @Sendable () -> String, missing: String) throws -> ConformanceSuite {
        var loader = PluginLoader()
        loader.load(directories: [(binDirectory, true)] + (pluginPath.map { [($0, false)] } ?? []))
        let driver = try #require(loader.driver(for: scheme))
        return ConformanceSuite(driverName: driver.name, url: url(), linkKind: driver.linkKind, maxFrameSize: driver.maxFrameSize,
                                makeTransport: { PluginTransport(url: try TransportURL(url()), driver: driver) },
                                missingDevice: { PluginTransport(url: try TransportURL(missing), driver: driver) })
    }

    private func expectAllPass(_ report: ConformanceReport, skipped allowed: Set<String> = []) {
        for c in report.checks where c.result == .failed || (c.result == .skipped && !allowed.contains(c.name)) {
            Issue.record("\(report.driver): \(c.name) \(c.result.rawValue): \(c.detail)")
        }
        #expect(report.passed + report.skipped == report.checks.count)
    }

    @Test func tcp() async throws {
        let server = try EchoServer(serve: respondFrames)
        defer { server.stop() }
        let report = try await suite(scheme: "tcp", url: { "tcp://127.0.0.1:\(server.port)" }, missing: "tcp://127.0.0.1:1").run()
        expectAllPass(report)
        let json = try report.json()
        #expect(json.contains("\"driver\":\"tcp\"") && json.contains("\"failed\":0"))
    }

    @Test func serialOverPty() async throws {
        let pty = try PtyEcho(serve: respondFrames)
        defer { pty.close() }
        let report = try await suite(scheme: "serial", url: { "serial://\(pty.slavePath)" }, missing: "serial:///dev/ttyMESHPORT-missing").run()
        expectAllPass(report)
    }

    @Test func cExampleLoopback() async throws {
        let dir = try pluginDirectory([(builtLibrary("MeshportExampleLoopback"), "libloopback.so", 0o755)])
        let report = try await suite(scheme: "loopback", pluginPath: dir, url: { "loopback://conformance" }, missing: "loopback://missing").run()
        expectAllPass(report, skipped: ["garbage and truncated input", "APP_START -> SELF_INFO", "DEVICE_QUERY -> DEVICE_INFO",
                                        "contact sync", "message drain", "DM with ACK"])
    }
}
