import Foundation

/// The emulated Bluetooth world (Tools/BLE/world.py on Bumble, from the .venv `make venv`
/// makes): one controller on H4/TCP for Meshport's LE host and MeshCore-like radios on the
/// virtual air. One host at a time, so each test starts its own. Its stdin is ours: control
/// commands go there (Tools/BLE/README.md), and closing it stops the world, so a test process
/// that dies takes its worlds along.
public final class BLEWorldProcess: @unchecked Sendable {
    private let process = Process()
    private let out: PipeReader
    /// Our end of the world's stdin: a socket, so a write to a world that is gone fails
    /// instead of raising SIGPIPE.
    private let control: Int32
    private let lock = NSLock()
    private var sent = 0
    private var stopped = false
    /// The world's stderr, kept after the world stops when MESHPORT_KEEP_LOGS is set.
    public let logURL: URL
    /// The controller's H4 port on 127.0.0.1.
    public let port: Int
    /// The `hci=` value for it.
    public var hci: String { "tcp:127.0.0.1:\(port)" }
    /// The radios' addresses (random static), in order: "F0:00:00:00:00:01", ...
    public let peripherals: [String]
    /// Their advertised names, in the same order.
    public let names: [String]
    /// The address of the advertiser that is not a radio (`--noise`), if any.
    public let noise: String?

    /// The package root, found from this file's place in it.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Starts `world.py --port 0 --control stdin ARGUMENTS` and waits (at most 60 s) for its
    /// READY line, without holding a thread of the cooperative pool (see `offPool`): Bumble
    /// takes seconds to start, far longer on a loaded machine.
    public init(_ arguments: [String]) async throws {
        let python = Self.root.appendingPathComponent(".venv/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw ProcessFailure("no \(python.path): run `make venv` (the BLE tests need Bumble)")
        }
        process.executableURL = python
        process.arguments = [Self.root.appendingPathComponent("Tools/BLE/world.py").path, "--port", "0", "--control", "stdin"] + arguments
        var pair: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else {
            throw ProcessFailure("socketpair for the world's stdin: errno \(errno)")
        }
        control = pair[0]
        let theirs = FileHandle(fileDescriptor: pair[1], closeOnDealloc: true)
        process.standardInput = theirs
        let pipe = Pipe()
        process.standardOutput = pipe
        logURL = FileManager.default.temporaryDirectory.appendingPathComponent("meshport-ble-world-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: logURL.path, contents: nil) else {
            close(control)
            throw ProcessFailure("cannot create \(logURL.path)")
        }
        process.standardError = try FileHandle(forWritingTo: logURL)
        out = PipeReader(pipe.fileHandleForReading)
        do {
            try process.run()
        } catch {
            close(control)
            throw error
        }
        // Only the world holds its end now: closing ours is its EOF.
        try theirs.close()
        // "WORLD READY transport=tcp-server:127.0.0.1:PORT peripherals=A,B names=N,M noise=X|none mode=... control=stdin"
        let ready = await out.firstLine(within: 60) ? out.current.split(separator: "\n").first.map(String.init) : nil
        guard let fields = ready.flatMap(Self.fields),
              let port = fields["transport"]?.split(separator: ":").last.flatMap({ Int($0) }),
              let addresses = fields["peripherals"], let names = fields["names"]
        else {
            port = 0
            peripherals = []
            names = []
            noise = nil
            await stop()
            throw ProcessFailure("the BLE world did not start: \(out.current) \(log.suffix(2000))")
        }
        self.port = port
        peripherals = addresses.split(separator: ",").map(String.init)
        self.names = names.split(separator: ",").map(String.init)
        noise = fields["noise"].flatMap { $0 == "none" ? nil : $0 }
    }

    /// The READY line's key=value fields; nil for any other line.
    static func fields(_ line: String) -> [String: String]? {
        guard line.hasPrefix("WORLD READY ") else { return nil }
        var fields: [String: String] = [:]
        for word in line.split(separator: " ").dropFirst(2) {
            guard let eq = word.firstIndex(of: "=") else { continue }
            fields[String(word[..<eq])] = String(word[word.index(after: eq)...])
        }
        return fields
    }

    /// Sends one control command ("lose 1", "cut 1 notify", "forget 2", "status", ...) and
    /// returns its reply after "OK "; an "ERR" reply, or none within 10 s, throws.
    @discardableResult
    public func control(_ command: String) async throws -> String {
        let ticket: Int = try lock.withLock {
            guard !stopped else { throw ProcessFailure("the BLE world is stopped") }
            let bytes = Array((command + "\n").utf8)
            let n = bytes.withUnsafeBytes { send(control, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n == bytes.count else { throw ProcessFailure("control '\(command)': the world is gone (errno \(errno))\n\(log.suffix(2000))") }
            sent += 1
            return sent
        }
        // Replies come in order, one line each, after the READY line.
        for _ in 0..<1000 {
            let lines = out.current.split(separator: "\n", omittingEmptySubsequences: false)
            if lines.count > ticket + 1 {
                let reply = String(lines[ticket])
                guard reply.hasPrefix("OK ") else { throw ProcessFailure("control '\(command)': \(reply)") }
                return String(reply.dropFirst(3))
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw ProcessFailure("control '\(command)': no reply within 10 s\n\(log.suffix(2000))")
    }

    /// The world's log so far (its stderr), for a failure's message.
    public var log: String {
        do {
            return String(decoding: try Data(contentsOf: logURL), as: UTF8.self)
        } catch {
            return "(no log: \(error))"
        }
    }

    /// Whether the world process still runs.
    public var isRunning: Bool { process.isRunning }

    /// Stops the world (closing its stdin; SIGTERM, then SIGKILL, if it lingers) and waits
    /// for it on a thread of its own (see `offPool`). Safe to call more than once; deinit
    /// stops it too.
    public func stop() async {
        guard closeControl() else { return }
        let world = ChildProcess(process)
        await offPool { Self.waitForExit(world.process) }
    }

    /// Closes our end of the world's stdin, its EOF, once; false if it was closed before.
    private func closeControl() -> Bool {
        lock.withLock {
            guard !stopped else { return false }
            stopped = true
            close(control)
            return true
        }
    }

    /// Gives a world whose stdin was closed 5 s to end, then SIGTERM and 5 s more, then SIGKILL.
    /// Blocks: never on the cooperative pool.
    private static func waitForExit(_ process: Process) {
        var deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate() }
        deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(10_000) }
    }

    deinit {
        let running = closeControl()
        let keep = ProcessInfo.processInfo.environment["MESHPORT_KEEP_LOGS"] != nil
        if keep { print("BLE world log kept: \(logURL.path)") }
        // The wait on a thread of its own: a deinit runs on whichever thread drops the last
        // reference, in a test a thread of the cooperative pool.
        let world = ChildProcess(process), logURL = logURL
        Thread {
            if running { Self.waitForExit(world.process) }
            if keep { return }
            do {
                try FileManager.default.removeItem(at: logURL)
            } catch {
                // A log left in the temporary folder harms nothing.
            }
        }.start()
    }
}
