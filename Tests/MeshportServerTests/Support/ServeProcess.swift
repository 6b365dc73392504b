import Foundation
import MeshportTestSupport

/// `meshport serve` in its own process, as a person starts it: the addresses it announces,
/// what it printed, and a SIGTERM to stop it. With `syntheticEvents`, the server is
/// MeshportTestServe (Tests/Tools/TestServe): the same, plus POST /api/test/events.
final class ServeProcess: @unchecked Sendable {
    private let process = Process()
    private let out: PipeReader
    private let err: PipeReader
    private let exited = TestBox<Int32?>(nil)
    let httpPort: Int
    /// One per --companion, in order.
    let companionPorts: [Int]

    init(_ arguments: [String], environment: [String: String], companions: Int = 0, syntheticEvents: Bool = false) async throws {
        if syntheticEvents {
            process.executableURL = try builtExecutable("MeshportTestServe")
            process.arguments = arguments
        } else {
            process.executableURL = try meshportBinary()
            process.arguments = ["serve"] + arguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        let exited = exited
        process.terminationHandler = { p in exited.set(p.terminationStatus) }
        try process.run()
        out = PipeReader(stdout.fileHandleForReading)
        err = PipeReader(stderr.fileHandleForReading)
        var http: Int?
        var companionPorts: [Int] = []
        let deadline = ContinuousClock.now + .seconds(60)
        while http == nil || companionPorts.count < companions {
            let lines = out.current.split(separator: "\n")
            http = lines.lazy.compactMap { Self.port(in: $0, after: "listening on http://") }.first
            companionPorts = lines.compactMap { $0.contains("companion for radio") ? Self.port(in: $0, after: "on tcp://") : nil }
            if exited.get() != nil || ContinuousClock.now > deadline {
                if process.isRunning { process.terminate() }
                throw TestFailure("meshport serve did not announce itself: \(out.current) \(err.current)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        httpPort = http ?? 0
        self.companionPorts = companionPorts
    }

    private static func port(in line: Substring, after marker: String) -> Int? {
        guard let range = line.range(of: marker) else { return nil }
        let rest = line[range.upperBound...]
        guard let colon = rest.lastIndex(of: ":") else { return nil }
        return Int(rest[rest.index(after: colon)...].prefix { $0.isNumber })
    }

    var stdout: String { out.current }
    var stderr: String { err.current }

    /// SIGTERM, then its exit status (nil when it did not exit within `limit`).
    func stop(within limit: Duration = .seconds(20)) async throws -> Int32? {
        if process.isRunning { process.terminate() }
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let status = exited.get() { return status }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// SIGTERM, and a bounded wait for the exit on a thread of its own (not the cooperative
    /// pool this deinit may run on); SIGKILL when the graceful shutdown hangs (said on stderr:
    /// `stop()` is where a test checks that it does not).
    deinit {
        guard exited.get() == nil else { return }
        stopInBackground(process, name: "meshport serve")
    }
}

/// A value behind a lock, for the tests' callbacks.
final class TestBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func get() -> Value { lock.withLock { value } }
    func set(_ new: Value) { lock.withLock { value = new } }
    func update<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&value) } }
}

/// One test's server: its own folders, a `meshport sim` (or several) and `meshport serve` on them.
final class ServerWorld: Sendable {
    let dir = TempDir()
    let sims: [SimProcess]
    let serve: ServeProcess

    var port: Int { serve.httpPort }
    var database: String { dir.path("serve.db") }
    static func environment(_ dir: TempDir) -> [String: String] { meshportEnvironment(in: dir) }

    /// `scenario`: a MeshSim scenario (JSON) for every sim; `extraRadios`: more --radio URLs
    /// (e.g. one nothing listens on); `syntheticEvents`: the server takes POST /api/test/events;
    /// `environment`: more variables for serve (systemd's).
    init(sims count: Int = 1, scenario: String? = nil, serveArguments: [String] = [], extraRadios: [String] = [], companions: Int = 0,
         syntheticEvents: Bool = false, waitReady: Bool = true, environment: [String: String] = [:]) async throws {
        var simArguments = ["--listen", "tcp://127.0.0.1:0"]
        if let scenario {
            let file = dir.url.appendingPathComponent("scenario.json")
            try Data(scenario.utf8).write(to: file)
            simArguments += ["--scenario", file.path]
        }
        var sims: [SimProcess] = []
        for n in 0..<count { sims.append(try await SimProcess(simArguments + ["--seed", "\(n + 1)"])) }
        self.sims = sims
        var arguments = ["--db", dir.path("serve.db"), "--http", "127.0.0.1:0"]
        for sim in sims { arguments += ["--radio", sim.address] }
        for url in extraRadios { arguments += ["--radio", url] }
        for _ in 0..<companions { arguments += ["--companion", "127.0.0.1:0"] }
        serve = try await ServeProcess(arguments + serveArguments, environment: Self.environment(dir).merging(environment) { $1 },
                                       companions: companions,
                                       syntheticEvents: syntheticEvents)
        if waitReady { try await ready(count) }
    }

    /// Waits until the first `n` radios say they are ready.
    func ready(_ n: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let radios = try await get("/api/radios").array
            if radios.prefix(n).filter({ $0["ready"] as? Bool == true }).count == n { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("radios not ready within 60 s: \(try await get("/api/radios"))")
    }

    func get(_ path: String, headers: [(String, String)] = []) async throws -> HTTPReply {
        try await RawHTTP.request(port: port, "GET", path, headers: headers)
    }

    func send(_ method: String, _ path: String, _ body: Any = [String: Any](), headers: [(String, String)] = []) async throws -> HTTPReply {
        try await RawHTTP.json(port: port, method, path, body, headers: headers)
    }

    /// The texts of radio 0's stored messages a search for `word` finds (up to 200).
    func searchTexts(_ word: String) async throws -> [String] {
        let query = word.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? word
        let hits = try await get("/api/radios/0/search?q=\(query)&limit=200").object["hits"] as? [[String: Any]] ?? []
        return hits.compactMap { ($0["message"] as? [String: Any])?["text"] as? String }
    }

    /// The key of the first contact of radio `radio` named `name`.
    func contactKey(_ name: String, radio: Int = 0) async throws -> String {
        let query = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name
        let list = try await get("/api/radios/\(radio)/contacts?q=\(query)").array
        guard let key = list.first(where: { $0["name"] as? String == name })?["key"] as? String else {
            throw TestFailure("no contact \(name) on radio \(radio): \(list)")
        }
        return key
    }
}
