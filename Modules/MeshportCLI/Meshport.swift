import ArgumentParser
import MeshServices

/// The `meshport` command. Subcommand groups live in their own files; later front ends
/// (chat, serve, scan, ...) are added to `subcommands` here.
public struct Meshport: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "meshport",
        abstract: "Toolkit and client for MeshCore companion radios.",
        discussion: ExitStatus.helpText + " See Docs/cli.md.",
        version: MeshportVersion.full,
        subcommands: [
            Info.self, Contacts.self, Channels.self, Send.self, Chat.self, Listen.self, Login.self, Logout.self, Status.self,
            Telemetry.self, Trace.self, Advert.self, Packets.self, GetSetting.self, SetSetting.self, Presets.self, TimeCommand.self, StatsCommand.self, Use.self,
            DB.self, Scan.self, Plugins.self, Doctor.self, Conformance.self, Sim.self, Serve.self, UplinkCommand.self, IngestCommand.self, BLE.self,
        ])

    public init() {}

    /// The executable's entry point: parses the command line and runs the chosen command.
    /// (A top-level `Meshport.main()` call resolves to the synchronous overload, which
    /// cannot run async subcommands.)
    public static func start() async {
        do {
            var command = try await asyncParseAsRoot()
            // serve and ingest choose their own format and level; the others print what they
            // have to say themselves, and the modules' logs only on errors.
            if !(command is Serve || command is IngestCommand) { StderrLogHandler.bootstrap(format: .text, level: .error) }
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            // Failures the commands report have printed their JSON; usage errors have not.
            if Output.jsonRequested, !(error is ExitCode), !(error is CleanExit) {
                Output.jsonFailure(message(for: error), exitStatus: exitCode(for: error).rawValue)
            }
            exit(withError: error)
        }
    }
}
