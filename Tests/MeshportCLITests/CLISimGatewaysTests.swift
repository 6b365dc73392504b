import Foundation
import MeshCodec
import MeshportTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `meshport sim --radios 3`: three radios on one air, each on its own port, each speaking
/// the companion protocol, and the heard log saying what each one pushed.
@Suite(.timeLimit(.minutes(3))) struct CLISimGatewaysTests {
    @Test func threeRadiosPushWhatTheHeardLogSays() async throws {
        let dir = TempDir()
        // The default mesh with a busy air from 2 s: packets every 50 ms for 4 s.
        try Data(#"{"extendsDefault": true, "overheard": {"perSecond": 20, "startAt": 2, "count": 80}}"#.utf8)
            .write(to: dir.url.appendingPathComponent("busy.json"))
        let sim = Process()
        sim.executableURL = try meshportBinary()
        sim.arguments = ["sim", "--radios", "3", "--seed", "5", "--listen", "tcp://127.0.0.1:0", "--scenario", dir.path("busy.json"),
                         "--heard-log", dir.path("heard.jsonl")]
        sim.environment = meshportEnvironment(in: dir)
        let (out, err) = (Pipe(), Pipe())
        sim.standardOutput = out
        sim.standardError = err
        let said = PipeReader(out.fileHandleForReading), complaints = PipeReader(err.fileHandleForReading)
        try sim.run()
        defer { if sim.isRunning { sim.terminate() } }
        let lines = await offPool { () -> [String] in
            let deadline = Date().addingTimeInterval(30)
            while said.current.split(separator: "\n").count < 3, Date() < deadline { usleep(20_000) }
            return said.current.split(separator: "\n").map(String.init)
        }
        try #require(lines.count == 3, "address lines: \(lines), stderr: \(complaints.current)")
        let radios = try lines.map(Self.address)
        #expect(Set(radios.map(\.port)).count == 3 && Set(radios.map(\.key)).count == 3, "\(lines)")

        // Each link reads until the simulator stops; the busy air is over by then.
        let links = radios.map { radio in Task { try await offPool { try Self.framesUntilClose(port: radio.port) } } }
        // Until every radio has pushed 20 hearings (the heard log is written as they happen), or
        // a minute on a machine too loaded for that.
        let logPath = dir.path("heard.jsonl"), keys = radios.map(\.key)
        _ = await offPool {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                let text = (FileManager.default.contents(atPath: logPath)).map { String(decoding: $0, as: UTF8.self) } ?? ""
                let pushedLines = text.split(separator: "\n").filter { $0.contains("\"pushed\":true") }
                if keys.allSatisfy({ key in pushedLines.filter { $0.contains(key) }.count >= 20 }) { return }
                usleep(100_000)
            }
        }
        #expect(await terminate(sim, within: 30), "still running 30 s after SIGTERM")
        var pushed: [String: [ReceivedPacket]] = [:]
        for (radio, link) in zip(radios, links) {
            let frames = try await link.value.map { try RadioFrame(decoding: $0) }
            let selfInfo = frames.compactMap { if case let .response(.selfInfo(info)) = $0 { info } else { nil } }
            #expect(selfInfo.map(\.publicKey.hex) == [radio.key], "the radio on port \(radio.port) is the one its line names")
            pushed[radio.key] = frames.compactMap { if case let .push(.logRxData(p)) = $0 { p } else { nil } }
        }

        let log = try String(contentsOfFile: dir.path("heard.jsonl"), encoding: .utf8).split(separator: "\n")
            .map { try JSONDecoder().decode(HeardLine.self, from: Data($0.utf8)) }
        for radio in radios {
            let heard = log.filter { $0.radio == radio.key && $0.pushed }
            let frames = pushed[radio.key] ?? []
            #expect(frames.count >= 20, "radio \(radio.key.prefix(8)) pushed \(frames.count) LOG_RX_DATA")
            #expect(heard.map(\.raw) == frames.map { Hex.encode($0.payload) }, "radio \(radio.key.prefix(8))")
            #expect(heard.map(\.snr) == frames.map(\.snr) && heard.map(\.rssi) == frames.map { Int($0.rssi) })
        }
        // One packet, several gateways, each at its own distance.
        let byPacket = Dictionary(grouping: log, by: \.raw)
        #expect(byPacket.values.contains { Set($0.map(\.radio)).count == 3 && Set($0.map(\.snr)).count > 1 })
        #expect(try await complaints.fullText().contains("stopped by SIGTERM"))
    }

    @Test(arguments: [
        (["--radios", "0"], "--radios 0 is outside 1...64"),
        (["--radios", "2", "--stdio"], "--radios serves several radios"),
        (["--radios", "2", "--listen", "tcp://127.0.0.1:65535"], "2 radios from port 65535 need ports up to 65536, past 65535"),
    ] as [([String], String)])
    func badRadioSettingsAreRefused(arguments: [String], message: String) async throws {
        let run = try await runMeshport(["sim"] + arguments)
        #expect(run.status != 0 && run.err.contains(message), "\(run.status): \(run.err)")
    }

    /// "meshport sim: listening on tcp://127.0.0.1:PORT (radio N of 3, NAME, key HEX)".
    private static func address(_ line: String) throws -> (port: Int, key: String) {
        let words = line.split(separator: " ")
        let url = try #require(words.first { $0.hasPrefix("tcp://") }, "\(line)")
        let port = try #require(url.split(separator: ":").last.flatMap { Int($0) }, "\(line)")
        let key = try #require(words.last.map { String($0.dropLast()) }, "\(line)")
        return (port, key)
    }

    /// Connects, starts the app session and returns every frame until the link closes.
    private static func framesUntilClose(port: Int) throws -> [[UInt8]] {
        let fd = try connectLoopback(port: port, configure: receiveTimeout(30))
        defer { close(fd) }
        let start = try FrameEncoder.encode(Command.appStart(AppStart(appName: "gateway test")).encode(), direction: .toRadio)
        guard send(fd, start, start.count, Int32(MSG_NOSIGNAL)) == start.count else { throw ProcessFailure("cannot send APP_START to port \(port)") }
        var decoder = FrameDecoder(direction: .fromRadio)
        var frames: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n == 0 { return frames }
            guard n > 0 else { throw ProcessFailure("reading port \(port): errno \(errno)") }
            for event in decoder.feed(buffer[0..<n]) {
                guard case let .frame(frame) = event else { throw ProcessFailure("port \(port) sent a bad frame: \(event)") }
                frames.append(frame)
            }
        }
    }
}

/// One line of `--heard-log`.
private struct HeardLine: Decodable {
    var radio: String
    var raw: String
    var snr: Double
    var rssi: Int
    var elapsedMs: Int
    var time: String
    var pushed: Bool
}
