import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Debian's PostgreSQL 15 in a folder of its own, on a free loopback port: `initdb` (UTF8,
/// trust authentication for the one user `meshport`), then `postgres`, its socket in the
/// folder. PostgreSQL refuses to run as root, so a root test runs both as
/// `nobody` (through `runuser`) in folders that user owns. One database per test
/// (`createDatabase`); it can be stopped, killed with SIGKILL and started again on the same
/// port and data. Killed and removed when released. With `tls`, it takes TLS connections only
/// (`PostgresProcess+TLS.swift`).
public final class PostgresProcess: @unchecked Sendable {
    public static let binaries = "/usr/lib/postgresql/15/bin"
    public static let user = "meshport"

    public let folder = TempDir()
    public private(set) var port: UInt16 = 0
    /// With `tls`: the CA that signed the server's certificate (and the client certificates).
    public private(set) var certificates: TestCertificates?
    /// The data folder (`initdb -D`).
    public var dataFolder: String { folder.path("data") }
    /// The socket folder and the server's log, writable by the user it runs as.
    private var runFolder: String { folder.path("run") }
    public var logFile: String { runFolder + "/postgres.log" }
    private let lock = NSLock()
    private var frozen: [pid_t] = []

    /// `serverNames`: the subject alternative names of the server's certificate, with `tls`.
    public init(tls: Bool = false, serverNames: [String] = ["IP:127.0.0.1"]) async throws {
        certificates = try await offPool { [folder, dataFolder, runFolder] in
            for path in [dataFolder, runFolder] {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
                if let owner = Self.serverUser { try Self.chown(path, to: owner) }
            }
            try Self.runServerTool("initdb", ["-D", dataFolder, "-U", Self.user, "--auth=trust", "-E", "UTF8", "--no-locale",
                                              "--no-instructions"], in: folder)
            return tls ? try Self.configureTLS(dataFolder: dataFolder, serverNames: serverNames, in: folder) : nil
        }
        // The server exits when its port was taken meanwhile: then it starts on another.
        try await startingAgainOnTakenPorts {
            port = try freeLoopbackPort()
            try await start()
        }
    }

    deinit {
        let pids = serverProcesses()
        guard !pids.isEmpty else { return }
        for pid in pids { kill(pid, SIGKILL) }
        // The folder goes once the server's processes are gone.
        let keeping = folder
        Thread {
            let deadline = Date().addingTimeInterval(10)
            while pids.contains(where: { kill($0, 0) == 0 }), Date() < deadline { usleep(20_000) }
            withExtendedLifetime(keeping) {}
        }.start()
    }

