import Foundation

/// The `meshport` executable next to this test binary (`swift build` builds both).
public func meshportBinary() throws -> URL { try builtExecutable("meshport") }

/// An executable of this package next to this test binary: `meshport`, or a test-only one
/// (Tests/Tools) that `swift build` builds beside it.
public func builtExecutable(_ name: String) throws -> URL {
    let here = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    let binary = here.appendingPathComponent(name)
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
        throw ProcessFailure("no \(name) executable at \(binary.path): run `swift build` first")
    }
    return binary
}

public struct ProcessFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The next bytes on a pipe (at most 64 KiB), empty at end of file or on a read error.
/// A read a signal interrupts is retried: `FileHandle.availableData` and
/// `readDataToEndOfFile()` end the whole test process on EINTR instead.
public func readChunk(_ handle: FileHandle) -> Data {
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
        if count >= 0 { return Data(buffer.prefix(count)) }
        if errno != EINTR { return Data() }
    }
}

/// Everything on a pipe until end of file, reads a signal interrupts retried (`readChunk`).
public func readToEnd(_ handle: FileHandle) -> Data {
    var data = Data()
    while case let chunk = readChunk(handle), !chunk.isEmpty { data.append(chunk) }
    return data
}

/// Reads a pipe on its own thread until EOF, so the child never blocks on a full pipe.
public final class PipeReader: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let firstLine = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    public init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            var signalled = false
            while true {
                let chunk = readChunk(handle)
                if chunk.isEmpty { break }
                lock.withLock { data.append(chunk) }
                if !signalled, chunk.contains(UInt8(ascii: "\n")) {
                    signalled = true
                    firstLine.signal()
                }
            }
            if !signalled { firstLine.signal() }
            done.signal()
        }
        thread.start()
    }

    /// Waits for the first complete line (or EOF); false on timeout. Blocks the calling thread:
    /// from a test, `firstLine(within:)`.
    public func waitForFirstLine(seconds: Double) -> Bool { firstLine.wait(timeout: .now() + seconds) == .success }

    /// Waits for the first complete line (or EOF) without holding a thread of the cooperative
    /// pool; false on timeout.
    public func firstLine(within seconds: Double) async -> Bool { await offPool { self.waitForFirstLine(seconds: seconds) } }

    /// What has been read so far.
    public var current: String { lock.withLock { String(decoding: data, as: UTF8.self) } }

    /// Everything read, after EOF. Blocks the calling thread: from a test, `fullText(within:)`.
    public func text(seconds: Double = 20) throws -> String {
        guard done.wait(timeout: .now() + seconds) == .success else { throw ProcessFailure("pipe not closed after \(seconds) s") }
        return lock.withLock { String(decoding: data, as: UTF8.self) }
    }

    /// Everything read, after EOF, without holding a thread of the cooperative pool.
    public func fullText(within seconds: Double = 20) async throws -> String { try await offPool { try self.text(seconds: seconds) } }
}

/// Runs `body`, which blocks (a semaphore or pipe wait, a sleep loop, a child's exit), on a
/// thread of its own and awaits its result. Every test runs on Swift's cooperative pool, one
/// thread per core: a blocking wait there holds a pool thread for as long as it lasts, and
/// once every pool thread is held no other test's tasks run at all (in-process radios,
/// sessions, their timers). On a loaded two-core machine, tests that take a second went past
/// their one-minute limits waiting behind BLE worlds and sims starting and stopping.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { done in Thread { done.resume(with: Result { try body() }) }.start() }
}

public func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { done in Thread { done.resume(returning: body()) }.start() }
}

/// The environment of a `meshport` a test spawns: HOME and every XDG folder inside `dir`,
/// so no test reads or writes the user's own config, history, bonds or caches (a fresh
/// machine's user has none; CI's machine keeps its home between runs), and no MESHPORT_RADIO
/// or MESHPORT_DB of the user's. `overrides` win (a test's own folders and settings).
public func meshportEnvironment(in dir: TempDir, _ overrides: [String: String] = [:]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    for (key, folder) in ["HOME": "home", "XDG_CONFIG_HOME": "config", "XDG_DATA_HOME": "data", "XDG_CACHE_HOME": "cache",
                          "XDG_STATE_HOME": "state"] {
        environment[key] = dir.path(folder)
    }
    environment["MESHPORT_RADIO"] = ""
    environment["MESHPORT_DB"] = ""
    return environment.merging(overrides) { $1 }
}

/// Runs `meshport` to completion without holding a thread while it runs (for async tests
/// whose peers live in this process), in folders of its own unless `environment` names them:
/// exit status, stdout and stderr.
public func runMeshport(_ arguments: [String], environment: [String: String] = [:]) async throws -> (status: Int32, out: String, err: String) {
    let home = TempDir()
    defer { withExtendedLifetime(home) {} }   // removed only after the child has exited
    let process = Process()
    process.executableURL = try meshportBinary()
    process.arguments = arguments
    process.environment = meshportEnvironment(in: home, environment)
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let exited = AsyncStream<Int32>.makeStream(of: Int32.self)
    process.terminationHandler = { exited.continuation.yield($0.terminationStatus); exited.continuation.finish() }
    try process.run()
    let outReader = PipeReader(out.fileHandleForReading)
    let errReader = PipeReader(err.fileHandleForReading)
    var status: Int32 = -1
    for await s in exited.stream { status = s }
    return (status, try await outReader.fullText(), try await errReader.fullText())
}

