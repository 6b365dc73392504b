import Foundation
import MeshportTestSupport
import Testing

/// serve's log carries what the drivers say, through the ABI's log (`set_log`), as its own lines.
@Suite(.timeLimit(.minutes(1))) struct ServeLogTests {
    @Test func aDriverLogsThroughServe() async throws {
        let dir = TempDir()
        let plugins = dir.path("plugins")
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        let here = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        try FileManager.default.copyItem(atPath: here.appendingPathComponent("libMeshportExampleLoopback.so").path, toPath: plugins + "/libloopback.so")
        let serve = try await ServeProcess(["--db", dir.path("serve.db"), "--http", "127.0.0.1:0", "--radio", "loopback://logged", "--log-format", "json"],
                                           environment: meshportEnvironment(in: dir, ["MESHPORT_PLUGIN_PATH": plugins]))
        let deadline = ContinuousClock.now + .seconds(30)
        var line: [String: Any]?
        while line == nil, ContinuousClock.now < deadline {
            line = serve.stderr.split(separator: "\n").lazy
                .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .first { $0["label"] as? String == "meshport.driver" }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(line?["driver"] as? String == "loopback" && line?["level"] as? String == "notice"
            && line?["message"] as? String == "The loopback link echoes every frame it is sent.", "\(serve.stderr)")
        #expect(try await serve.stop() == 0)
    }
}
