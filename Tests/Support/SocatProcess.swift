import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// socat carrying a byte stream for a test, what it starts in HOME and XDG folders of its own
/// (`meshportEnvironment`). Stopped with SIGKILL: started from a test's thread it inherits
/// that thread's blocked signals, SIGTERM among them, and would outlive the test holding the
/// runner's output open. What it carried then reads end of file and stops.
public final class SocatProcess: @unchecked Sendable {
    private let process = Process()
    private let home = TempDir()

    public init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/socat")
        process.arguments = arguments
        process.environment = meshportEnvironment(in: home)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        // Only while it runs: the pid of a child that has exited may be another test's process now.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        stopInBackground(process, name: "socat", keeping: home)
    }
}
