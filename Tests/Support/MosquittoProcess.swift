import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Debian's `mosquitto` in a folder of its own, listening on free loopback ports: plain MQTT,
/// MQTT over TLS (a CA and a server certificate for 127.0.0.1 made with openssl) and
/// WebSockets. Anonymous clients are refused; `users` are in a password file made with
/// `mosquitto_passwd`, and an ACL limits each one (`aclRules`). It can be killed with SIGKILL
/// and started again on the same ports and persistence folder. Stopped when released.
public final class MosquittoProcess: @unchecked Sendable {
    public static let users = ["meshport": "meshport-secret", "reader": "reader-secret", "limited": "limited-secret"]
    /// meshport writes and reads `test/#`, the gateway topics `meshcore/#` and the home
    /// automation topics `meshport/#`; reader reads everything; limited only `allowed/#`.
    static let aclRules = """
        user meshport
        topic readwrite test/#
        topic readwrite meshcore/#
        topic readwrite meshport/#

        user reader
        topic read #

        user limited
        topic readwrite allowed/#

        """

    public let folder = TempDir()
    public private(set) var plainPort: UInt16 = 0
    public private(set) var tlsPort: UInt16 = 0
    public private(set) var webSocketPort: UInt16 = 0
    /// The CA that signed the broker's certificate, for `?ca=`.
    public var caFile: String { folder.path("ca.pem") }
    private let lock = NSLock()
    private var process: Process?

    /// `queueLimit`: the most QoS 1 messages queued per client (`max_queued_messages`; Mosquitto
    /// drops what is past it, 1000 by default), raised for brokers feeding ingest workers.
    public init(queueLimit: Int? = nil) async throws {
        try await offPool { [folder] in try Self.writeCredentials(in: folder) }
        // Mosquitto exits when a port was taken meanwhile: then it starts on other ports.
        try await startingAgainOnTakenPorts {
            (plainPort, tlsPort, webSocketPort) = (try freeLoopbackPort(), try freeLoopbackPort(), try freeLoopbackPort())
            try writeConfig(queueLimit: queueLimit)
            try await start()
        }
    }

    /// The password file, the ACL and the server's certificate.
    private static func writeCredentials(in folder: TempDir) throws {
        try TestCertificates(in: folder).issue("server", commonName: "127.0.0.1", alternativeNames: ["IP:127.0.0.1", "DNS:localhost"])
        var first = true
        for (user, password) in users.sorted(by: { $0.key < $1.key }) {
            try runTool("/usr/bin/mosquitto_passwd", ["-b"] + (first ? ["-c"] : []) + [folder.path("passwd"), user, password])
            first = false
        }
        try Data(aclRules.utf8).write(to: folder.url.appendingPathComponent("acl"))
        try FileManager.default.createDirectory(atPath: folder.path("data"), withIntermediateDirectories: true)
    }

    /// mosquitto.conf for the current ports.
    private func writeConfig(queueLimit: Int?) throws {
        let queue = queueLimit.map { "max_queued_messages \($0)\n" } ?? ""
        let config = """
            per_listener_settings false
            allow_anonymous false
            password_file \(folder.path("passwd"))
            acl_file \(folder.path("acl"))
            persistence true
            persistence_location \(folder.path("data"))/
            autosave_interval 1
            log_dest file \(folder.path("mosquitto.log"))
            log_type error
            log_type warning
            log_type notice
            log_type information
            log_type subscribe
            listener \(plainPort) 127.0.0.1
            listener \(tlsPort) 127.0.0.1
            cafile \(folder.path("ca.pem"))
            certfile \(folder.path("server.pem"))
            keyfile \(folder.path("server.key"))
            listener \(webSocketPort) 127.0.0.1
            protocol websockets

            """
        // Mosquitto 2.0.11 opens its WebSocket listener on every interface (it does not pass
        // the listener's address to libwebsockets); the tests only ever connect to 127.0.0.1.
        try Data((mosquittoUserLine + queue + config).utf8).write(to: folder.url.appendingPathComponent("mosquitto.conf"))
    }

    deinit {
        if let process = lock.withLock({ process }) { killInBackground(process, keeping: folder) }
    }

    /// Starts mosquitto and waits (at most 30 s) until it is running with all three ports open.
    public func start() async throws {
        let process = try await launchMosquitto(folder: folder, ports: [plainPort, tlsPort, webSocketPort])
        lock.withLock { self.process = process }
    }

    /// SIGKILL, as a crash or a power cut would stop it, and waits until it is gone.
    public func kill9() async {
        guard let process = lock.withLock({ self.process }) else { return }
        kill(process.processIdentifier, SIGKILL)
        await waitForExit(process, within: 10)
        lock.withLock { self.process = nil }
    }

