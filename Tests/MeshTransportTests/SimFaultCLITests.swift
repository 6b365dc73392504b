import Foundation
import MeshCodec
import MeshConformanceCommands
import MeshportTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `meshport sim --fault KEY=VALUE` and a scenario's `faults`, through the executable.
@Suite(.timeLimit(.minutes(3))) struct SimFaultCLITests {
    @Test(arguments: [
        (["--fault", "drop-chance=1.5"], "--fault drop-chance=1.5: 1.5 is not between 0 and 1"),
        (["--fault", "drop-at=0"], "--fault drop-at=0: 0 is not a frame number (frames count from 1)"),
        (["--fault", "delay-ms=soon"], "--fault delay-ms=soon: \"soon\" is not a whole number"),
        (["--fault", "jitter=5"], "--fault jitter=5: unknown key \"jitter\""),
        (["--fault", "drop-at"], "--fault \"drop-at\": expected KEY=VALUE"),
        (["--fault", "stall-seconds=2"], "--fault stall-seconds needs stall-at=N"),
    ] as [([String], String)])
    func badFaultsAreUsageErrors(arguments: [String], message: String) async throws {
        let run = try await runMeshport(["sim", "--listen", "tcp://127.0.0.1:0"] + arguments)
        #expect(run.status == 64 && run.err.contains(message), "\(run.status): \(run.err)")
    }

    @Test func badScenarioFaultsNameTheField() async throws {
        let dir = TempDir()
        try Data(#"{"faults": {"dropChance": 2}}"#.utf8).write(to: dir.url.appendingPathComponent("s.json"))
        let run = try await runMeshport(["sim", "--listen", "tcp://127.0.0.1:0", "--scenario", dir.path("s.json")])
        #expect(run.status == 1 && run.err.contains("faults.dropChance: 2.0 is not between 0 and 1"), "\(run.err)")
    }

    /// The scenario drops after frame 5, the command line after frame 1: the first answer
    /// arrives (late, intact) and the link closes. The startup lines say so.
    @Test func commandLineOverridesTheScenario() async throws {
        let dir = TempDir()
        try Data(#"{"faults": {"dropLinkAtFrame": 5, "delayMs": 20}}"#.utf8).write(to: dir.url.appendingPathComponent("s.json"))
        let sim = Process()
        sim.executableURL = try meshportBinary()
        sim.arguments = ["sim", "--listen", "tcp://127.0.0.1:0", "--scenario", dir.path("s.json"), "--fault", "drop-at=1", "--seed", "8"]
        sim.environment = meshportEnvironment(in: dir)
        let (out, err) = (Pipe(), Pipe())
        sim.standardOutput = out
        sim.standardError = err
        try sim.run()
        defer { if sim.isRunning { sim.terminate() } }
        let stderr = PipeReader(err.fileHandleForReading)
        let outHandle = out.fileHandleForReading
        let line = try await blocking { try firstLine(outHandle) }
        let port = try #require(line.split(separator: ":").last.flatMap { Int($0) }, "\(line)")
        let bytes = try await blocking { try answerUntilClose(port: port, frame: [ConformanceCommand.echo, 1, 2]) }
        var decoder = FrameDecoder(direction: .fromRadio)
        #expect(bytes.map { decoder.feed($0) } == [.frame([ConformanceCommand.echo, 1, 2])], "answered, then closed")
        sim.terminate()
        let log = try await blocking { try stderr.text() }
        #expect(log.contains("meshport sim: faults: drop after frame 1, delay 20 ms (seed 8, frames counted per link)"), "\(log)")
    }
}

/// The first line of `handle` without its newline (the sim's address line).
private func firstLine(_ handle: FileHandle) throws -> String {
    var data = Data()
    while !data.contains(UInt8(ascii: "\n")) {
        let chunk = readChunk(handle)
        guard !chunk.isEmpty else { throw ProcessFailure("no line before EOF: \(String(decoding: data, as: UTF8.self))") }
        data.append(chunk)
    }
    return String(decoding: data.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
}

/// Blocking waits on a thread of their own, not on the cooperative pool that in-process
/// peers of other tests need.
private func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { done in Thread { done.resume(with: Result { try body() }) }.start() }
}

private func blocking<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { done in Thread { done.resume(returning: body()) }.start() }
}

/// Sends `frame` to a radio on `port` and returns every byte until the link closes (nil on
/// a 5 s timeout).
private func answerUntilClose(port: Int, frame: [UInt8]) throws -> [UInt8]? {
    let fd = try connectLoopback(port: port, configure: receiveTimeout(5))
    defer { close(fd) }
    let framed = try FrameEncoder.encode(frame, direction: .toRadio)
    guard send(fd, framed, framed.count, Int32(MSG_NOSIGNAL)) == framed.count else { throw ProcessFailure("send failed") }
    var all: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 512)
    while true {
        let n = read(fd, &buf, buf.count)
        if n == 0 { return all }
        if n < 0 { return nil }
        all += buf[0..<n]
    }
}
