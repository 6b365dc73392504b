import Foundation
import MeshportTestSupport
import Testing

/// serve's reader may go away (a closed pipe, a restarted journald): its announcements and log
/// lines then fail to write, and it goes on serving and stops cleanly instead of trapping.
@Suite(.timeLimit(.minutes(1))) struct ClosedOutputTests {
    @Test func serveOutlivesAClosedStdoutAndStderr() async throws {
        let dir = TempDir()
        let process = Process()
        process.executableURL = try meshportBinary()
        process.arguments = ["serve", "--radio", "tcp://127.0.0.1:1", "--db", dir.path("serve.db"), "--http", "127.0.0.1:0"]
        process.environment = meshportEnvironment(in: dir)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        // Nobody reads: every write gets EPIPE.
        try out.fileHandleForReading.close()
        try err.fileHandleForReading.close()
        try process.run()
        // Long enough to announce its port and log its reconnect attempts to the radio that is off.
        try await Task.sleep(for: .seconds(3))
        #expect(process.isRunning, "serve ended with \(process.terminationStatus) (\(process.terminationReason == .uncaughtSignal ? "signal" : "exit"))")
        process.terminate()
        #expect(await waitForExit(process))
        #expect(process.terminationReason == .exit && process.terminationStatus == 0,
                "status \(process.terminationStatus), \(process.terminationReason == .uncaughtSignal ? "a signal" : "an exit")")
    }
}
