import Foundation

/// The emulated Bluetooth world (Tools/BLE/world.py on Bumble, from the .venv `make venv`
/// makes): one controller on H4/TCP for Meshport's LE host and MeshCore-like radios on the
/// virtual air. One host at a time, so each test starts its own; stopped with SIGTERM.
public final class BLEWorldProcess: @unchecked Sendable {
    private let process = Process()
    private let out: PipeReader
    private let logURL: URL
    /// The controller's H4 port on 127.0.0.1.
    public let port: Int
    /// The `hci=` value for it.
    public var hci: String { "tcp:127.0.0.1:\(port)" }

    /// The package root, found from this file's place in it.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public init(_ arguments: [String]) throws {
        let python = Self.root.appendingPathComponent(".venv/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw ProcessFailure("no \(python.path): run `make venv` (the BLE tests need Bumble)")
        }
        process.executableURL = python
        process.arguments = [Self.root.appendingPathComponent("Tools/BLE/world.py").path, "--port", "0"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        logURL = FileManager.default.temporaryDirectory.appendingPathComponent("meshport-ble-world-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: logURL.path, contents: nil) else { throw ProcessFailure("cannot create \(logURL.path)") }
        process.standardError = try FileHandle(forWritingTo: logURL)
        out = PipeReader(pipe.fileHandleForReading)
        try process.run()
        // "WORLD READY transport=tcp-server:127.0.0.1:PORT peripherals=[...] mode=..."
        guard out.waitForFirstLine(seconds: 60), let line = out.current.split(separator: "\n").first, line.hasPrefix("WORLD READY"),
              let transport = line.split(separator: " ").first(where: { $0.hasPrefix("transport=") }),
              let port = transport.split(separator: ":").last.flatMap({ Int($0) })
        else {
            process.terminate()
            port = 0
            throw ProcessFailure("the BLE world did not start: \(out.current) \(log.suffix(2000))")
        }
        self.port = port
    }

    /// The world's log so far (its stderr), for a failure's message.
    public var log: String {
        do {
            return String(decoding: try Data(contentsOf: logURL), as: UTF8.self)
        } catch {
            return "(no log: \(error))"
        }
    }

    deinit {
        process.terminate()
        // The world closes its host connection on SIGTERM; one still busy gets SIGKILL.
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        do {
            try FileManager.default.removeItem(at: logURL)
        } catch {
            // A log left in the temporary folder harms nothing.
        }
    }
}