    /// Waits until mosquitto has saved its state (sessions, queued messages; every second, see
    /// its config) after `since`, so a SIGKILL from now on loses none of it.
    public func waitUntilSaved(after since: Date, within seconds: Double = 15) async throws {
        let database = folder.path("data") + "/mosquitto.db"
        let saved = await offPool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if let modified = modificationDate(database), modified > since { return true }
                usleep(50_000)
            }
            return false
        }
        guard saved else { throw ProcessFailure("mosquitto did not save its state within \(seconds) s") }
    }

    /// What mosquitto logged so far.
    public var log: String {
        do { return try String(contentsOfFile: folder.path("mosquitto.log"), encoding: .utf8) } catch { return "(no log: \(error))" }
    }

    /// Waits until the broker has logged a subscription of `clientID` to `filter` (at most `seconds`).
    public func waitForSubscription(_ clientID: String, to filter: String, within seconds: Double = 30) async throws {
        let line = "\(clientID) 1 \(filter)"
        let seen = await offPool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if self.log.contains(line) { return true }
                usleep(50_000)
            }
            return false
        }
        guard seen else { throw ProcessFailure("mosquitto logged no subscription of \(clientID) to \(filter) within \(seconds) s") }
    }

    /// The URL of a listener with the credentials of `user` (one of `users`; nil: anonymous).
    public func url(_ scheme: String = "mqtt", user: String? = "meshport", password: String? = nil, query: String = "") -> String {
        let port = switch scheme {
        case "mqtts", "wss": tlsPort
        case "ws": webSocketPort
        default: plainPort
        }
        var credentials = ""
        if let user { credentials = "\(user):\(password ?? Self.users[user] ?? "")@" }
        let path = scheme.hasPrefix("ws") ? "/mqtt" : ""
        return "\(scheme)://\(credentials)127.0.0.1:\(port)\(path)\(query.isEmpty ? "" : "?" + query)"
    }
}

/// `mosquitto_sub -v` as an independent peer: every message on `filters` as a "topic payload"
/// line. A persistent session (`sessionID`) keeps QoS 1 messages for it while it is away
/// (across a broker restart too, since the broker saves its sessions every second).
public final class MosquittoSubscriber: @unchecked Sendable {
    private let process = Process()
    private let out: PipeReader
    private let broker: MosquittoProcess
    private let probeTopic = "test/probe/\(UUID().uuidString)"

    public init(_ broker: MosquittoProcess, filters: [String], user: String = "reader", sessionID: String? = nil) async throws {
        self.broker = broker
        process.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
        var arguments = ["-h", "127.0.0.1", "-p", String(broker.plainPort), "-u", user, "-P", MosquittoProcess.users[user] ?? "",
                         "-v", "-q", "1", "-t", probeTopic]
        for filter in filters { arguments += ["-t", filter] }
        if let sessionID { arguments += ["-c", "-i", sessionID] }
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        out = PipeReader(pipe.fileHandleForReading)
        try process.run()
        // Subscribed once a probe published after it comes back. A probe mosquitto_pub could not
        // deliver (once, on a machine under heavy load: "The connection was lost") is sent again.
        let topic = probeTopic
        var lastFailure: (any Error)?
        for _ in 0..<50 {
            do {
                try await publishWithTool(broker, topic: probeTopic, text: "probe")
            } catch {
                lastFailure = error
                continue
            }
            if await lines(within: 0.2, where: { $0.hasPrefix(topic) }).count > 0 { return }
        }
        throw ProcessFailure("mosquitto_sub did not receive its probe in 50 tries\(lastFailure.map { "; the last publish failed: \($0)" } ?? "")")
    }

    deinit { killInBackground(process) }

    /// Every line received, probes left out.
    public var received: [String] {
        out.current.split(separator: "\n").map(String.init).filter { !$0.hasPrefix(probeTopic) }
    }

    /// Waits until `predicate` holds for the received lines (at most `seconds`); returns them.
    @discardableResult
    public func waitUntil(within seconds: Double = 20, _ predicate: @escaping @Sendable ([String]) -> Bool) async -> [String] {
        await offPool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline, !predicate(self.received) { usleep(20_000) }
            return self.received
        }
    }

    private func lines(within seconds: Double, where match: @escaping @Sendable (String) -> Bool) async -> [String] {
        await offPool {
            let deadline = Date().addingTimeInterval(seconds)
            var found: [String] = []
            repeat {
                found = self.out.current.split(separator: "\n").map(String.init).filter(match)
                if !found.isEmpty { break }
                usleep(20_000)
            } while Date() < deadline
            return found
        }
    }
}

/// Publishes one message with `mosquitto_pub` as `user` (one of `MosquittoProcess.users`).
public func publishWithTool(_ broker: MosquittoProcess, topic: String, text: String, user: String = "meshport") async throws {
    _ = try await offPool {
        try runTool("/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", String(broker.plainPort), "-u", user,
                                               "-P", MosquittoProcess.users[user] ?? "", "-q", "1", "-t", topic, "-m", text])
    }
}

/// SIGKILL now; a thread of its own waits for the exit, then releases `keeping` (the child's
/// folder). Not SIGTERM: a child inherits the signal mask of the test thread that started it,
/// SIGTERM is blocked there, and mosquitto (which only unblocks what was unblocked at its
/// start) would never see it. The test brokers keep nothing worth a clean shutdown.
public func killInBackground(_ process: Process, keeping: (any Sendable)? = nil) {
    guard process.isRunning else { return }
    kill(process.processIdentifier, SIGKILL)
    let child = ChildProcess(process)
    Thread {
        let deadline = Date().addingTimeInterval(10)
        while child.process.isRunning, Date() < deadline { usleep(20_000) }
        withExtendedLifetime(keeping) {}
    }.start()
}


/// When the file at `path` was last written; nil while it does not exist yet.
private func modificationDate(_ path: String) -> Date? {
    do {
        return try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
    } catch {
        return nil   // not written yet
    }
}

