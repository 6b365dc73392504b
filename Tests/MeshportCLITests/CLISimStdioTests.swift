import Foundation
import MeshCodec
import MeshportTestSupport
import MeshConformanceCommands
import MeshSim
import Testing

/// `meshport sim --stdio`: the radio on stdin/stdout, so any byte stream can carry it.
@Suite(.timeLimit(.minutes(2))) struct CLISimStdioTests {
    /// `meshport sim --stdio` with pipes on all three streams.
    private final class StdioSim: @unchecked Sendable {
        let process = Process()
        let home = TempDir()
        let input = Pipe(), output = Pipe(), errors = Pipe()
        let complaints: PipeReader
        private var decoder = FrameDecoder(direction: .fromRadio)
        private var frames: [[UInt8]] = []

        init(_ arguments: [String]) throws {
            process.executableURL = try meshportBinary()
            process.arguments = ["sim", "--stdio"] + arguments
            process.environment = meshportEnvironment(in: home)
            process.standardInput = input
            process.standardOutput = output
            process.standardError = errors
            complaints = PipeReader(errors.fileHandleForReading)
            try process.run()
        }

        func send(_ frame: [UInt8]) throws {
            try input.fileHandleForWriting.write(contentsOf: FrameEncoder.encode(frame, direction: .toRadio))
        }

        /// The next frame on stdout that is not a push (the radio's timers push at any time),
        /// or nil at end of file; anything else there (a stray line) is skipped by the decoder
        /// and counted, and the test checks the count. Blocks: from a test, through `offPool`.
        func nextAnswer() -> [UInt8]? {
            while true {
                while frames.isEmpty {
                    let chunk = readChunk(output.fileHandleForReading)
                    if chunk.isEmpty { return nil }
                    decoder.feed(chunk) { if case let .frame(f) = $0 { frames.append(f) } }
                }
                let frame = frames.removeFirst()
                if let code = frame.first, code & 0x80 == 0 { return frame }
            }
        }

        var skippedBytes: Int { decoder.stats.skippedBytes }

        deinit { stopInBackground(process, name: "meshport sim --stdio", keeping: home) }
    }

    /// A command exchange over the pipes: SELF_INFO for APP_START, the echo hook; stdout holds
    /// frames only (the announce line is on stderr); end of stdin ends the simulator cleanly.
    @Test func answersOverPipesAndStopsAtEndOfInput() async throws {
        let sim = try StdioSim(["--seed", "21"])
        try sim.send(Command.appStart(AppStart(appName: "stdio-test")).encode())
        let reply = try #require(await offPool { sim.nextAnswer() }, "no answer on stdout")
        guard case let .response(.selfInfo(info)) = try RadioFrame(decoding: reply) else {
            Issue.record("no SELF_INFO: \(reply)")
            return
        }
        #expect(!info.name.isEmpty)
        let echo: [UInt8] = [ConformanceCommand.echo] + Array(repeating: 0xA5, count: 150)
        try sim.send(echo)
        #expect(await offPool { sim.nextAnswer() } == echo)
        try sim.input.fileHandleForWriting.close()
        #expect(await waitForExit(sim.process, within: 20), "still running 20 s after its input closed")
        #expect(sim.process.terminationReason == .exit && sim.process.terminationStatus == 0)
        #expect(await offPool { sim.nextAnswer() } == nil)
        #expect(sim.skippedBytes == 0, "stdout held more than frames")
        let said = try await sim.complaints.fullText()
        #expect(said.contains("serving on stdin/stdout") && said.contains("its input reached end of file"), "\(said)")
    }

    /// The drop hook ends the link: half a frame, then end of file on stdout and exit status 0,
    /// as a radio that restarts (socat then closes the connection it carried).
    @Test func theDropHookEndsTheLinkAndTheProcess() async throws {
        let sim = try StdioSim(["--seed", "22"])
        try sim.send([ConformanceCommand.dropMidFrame, 1, 2, 3])
        #expect(await offPool { sim.nextAnswer() } == nil, "a whole frame came before the drop")
        #expect(await waitForExit(sim.process, within: 20), "still running 20 s after the drop")
        #expect(sim.process.terminationReason == .exit && sim.process.terminationStatus == 0)
        let said = try await sim.complaints.fullText()
        #expect(said.contains("dropped the link"), "\(said)")
    }

    /// socat carries it to a pseudo-terminal, and `meshport info` reaches it as a serial radio.
    @Test func aSerialRadioThroughSocatAndAPty() async throws {
        let dir = TempDir()
        let link = dir.path("radio")
        let socat = try SocatProcess(["PTY,link=\(link),rawer", "EXEC:\(try meshportBinary().path) sim --stdio --seed 23"])
        let appeared = await offPool {
            for _ in 0..<600 where !FileManager.default.fileExists(atPath: link) { usleep(50_000) }
            return FileManager.default.fileExists(atPath: link)
        }
        #expect(appeared, "socat made no pty at \(link)")
        let info = try await runMeshport(["info", "--json", "--radio", "serial://\(link)"])
        let described = try #require(try JSONSerialization.jsonObject(with: Data(info.out.utf8)) as? [String: Any], "\(info.out)\n\(info.err)")
        #expect(info.status == 0 && described["contacts"] as? Int == DefaultMesh.nodeCount, "\(described)")
        withExtendedLifetime((socat, dir)) {}
    }

    @Test func stdioExcludesTheOtherListeners() async throws {
        let run = try await runMeshport(["sim", "--stdio", "--pty"])
        #expect(run.status != 0 && run.err.contains("--stdio excludes --listen and --pty"), "\(run.err)")
    }
}
