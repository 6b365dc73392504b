import Foundation
import MeshportTestSupport
import Testing
@testable import MeshportCLI

/// `meshport serve --config FILE`: the TOML keys, their errors with file, line and key, and
/// the command line winning over the file.
@Suite(.timeLimit(.minutes(1))) struct ServeConfigFileTests {
    static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Docs/serve.example.toml").standardized.path

    @Test func theExampleReads() throws {
        let file = try ServeConfigFile.load(Self.example)
        #expect(file.radio == ["serial:///dev/serial/by-id/usb-Silicon_Labs_CP2102-if00-port0"] && file.http == "0.0.0.0:8080")
        #expect(file.companion == ["0.0.0.0:5000"] && file.mqtt?.count == 1 && file.allowOrigin == [] && file.mapTiles == "off")
        #expect(file.timeout == 5 && file.eventBuffer == 1024 && file.maxBody == 65536 && file.statsInterval == 300 && file.logLevel == "notice")
        #expect(file.logFormat == .text)
        #expect(file.leaflet == nil && file.webRoot == nil)
    }

    @Test func oneRadioAsAString() throws {
        #expect(try ServeConfigFile.parse("radio = \"tcp://127.0.0.1:5000\"\n", path: "a.toml").radio == ["tcp://127.0.0.1:5000"])
    }

    @Test func errorsNameFileLineAndKey() {
        let cases: [(String, ServeConfigError)] = [
            ("http = \"127.0.0.1:8080\"\n\nport = 8080\n",
             ServeConfigError(path: "s.toml", line: 3, key: "port", reason: "unknown key; the keys are \(ServeConfigFile.keys.joined(separator: ", "))")),
            ("# timeouts\ntimeout = \"5\"\n", ServeConfigError(path: "s.toml", line: 2, key: "timeout", reason: "must be a number, not a string")),
            ("timeout = 900\n", ServeConfigError(path: "s.toml", line: 1, key: "timeout", reason: "must be between 0 and 600 seconds, not 900.0")),
            ("radio = [\"tcp://a:1\", 5]\n", ServeConfigError(path: "s.toml", line: 1, key: "radio", reason: "must be a list of strings; one item is an integer")),
            ("log-level = \"loud\"\n", ServeConfigError(path: "s.toml", line: 1, key: "log-level", reason: "must be one of trace, debug, info, notice, warning, error")),
            ("log-format = \"xml\"\n", ServeConfigError(path: "s.toml", line: 1, key: "log-format", reason: "must be text or json")),
            ("max-body = 1.5\n", ServeConfigError(path: "s.toml", line: 1, key: "max-body", reason: "must be a whole number, not a floating-point number")),
            ("radio = \"tcp://a:1\"\n\ncompanion = [\"0.0.0.0:5000\", \"x\"]\n",
             ServeConfigError(path: "s.toml", line: 3, key: "companion", reason: "\"x\" is not an address to listen on: expected HOST:PORT")),
        ]
        for (text, expected) in cases {
            #expect(throws: expected) { try ServeConfigFile.parse(text, path: "s.toml") }
        }
        #expect(ServeConfigError(path: "s.toml", line: 3, key: "port", reason: "unknown key").description == "s.toml, line 3: port: unknown key")
    }

    @Test func notTOMLNamesTheLine() {
        #expect(performing: { try ServeConfigFile.parse("http = \"x\"\ntimeout = \n", path: "s.toml") },
                throws: { ($0 as? ServeConfigError)?.line == 2 && ($0 as? ServeConfigError)?.reason.hasPrefix("not valid TOML") == true })
    }

    /// --check-config resolves everything (the radio's driver included) and serves nothing;
    /// a flag wins over the file; a bad file exits 64 naming its line and key.
    @Test func checkConfigWithFlagsOverTheFile() async throws {
        let dir = TempDir()
        try "radio = \"tcp://127.0.0.1:5000\"\nhttp = \"127.0.0.1:8090\"\ndb = \"\(dir.path("h.db"))\"\n"
            .write(toFile: dir.path("s.toml"), atomically: false, encoding: .utf8)
        let fromFile = try await runMeshport(["serve", "--config", dir.path("s.toml"), "--check-config"])
        #expect(fromFile.status == 0 && fromFile.out == "config ok: 1 radio, http on 127.0.0.1:8090, database \(dir.path("h.db"))\n", "\(fromFile)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("h.db")))

        let overridden = try await runMeshport(["serve", "--config", dir.path("s.toml"), "--http", "127.0.0.1:8091", "--check-config"])
        #expect(overridden.out.contains("http on 127.0.0.1:8091"), "\(overridden)")

        try "radio = \"tcp://127.0.0.1:5000\"\nhttps = \"127.0.0.1:8090\"\n".write(toFile: dir.path("bad.toml"), atomically: false, encoding: .utf8)
        let bad = try await runMeshport(["serve", "--config", dir.path("bad.toml"), "--check-config"])
        #expect(bad.status == 64 && bad.err.contains("\(dir.path("bad.toml")), line 2: https: unknown key"), "\(bad)")

        try "radio = \"tcp://127.0.0.1:5000\"\nmqtt = [\"mqtt://broker:1883\"]\n".write(toFile: dir.path("bad.toml"), atomically: false, encoding: .utf8)
        let broker = try await runMeshport(["serve", "--config", dir.path("bad.toml"), "--check-config"])
        #expect(broker.status == 64 && broker.err.contains("\(dir.path("bad.toml")), line 2: mqtt: "), "\(broker)")
    }
}
