import ArgumentParser
import Foundation
import MeshCodec
import MeshServices
import MeshStore

/// Options of the commands that talk to a repeater, room server or sensor.
struct RemoteOptions: ParsableArguments {
    @Argument(help: "The node: a contact's name or the start of its key in hex.") var node: String

    @Option(help: "Log in with this password first (status, telemetry); for login, the password.") var password: String?
}

/// `meshport login NODE`: log in to a repeater or room server.
struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Log in to a repeater or room server (admin or guest password).",
        discussion: "Without --password, the one remembered with --remember is used. Exit status 6 when the node refuses, 3 when it does not answer (most servers stay silent on a wrong password).")

    @OptionGroup var options: RadioOptions
    @OptionGroup var remote: RemoteOptions
    @Flag(help: "Remember the password (in $XDG_CONFIG_HOME/meshport/passwords.json, mode 0600).") var remember = false

    func run() async throws {
        try await reportingRadioErrors {
            let (node, password, remember) = (remote.node, remote.password, remember)
            let (contact, login) = try await RadioConnection.with(options, showProgress: false) { radio in
                let c = try await radio.contacts.resolve(node)
                let spinner = Spinner("logging in to \(c.name)")
                defer { spinner.stop() }
                let nodes = radio.remote
                let login = if let password { try await nodes.login(c.publicKey, password: password, remember: remember) } else { try await nodes.login(c.publicKey) }
                return (c, login)
            }
            if options.json {
                try Output.json(["node": contact.name, "key": contact.publicKey.hex, "admin": login.isAdmin, "permission": Int(login.permission),
                                 "role": login.role.description])
            } else {
                print("logged in to \(contact.name) as \(login.isAdmin ? "admin" : "guest")")
            }
        }
    }
}

/// `meshport logout NODE`.
struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Log out of a repeater or room server.")

    @OptionGroup var options: RadioOptions
    @Argument(help: "The node: a contact's name or the start of its key in hex.") var node: String

    func run() async throws {
        try await reportingRadioErrors {
            let node = node
            let contact = try await RadioConnection.with(options, showProgress: false) { radio in
                let c = try await radio.contacts.resolve(node)
                try await radio.remote.logout(c.publicKey)
                return c
            }
            if options.json {
                try Output.json(["node": contact.name, "key": contact.publicKey.hex, "loggedOut": true])
            } else {
                print("logged out of \(contact.name)")
            }
        }
    }
}

/// `meshport status NODE`: a repeater's or room server's status.
struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Ask a repeater or room server for its status (log in first, or give --password).")

    @OptionGroup var options: RadioOptions
    @OptionGroup var remote: RemoteOptions

    func run() async throws {
        try await reportingRadioErrors {
            let (node, password) = (remote.node, remote.password)
            let (contact, status) = try await RadioConnection.with(options, showProgress: false) { radio in
                let c = try await radio.contacts.resolve(node)
                let spinner = Spinner("asking \(c.name) for its status")
                defer { spinner.stop() }
                let nodes = radio.remote
                if let password { try await nodes.login(c.publicKey, password: password) }
                return (c, try await nodes.status(c.publicKey))
            }
            let rows: [(String, Int)] = [
                ("batteryMillivolts", Int(status.batteryMillivolts)), ("uptimeSeconds", Int(status.uptimeSeconds)),
                ("txQueueLength", Int(status.txQueueLength)), ("noiseFloor", Int(status.noiseFloor)), ("lastRSSI", Int(status.lastRSSI)),
                ("lastSNRx4", Int(status.lastSNRx4)), ("packetsReceived", Int(status.packetsReceived)), ("packetsSent", Int(status.packetsSent)),
                ("airtimeSeconds", Int(status.airtimeSeconds)), ("rxAirtimeSeconds", Int(status.rxAirtimeSeconds)),
                ("sentFlood", Int(status.sentFlood)), ("sentDirect", Int(status.sentDirect)),
                ("receivedFlood", Int(status.receivedFlood)), ("receivedDirect", Int(status.receivedDirect)),
            ]
            if options.json {
                var out: [String: Any] = Dictionary(rows, uniquingKeysWith: { $1 })
                out["node"] = contact.name
                out["key"] = contact.publicKey.hex
                try Output.json(out)
            } else {
                Output.lines([("node", contact.name)] + rows.map { ($0.0, "\($0.1)") })
            }
        }
    }
}

/// `meshport telemetry [NODE]`: Cayenne LPP readings of a node, or of the radio itself.
struct Telemetry: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "telemetry", abstract: "Read telemetry (sensors, battery, GPS) from a node, or from the radio itself without one.")

    @OptionGroup var options: RadioOptions
    @Argument(help: "The node: a contact's name or key prefix; none: this radio.") var node: String?
    @Option(help: "Log in with this password first (repeaters and rooms give guests base data only).") var password: String?

    func run() async throws {
        try await reportingRadioErrors {
            let (node, password) = (node, password)
            let (name, records) = try await RadioConnection.with(options, showProgress: false) { radio -> (String, [LPPRecord]) in
                guard let node else { return (radio.context.selfInfo.name, try await radio.telemetry.ownTelemetry()) }
                let c = try await radio.contacts.resolve(node)
                let spinner = Spinner("asking \(c.name) for telemetry")
                defer { spinner.stop() }
                let nodes = radio.remote
                if let password { try await nodes.login(c.publicKey, password: password) }
                return (c.name, try await nodes.telemetry(c.publicKey))
            }
            if options.json {
                try Output.json(["node": name, "readings": records.map { ["channel": Int($0.channel), "type": $0.type.name, "values": $0.values] as [String: Any] }])
            } else if records.isEmpty {
                print("\(name): no readings")
            } else {
                Output.table(["channel", "type", "value"], records.map { ["\($0.channel)", $0.type.name, $0.values.map { Self.number($0) }.joined(separator: ", ")] })
            }
        }
    }

    static func number(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(format: "%.4g", v) }
}