/// Runs a tool to completion in `directory` (blocking: call it through `offPool`) and returns
/// its output; throws with that output when it fails.
@discardableResult
func runTool(_ path: String, _ arguments: [String], in directory: URL? = nil) throws -> String {
    let result = try runToolToEnd(path, arguments, in: directory)
    guard result.status == 0 else {
        throw ProcessFailure("\(path) \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.output)")
    }
    return result.output
}

/// Runs a tool to completion in `directory` (blocking: call it through `offPool`): its exit
/// status and its output (stdout and stderr together).
public func runToolToEnd(_ path: String, _ arguments: [String], in directory: URL? = nil) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    let reader = PipeReader(pipe.fileHandleForReading)
    try process.run()
    let output = try reader.text(seconds: 90)
    // Its output closed: it has exited or is about to (never waitUntilExit: it spins a core).
    while process.isRunning { usleep(5_000) }
    return (process.terminationStatus, output)
}

/// A temporary folder of its own per test (tests run in parallel), removed when released.
public final class TempDir: Sendable {
    public let url: URL

    public init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("meshport-test-\(UUID().uuidString)")
        // A test that cannot make its folder has nothing to test.
        do { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) } catch {
            fatalError("cannot create \(url.path): \(error)")
        }
    }

    deinit {
        do { try FileManager.default.removeItem(at: url) } catch { print("leaving \(url.path): \(error)") }
    }

    public func path(_ name: String = "store.db") -> String { url.appendingPathComponent(name).path }
}


/// `meshport sim` running in its own process, as a user starts it; stopped with SIGTERM.
public final class SimProcess: @unchecked Sendable {
    private let process = Process()
    private let home = TempDir()
    private let out: PipeReader
    /// What its first line announced: `tcp://HOST:PORT` or the pty's path.
    public let address: String

    /// Starts it and waits (at most 60 s) for the line announcing its address, without
    /// holding a thread of the cooperative pool (see `offPool`).
    public init(_ arguments: [String]) async throws {
        process.executableURL = try meshportBinary()
        process.arguments = ["sim"] + arguments
        process.environment = meshportEnvironment(in: home)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        out = PipeReader(pipe.fileHandleForReading)
        try process.run()
        guard await out.firstLine(within: 60), let line = out.current.split(separator: "\n").first else {
            process.terminate()
            throw ProcessFailure("meshport sim did not announce itself")
        }
        // "meshport sim: listening on tcp://127.0.0.1:PORT" or "meshport sim: serving on /dev/pts/N (serial://...)"
        let words = line.split(separator: " ")
        guard words.count >= 5 else { process.terminate(); throw ProcessFailure("unexpected announce line: \(line)") }
        address = String(words[4])
    }

    deinit {
        // Its folders go once it has exited.
        stopInBackground(process, name: "meshport sim", keeping: home)
    }
}

/// SIGTERM, then a bounded wait; false when the process was still running after `seconds`
/// (it is then killed). Never `waitUntilExit()` alone: on Linux it spins its run loop, burning
/// a core, for as long as the child lives, and a child that ignores SIGTERM hangs the suite.
/// Blocks the calling thread: from a test, `terminate(_:within:)`.
@discardableResult
public func stop(_ process: Process, seconds: Double = 20) -> Bool {
    if process.isRunning { process.terminate() }
    return reap(process, within: seconds)
}

/// `stop(process)` without holding a thread of the cooperative pool (see `offPool`).
@discardableResult
public func terminate(_ process: Process, within seconds: Double = 20) async -> Bool {
    let child = ChildProcess(process)
    return await offPool { stop(child.process, seconds: seconds) }
}

/// Waits until `process` has exited without holding a thread of the cooperative pool; false
/// after `seconds`.
@discardableResult
public func waitForExit(_ process: Process, within seconds: Double = 20) async -> Bool {
    let child = ChildProcess(process)
    return await offPool { exits(child.process, within: seconds) }
}

/// `stop(process)` for a deinit: SIGTERM at once, the wait (and a SIGKILL, said on stderr) on
/// a thread of its own. A deinit runs on whichever thread drops the last reference, in a test
/// a thread of the cooperative pool, which must not sleep through a child's shutdown.
/// `keeping` (the child's folders) is released only after the child has exited.
public func stopInBackground(_ process: Process, name: String, keeping: (any Sendable)? = nil) {
    // Only while it runs (Foundation's terminate() signals the pid regardless): the pid of a
    // child that has exited may be another test's process by now.
    if process.isRunning { process.terminate() }
    let child = ChildProcess(process)
    Thread {
        if !reap(child.process, within: 20) {
            let pid = child.process.processIdentifier
            FileHandle.standardError.write(Data("\(name) (pid \(pid)) still running 20 s after SIGTERM: killed\n".utf8))
        }
        withExtendedLifetime(keeping) {}
    }.start()
}

/// A child handed to the thread that waits for it; only its state is read there.
struct ChildProcess: @unchecked Sendable {
    let process: Process
    init(_ process: Process) { self.process = process }
}

/// Waits up to `seconds` for a process that was sent SIGTERM, then kills it; false when it had to be killed.
private func reap(_ process: Process, within seconds: Double) -> Bool {
    guard !exits(process, within: seconds) else { return true }
    kill(process.processIdentifier, SIGKILL)
    _ = exits(process, within: 10)
    return false
}

/// Sleeps in 20 ms steps until the process has exited; false after `seconds`.
private func exits(_ process: Process, within seconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning {
        if Date() > deadline { return false }
        usleep(20_000)
    }
    return true
}
