import Foundation
import MeshportTestSupport
import MeshTransport
import Testing
@testable import MeshportCLI
#if canImport(Glibc)
import Glibc
#endif

/// `meshport doctor`'s checks of plugins, the database, serve's ports, the clock and the
/// config, each against a prepared case; and the command end to end.
@Suite(.timeLimit(.minutes(1))) struct DoctorSystemTests {
    /// The folder of this test binary, where `swift build` puts the drivers.
    static let buildFolder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path

    @Test func missingPluginFolder() {
        let folder = TempDir().path("no-plugins")
        let checks = PluginChecks.run(PluginLoader(), searched: [(folder, false)])
        #expect(checks.count == 1 && checks[0].status == .problem && checks[0].detail.contains(folder), "\(checks)")
        #expect(checks[0].fix?.contains("MESHPORT_PLUGIN_PATH") == true)
    }

    /// The built drivers load; a file that is no library and a group-writable one are refused,
    /// the second with the loader's own chmod as its fix.
    @Test func loadedAndRefusedPlugins() throws {
        let dir = TempDir()
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.url.path)
        for (name, mode) in [("libtext.so", 0o644), ("libshared.so", 0o664)] {
            try "not a library\n".write(toFile: dir.path(name), atomically: false, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: dir.path(name))
        }
        let search = [(Self.buildFolder, true), (dir.url.path, false)]
        var loader = PluginLoader()
        loader.load(directories: search)
        let checks = PluginChecks.run(loader, searched: search)
        #expect(checks[0].status == .ok && checks[0].detail.contains("tcp (tcp)"), "\(checks)")
        let text = try check("plugin \(dir.path("libtext.so"))", in: checks)
        #expect(text.status == .problem && text.detail.contains("no ELF header") && text.fix?.contains("rebuild it") == true, "\(text)")
        #expect(try check("plugin \(dir.path("libshared.so"))", in: checks).fix == "chmod go-w \(dir.path("libshared.so"))")
    }

    @Test func databaseNotMadeYet() throws {
        let machine = DoctorMachine()
        try machine.folder("/open")
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: machine.root + "/open")
        let checks = DatabaseChecks.run(machine.environment(), path: machine.root + "/open/data/meshport.db")
        #expect(checks.map(\.status) == [.ok, .ok], "\(checks)")

        let closed = DatabaseChecks.run(machine.environment(), path: machine.root + "/data/meshport.db")
        #expect(closed[0].status == .problem && closed[0].fix == "sudo install -d -o $USER \(machine.root)/data, or choose another file with --db", "\(closed)")
    }

    /// A database the made-up user may only read is a problem; open to all it is not. Its
    /// content is intact and current either way.
    @Test func readOnlyDatabase() async throws {
        let machine = DoctorMachine()
        let path = machine.root + "/meshport.db"
        _ = try await StoreFile.open(path).close()
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let readOnly = DatabaseChecks.run(machine.environment(), path: path)
        #expect(readOnly.map(\.name) == ["database", "database access", "disk space"])
        #expect(readOnly[0].status == .ok && readOnly[0].detail.contains("intact, schema current"), "\(readOnly)")
        #expect(readOnly[1].status == .problem && readOnly[1].detail.contains("you may not write \(path)"), "\(readOnly)")

        for item in [path, machine.root] { try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: item) }
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: path)
        #expect(DatabaseChecks.run(machine.environment(), path: path)[1].status == .ok)
    }

    @Test func damagedDatabase() throws {
        let dir = TempDir()
        try String(repeating: "not SQLite ", count: 500).write(toFile: dir.path("meshport.db"), atomically: false, encoding: .utf8)
        let content = DatabaseChecks.content(path: dir.path("meshport.db"))
        #expect(content.status == .problem && content.fix?.contains("restore a backup") == true, "\(content)")
    }

    @Test func portInUse() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        #expect(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let checks = PortChecks.run(http: "127.0.0.1:\(port)", companions: ["127.0.0.1:0", "localhost"])
        #expect(checks.map(\.status) == [.problem, .ok, .problem], "\(checks)")
        #expect(checks[0].detail.contains("in use") && checks[0].fix?.contains("sport = :\(port)") == true)
        #expect(checks[2].fix == "give --companion as HOST:PORT, e.g. 127.0.0.1:8080")
    }

    @Test func clockBeforeTheBuildAndItsSync() throws {
        let machine = DoctorMachine()
        let built = Date(timeIntervalSince1970: 1_790_000_000)
        let early = ClockChecks.run(machine.environment(now: Date(timeIntervalSince1970: 0), buildDate: built))
        #expect(early.map(\.status) == [.problem, .skipped], "\(early)")
        #expect(early[0].detail.contains("1970-01-01") && early[0].fix?.hasPrefix("sudo timedatectl set-ntp true") == true)

        try machine.folder("/run/systemd/timesync")
        #expect(ClockChecks.run(machine.environment(buildDate: built))[1].status == .problem)
        try machine.file("/run/systemd/timesync/synchronized")
        #expect(ClockChecks.run(machine.environment(buildDate: built)).map(\.status) == [.ok, .ok])
    }

    @Test func config() throws {
        let dir = TempDir()
        var loader = PluginLoader()
        loader.load(directories: [(Self.buildFolder, true)])
        #expect(ConfigChecks.run(path: dir.path("config.json"), loader: loader).status == .ok)

        try "{\"radio\": ".write(toFile: dir.path("config.json"), atomically: false, encoding: .utf8)
        let broken = ConfigChecks.run(path: dir.path("config.json"), loader: loader)
        #expect(broken.status == .problem && broken.fix?.hasPrefix("rm \(dir.path("config.json"))") == true, "\(broken)")

        try "{\"radio\": \"nosuch://radio\"}".write(toFile: dir.path("config.json"), atomically: false, encoding: .utf8)
        let unknown = ConfigChecks.run(path: dir.path("config.json"), loader: loader)
        #expect(unknown.status == .problem && unknown.detail.contains("nosuch://radio"), "\(unknown)")

        try "{\"radio\": \"tcp://127.0.0.1:5000\"}".write(toFile: dir.path("config.json"), atomically: false, encoding: .utf8)
        #expect(ConfigChecks.run(path: dir.path("config.json"), loader: loader) == .ok("config", "default radio tcp://127.0.0.1:5000 (\(dir.path("config.json")))"))
    }

    @Test func serveConfigFile() throws {
        let dir = TempDir()
        try "http = \"127.0.0.1:8090\"\n".write(toFile: dir.path("s.toml"), atomically: false, encoding: .utf8)
        let (good, file) = ConfigChecks.serveFile(path: dir.path("s.toml"))
        #expect(good.status == .ok && file?.http == "127.0.0.1:8090", "\(good)")

        try "http = \"127.0.0.1:8090\"\nlisten = 5\n".write(toFile: dir.path("s.toml"), atomically: false, encoding: .utf8)
        let (bad, none) = ConfigChecks.serveFile(path: dir.path("s.toml"))
        #expect(bad.status == .problem && none == nil && bad.detail.hasPrefix("\(dir.path("s.toml")), line 2: listen: unknown key"), "\(bad)")
        #expect(bad.fix?.hasPrefix("correct \(dir.path("s.toml")) at line 2") == true)
    }

    /// The command on this machine: one object per check, a fix for each problem and only
    /// for problems, and exit status 0 exactly when none is a problem. serve's config file
    /// names the database and the address checked.
    @Test func commandReportsEveryCheck() async throws {
        let dir = TempDir()
        try "db = \"\(dir.path("meshport.db"))\"\nhttp = \"127.0.0.1:0\"\n".write(toFile: dir.path("s.toml"), atomically: false, encoding: .utf8)
        let run = try await runMeshport(["doctor", "--json", "--config", dir.path("s.toml")])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any], "\(run.out) \(run.err)")
        let checks = try #require(doc["checks"] as? [[String: Any]])
        let names = checks.compactMap { $0["name"] as? String }
        #expect(names.first == "plugins" && names.contains("http 127.0.0.1:0") && names.suffix(2) == ["config", "serve config"], "\(names)")
        let database = try #require(checks.first { $0["name"] as? String == "database" })
        #expect((database["detail"] as? String)?.contains(dir.path("meshport.db")) == true, "\(database)")
        for item in checks {
            let status = try #require(item["status"] as? String)
            #expect(["ok", "problem", "skipped"].contains(status) && item["detail"] is String)
            #expect((status == "problem") == (item["fix"] is String), "\(item)")
        }
        let problems = checks.filter { $0["status"] as? String == "problem" }.count
        #expect(doc["ok"] as? Bool == (problems == 0) && run.status == (problems == 0 ? 0 : 1), "\(run.status) \(run.out)")

        let text = try await runMeshport(["doctor", "--db", dir.path("meshport.db"), "--http", "127.0.0.1:0"])
        #expect(text.status == run.status && text.out.components(separatedBy: "\n        fix: ").count - 1 == problems, "\(text.out)")
    }
}
