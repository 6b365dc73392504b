import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `meshport` in its own process, with its own HOME and XDG folders.
public final class MeshportProcess: @unchecked Sendable {
    public let process = Process()
    private let home = TempDir()
    public let out: PipeReader
    public let err: PipeReader

    public init(_ arguments: [String]) throws {
        process.executableURL = try meshportBinary()
        process.arguments = arguments
        process.environment = meshportEnvironment(in: home)
        let outPipe = Pipe(), errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        out = PipeReader(outPipe.fileHandleForReading)
        err = PipeReader(errPipe.fileHandleForReading)
        try process.run()
    }

    deinit { stopInBackground(process, name: "meshport \(process.arguments?.first ?? "")", keeping: home) }

    /// SIGKILL, as a crash would stop it; waits until it has exited.
    public func kill9() async {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        await waitForExit(process)
    }

    /// The address `meshport serve` said it listens on ("meshport serve: listening on
    /// http://HOST:PORT"), once it has said so.
    public var announcedHTTP: String? {
        out.current.split(separator: "\n").lazy
            .compactMap { $0.contains("listening on http://") ? $0.split(separator: " ").last { $0.hasPrefix("http://") } : nil }
            .first.map(String.init)
    }

    /// The first `count` lines on stdout (at most `seconds`).
    public func outLines(_ count: Int, within seconds: Double) async throws -> [String] {
        let lines = await offPool { [out] () -> [String] in
            let deadline = Date().addingTimeInterval(seconds)
            while out.current.split(separator: "\n").count < count, Date() < deadline { usleep(20_000) }
            return out.current.split(separator: "\n").map(String.init)
        }
        guard lines.count >= count else { throw ProcessFailure("\(lines.count) of \(count) lines on stdout: \(lines); stderr: \(err.current)") }
        return Array(lines.prefix(count))
    }
}
