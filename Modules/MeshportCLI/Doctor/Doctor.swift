import ArgumentParser
import Foundation
import MeshTransport

/// `meshport doctor`: what stands between this machine and its radios, each finding with the
/// command or file that fixes it. Exit status 0 only when nothing is a problem.
struct Doctor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check drivers, device access, Bluetooth, the database, serve's ports, the clock and the config.",
        discussion: "Each check prints ok, problem (with its fix) or skipped (nothing to check here). "
            + "Exit status 0 when no check found a problem, 1 otherwise. See Docs/cli.md.")

    @Option(help: ArgumentHelp("History database; default: $MESHPORT_DB, then $XDG_DATA_HOME/meshport/meshport.db.", valueName: "path"))
    var db: String?

    @Option(help: ArgumentHelp("The HTTP address serve would listen on; default: the config file's, then \(Serve.defaultHTTP).", valueName: "host:port"))
    var http: String?

    @Option(name: .customLong("companion"), help: ArgumentHelp("A companion address serve would listen on; repeatable. Default: the config file's.", valueName: "host:port"))
    var companions: [String] = []

    @Option(help: ArgumentHelp("serve's config file to check, whose db, http and companion addresses are checked unless given here; "
        + "default: \(ConfigChecks.servicePath) when it exists.", valueName: "path"))
    var config: String?

    @Flag(help: "Print one JSON object per check (name, status, detail, fix).") var json = false

    func run() async throws {
        var serveFile: ServeConfigFile?
        var serveCheck: [DoctorCheck] = []
        if let path = config ?? (FileManager.default.fileExists(atPath: ConfigChecks.servicePath) ? ConfigChecks.servicePath : nil) {
            let (check, file) = ConfigChecks.serveFile(path: path)
            serveCheck = [check]
            serveFile = file
        }
        let checks = Self.checks(DoctorEnvironment.current(), database: db ?? serveFile?.db ?? Paths.database, configFile: Paths.configFile,
                                 http: http ?? serveFile?.http ?? Serve.defaultHTTP,
                                 companions: companions.isEmpty ? serveFile?.companion ?? [] : companions) + serveCheck
        if json {
            try Output.json([
                "ok": !checks.contains { $0.status == .problem },
                "checks": checks.map { ["name": $0.name, "status": $0.status.rawValue, "detail": $0.detail, "fix": $0.fix.map { $0 as Any } ?? NSNull()] as [String: Any] },
            ])
        } else {
            for check in checks {
                print(check.status.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0) + check.name + ": " + check.detail)
                if let fix = check.fix { print("        fix: " + fix) }
            }
        }
        if checks.contains(where: { $0.status == .problem }) { throw ExitCode.failure }
    }

    /// Every check, in the order a person fixes things: drivers, devices, storage, network, time, settings.
    static func checks(_ env: DoctorEnvironment, database: String, configFile: String, http: String, companions: [String]) -> [DoctorCheck] {
        var loader = PluginLoader()
        loader.load(directories: env.pluginSearchPath)
        return PluginChecks.run(loader, searched: env.pluginSearchPath)
            + SerialChecks.run(env) + USBChecks.run(env) + BluetoothChecks.run(env)
            + DatabaseChecks.run(env, path: database)
            + PortChecks.run(http: http, companions: companions)
            + ClockChecks.run(env)
            + [ConfigChecks.run(path: configFile, loader: loader)]
    }
}
