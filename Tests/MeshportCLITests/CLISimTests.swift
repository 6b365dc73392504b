import Foundation
import MeshportTestSupport
import Testing

@Suite(.timeLimit(.minutes(3))) struct CLISimTests {
    /// Scripts and tests stop the simulator as soon as it has announced its address. It must
    /// stop cleanly then too: it used to install its signal handling only after the line, so
    /// an early SIGTERM killed it outright, or was ignored and left it running.
    @Test func sigtermRightAfterTheAnnounceLineStopsItCleanly() async throws {
        for _ in 0..<5 {
            let home = TempDir()
            let process = Process()
            process.executableURL = try meshportBinary()
            process.arguments = ["sim", "--listen", "tcp://127.0.0.1:0"]
            process.environment = meshportEnvironment(in: home)
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            let said = PipeReader(out.fileHandleForReading), complaints = PipeReader(err.fileHandleForReading)
            try process.run()
            #expect(await said.firstLine(within: 30), "no announce line")
            // The limit is for a stop that never comes, not a speed goal: a loaded machine
            // (seen with three builds beside the suite) can take over 10 s to reap it.
            #expect(await terminate(process, within: 30), "still running 30 s after SIGTERM")
            #expect(process.terminationReason == .exit && process.terminationStatus == 0,
                    "ended by \(process.terminationReason == .exit ? "exit" : "signal") \(process.terminationStatus)")
            #expect(try await complaints.fullText().contains("stopped by SIGTERM"))
        }
    }
}