    /// Starts the server and waits (at most 60 s) until it accepts connections.
    public func start() async throws {
        // postgres itself, not `pg_ctl start`: the server stays this process's child (through
        // runuser), and nothing waits for a tool that leaves a daemon behind.
        let server = Self.binaries + "/postgres"
        let arguments = ["-D", dataFolder, "-p", String(port), "-h", "127.0.0.1", "-k", runFolder]
        let process = Process()
        if Self.serverUser != nil {
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
            process.arguments = ["-u", "nobody", "--", server] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: server)
            process.arguments = arguments
        }
        process.currentDirectoryURL = folder.url
        if !FileManager.default.fileExists(atPath: logFile), !FileManager.default.createFile(atPath: logFile, contents: nil) {
            throw ProcessFailure("cannot create \(logFile)")
        }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: logFile))
        output.seekToEndOfFile()
        process.standardOutput = output
        process.standardError = output
        // The log is appended to by every start: only this start's lines count.
        let earlier = log
        try process.run()
        let child = ChildProcess(process)
        let ready = await offPool { [port] in
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, child.process.isRunning {
                do {
                    try runTool(Self.binaries + "/pg_isready", ["-q", "-h", "127.0.0.1", "-p", String(port), "-U", Self.user])
                    return true
                } catch {
                    usleep(100_000)   // not accepting connections yet
                }
            }
            return false
        }
        guard ready else {
            let said = String(self.log.dropFirst(earlier.count))
            guard process.isRunning else { throw ProcessFailure("PostgreSQL exited before accepting connections: \(said)") }
            throw ProcessFailure("PostgreSQL did not accept connections within 60 s: \(said)")
        }
    }

    /// A fast shutdown (SIGINT): connections are closed, the data is kept; waits until it has exited.
    public func stop() async throws {
        let pids = serverProcesses()
        guard let postmaster = pids.first else { return }
        kill(postmaster, SIGINT)
        let stopped = await offPool {
            let deadline = Date().addingTimeInterval(60)
            while pids.contains(where: { isAlive($0) }), Date() < deadline { usleep(20_000) }
            return !pids.contains(where: { isAlive($0) })
        }
        guard stopped else { throw ProcessFailure("PostgreSQL did not stop within 60 s: \(log)") }
    }

    /// SIGSTOP to the postmaster and every backend: a server that still accepts connections
    /// (the kernel completes them) and answers nothing, as a frozen VM or a swapping host.
    public func freeze() {
        let pids = serverProcesses()
        lock.withLock { frozen = pids }
        for pid in pids { kill(pid, SIGSTOP) }
    }

    /// SIGCONT to what `freeze` stopped.
    public func thaw() {
        let pids = lock.withLock { () -> [pid_t] in
            defer { frozen = [] }
            return frozen
        }
        for pid in pids { kill(pid, SIGCONT) }
    }

    /// SIGKILL to the postmaster and every backend, as a crash would stop it; waits until they are gone.
    public func kill9() async {
        let pids = serverProcesses()
        for pid in pids { kill(pid, SIGKILL) }
        await offPool {
            let deadline = Date().addingTimeInterval(10)
            while pids.contains(where: { isAlive($0) }), Date() < deadline { usleep(20_000) }
        }
    }

    /// Creates an empty database and returns its `postgres://` URL.
    public func createDatabase(_ name: String = "region_\(UInt32.random(in: 0...UInt32.max))") async throws -> String {
        _ = try await offPool { [port] in
            try runTool(Self.binaries + "/createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", Self.user, name])
        }
        return url(database: name)
    }

    public func url(database: String) -> String { "postgres://\(Self.user)@127.0.0.1:\(port)/\(database)" }

    /// `pg_dump --schema-only` of `database`, as text.
    public func schemaDump(database: String) async throws -> String {
        try await offPool { [port] in
            try runTool(Self.binaries + "/pg_dump", ["--schema-only", "--no-owner", "--no-privileges", "-h", "127.0.0.1",
                                                        "-p", String(port), "-U", Self.user, database])
        }
    }

    /// The rows `sql` returns in `database` (psql, unaligned): each row's columns split at `|`.
    public func query(_ sql: String, database: String) async throws -> [[String]] {
        let output = try await offPool { [port] in
            try runTool(Self.binaries + "/psql", ["-X", "-q", "-A", "-t", "-F", "|", "-h", "127.0.0.1", "-p", String(port), "-U", Self.user,
                                                     "-d", database, "-v", "ON_ERROR_STOP=1", "-c", sql])
        }
        return output.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
    }

    /// What the server logged so far.
    public var log: String {
        do { return try String(contentsOfFile: logFile, encoding: .utf8) } catch { return "(no log: \(error))" }
    }

    /// The postmaster (from its pid file) and its children.
    private func serverProcesses() -> [pid_t] {
        let pidFile: String
        do { pidFile = try String(contentsOfFile: dataFolder + "/postmaster.pid", encoding: .utf8) } catch { return [] }   // not running
        guard let first = pidFile.split(separator: "\n").first, let postmaster = pid_t(first), isAlive(postmaster) else { return [] }
        return [postmaster] + children(of: postmaster)
    }

    /// The user the server runs as: `nobody` when this process is root, else this user (nil).
    static var serverUser: (uid: uid_t, gid: gid_t)? {
        guard geteuid() == 0, let entry = getpwnam("nobody") else { return nil }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    static func chown(_ path: String, to owner: (uid: uid_t, gid: gid_t)) throws {
        guard Glibc.chown(path, owner.uid, owner.gid) == 0 else { throw ProcessFailure("chown \(path) to nobody: errno \(errno)") }
    }

    /// Runs a server tool as the server's user (blocking: call it through `offPool`).
    private static func runServerTool(_ tool: String, _ arguments: [String], in folder: TempDir) throws {
        if serverUser != nil {
            try runTool("/usr/sbin/runuser", ["-u", "nobody", "--", binaries + "/" + tool] + arguments, in: folder.url)
        } else {
            try runTool(binaries + "/" + tool, arguments, in: folder.url)
        }
    }
}

/// Whether a process with this pid exists (and is not a zombie of ours).
private func isAlive(_ pid: pid_t) -> Bool {
    guard kill(pid, 0) == 0 else { return false }
    let stat: String
    do { stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) } catch { return false }   // gone meanwhile
    // The state follows the command name in parentheses: Z is a zombie.
    guard let close = stat.lastIndex(of: ")") else { return true }
    return !stat[close...].dropFirst(2).hasPrefix("Z")
}

/// The pids whose parent is `parent`, from /proc.
private func children(of parent: pid_t) -> [pid_t] {
    let entries: [String]
    do { entries = try FileManager.default.contentsOfDirectory(atPath: "/proc") } catch { return [] }
    return entries.compactMap { entry -> pid_t? in
        guard let pid = pid_t(entry) else { return nil }
        let stat: String
        do { stat = try String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8) } catch { return nil }   // gone meanwhile
        // "pid (comm) state ppid ...": the parent is the second field after the name.
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 1, pid_t(fields[1]) == parent else { return nil }
        return pid
    }
}
