import ArgumentParser
import Foundation
import Logging
import MeshportServer
import MeshTransport
import MeshUplink

/// `meshport serve`: the local server (Docs/server.md): the REST API and events WebSocket for
/// the web UI and scripts, and the companion protocol for other apps, over one or more radios.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve radios over HTTP (REST API, events WebSocket, web UI) and the companion protocol.",
        discussion: """
            Each radio is kept connected on its own and reconnected when its link is lost. Listens on 127.0.0.1 \
            unless --http says otherwise; any other address needs a token (--token-file; made there when missing). \
            Stops on SIGINT or SIGTERM, closing the links and the history database. Every option can also \
            come from a TOML file (--config; keys named as the options, Docs/serve.example.toml); an option \
            given here wins. See Docs/server.md.
            """)

    @Option(help: ArgumentHelp("A TOML file with any of these options (keys named after them); the command line wins.", valueName: "path"))
    var config: String?

    @Flag(help: "Check the config file and the options (radio URLs, addresses, brokers), then exit without serving.")
    var checkConfig = false

    @Option(name: .customLong("radio"), help: ArgumentHelp("A radio's transport URL; repeat for several radios. Default: $MESHPORT_RADIO, then the one `meshport use` saved.", valueName: "url"))
    var radios: [String] = []

    @Option(help: ArgumentHelp("History database; default: $MESHPORT_DB, then $XDG_DATA_HOME/meshport/meshport.db.", valueName: "path"))
    var db: String?

    @Option(help: ArgumentHelp("Where the HTTP server listens (port 0: a free one; default \(Serve.defaultHTTP)).", valueName: "host:port"))
    var http: String?

    /// Where serve listens without --http (`meshport doctor` checks it is free).
    static let defaultHTTP = "127.0.0.1:8080"

    @Option(name: .customLong("companion"), help: ArgumentHelp("Re-export the companion protocol over TCP here; repeat for the next radios, in the order of --radio.", valueName: "host:port"))
    var companions: [String] = []

    @Option(help: ArgumentHelp("The bearer token's file (mode 0600; made when missing). Needed for any --http other than loopback.", valueName: "path"))
    var tokenFile: String?

    @Option(help: ArgumentHelp("Serve the web UI from this folder instead of the one built in.", valueName: "path"))
    var webRoot: String?

    @Option(help: ArgumentHelp("Read the region history in this PostgreSQL database (written by meshport ingest) for /api/region and the Region view: postgres://USER@HOST[:PORT]/DATABASE[?sslmode=verify-full&sslrootcert=CA.pem]. TLS as libpq's sslmode says, default prefer (TLS if the server offers it, unverified; Docs/region.md).", valueName: "url"))
    var history: String?

    @Option(help: ArgumentHelp("Map tiles for the web UI's maps, a URL with {z}, {x} and {y} (default: OpenStreetMap's); off: draw the maps offline only.", valueName: "url"))
    var mapTiles: String?

    @Option(help: ArgumentHelp("Leaflet's folder, served to draw map tiles (default: /usr/share/javascript/leaflet from Debian's libjs-leaflet, when installed); off: none.", valueName: "path"))
    var leaflet: String?

    @Option(name: .customLong("allow-origin"), help: ArgumentHelp("Another origin (scheme://host:port) whose pages may change things here; repeatable.", valueName: "origin"))
    var allowedOrigins: [String] = []

    @Option(help: ArgumentHelp("Seconds to wait for each answer from a radio (default 5).", valueName: "seconds"))
    var timeout: Double?

    @Option(help: ArgumentHelp("Events buffered for each WebSocket client before it counts as too slow and is closed (default 1024).", valueName: "n"))
    var eventBuffer: Int?

    @Option(help: ArgumentHelp("Largest request body accepted, in bytes (default 65536).", valueName: "bytes"))
    var maxBody: Int?

    @Option(help: ArgumentHelp("Seconds between samples of each radio's statistics into the history and /metrics; 0: none (default 300).", valueName: "seconds"))
    var statsInterval: Double?

    @Option(help: ArgumentHelp("Log level on stderr: trace, debug, info, notice, warning, error (default notice).", valueName: "level"))
    var logLevel: String?

    @Option(help: ArgumentHelp("Log lines on stderr: text (one line per event; journald's priorities under systemd) or json (one object per line). Default text.", valueName: "format"))
    var logFormat: LogFormat?

    @Option(name: .customLong("mqtt"), help: ArgumentHelp("Uplink every packet the radios hear to this MQTT broker, in the community format (Docs/gateway.md): mqtt[s]://[USER:PASSWORD@]HOST[:PORT]?region=IATA[&auth=token][&qos=0|1]...; repeatable.", valueName: "url"))
    var mqtt: [String] = []

    func validate() throws {
        let problems = [
            timeout.flatMap(ServeRules.timeout).map { "--timeout \($0)" },
            eventBuffer.flatMap(ServeRules.eventBuffer).map { "--event-buffer \($0)" },
            maxBody.flatMap(ServeRules.maxBody).map { "--max-body \($0)" },
            statsInterval.flatMap(ServeRules.statsInterval).map { "--stats-interval \($0)" },
            logLevel.flatMap(ServeRules.logLevel).map { "--log-level \($0)" },
        ]
        if let first = problems.compactMap({ $0 }).first { throw ValidationError(first) }
    }

    func run() async throws { try await serve(extraRoutes: nil) }

    /// The server, with routes beside the API's when a program embeds it (EmbeddedServe.swift).
    func serve(extraRoutes: MeshportServer.ExtraRoutes?) async throws {
        // A reader of stdout or stderr that goes away (a closed pipe, a restarted journald)
        // must not end the server: writes fail with EPIPE instead (StandardStream).
        signal(SIGPIPE, SIG_IGN)
        do {
            let file = try configFile()
            let level = logLevel ?? file.logLevel ?? "notice"
            StderrLogHandler.bootstrap(format: logFormat ?? file.logFormat ?? .text, level: Logger.Level(rawValue: level) ?? .notice)
            let config = try configuration(file: file, logLevel: level)
            if checkConfig {
                let count = { (n: Int, what: String) in "\(n) \(what)\(n == 1 ? "" : "s")" }
                print("config ok: \(count(config.radios.count, "radio")), http on \(config.http), database \(config.databasePath)"
                    + (config.uplinks.isEmpty ? "" : ", \(count(config.uplinks.count, "uplink"))"))
                return
            }
            let folder = URL(fileURLWithPath: config.databasePath).deletingLastPathComponent().path
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw CLIError("cannot create \(folder): \(error.localizedDescription)")
            }
            try await MeshportServer.run(config, extraRoutes: extraRoutes) { line in
                StandardStream.output(line + "\n")
            }
        } catch let error as ValidationError {
            throw error
        } catch let error as ServeError {
            Output.error("\(error)")
            throw ExitCode(ExitStatus.usage.rawValue)
        } catch let error as CLIError {
            Output.error(error.description)
            throw ExitCode(error.status.rawValue)
        } catch {
            Output.error("\(error)")
            throw ExitCode.failure
        }
    }

    /// The --config file, or no keys without one.
    private func configFile() throws(CLIError) -> ServeConfigFile {
        guard let config else { return ServeConfigFile() }
        do {
            return try ServeConfigFile.load(config)
        } catch {
            throw CLIError(error.description, status: .usage)
        }
    }

    /// The flags over the config file over the defaults, checked; nothing is created.
    private func configuration(file: ServeConfigFile, logLevel: String) throws -> ServeConfiguration {
        var urls = radios.isEmpty ? file.radio ?? [] : radios
        if urls.isEmpty {
            if let env = Paths.environment["MESHPORT_RADIO"], !env.isEmpty {
                urls = [env]
            } else if let saved = try CLIConfig.load().radio {
                urls = [saved]
            } else {
                throw CLIError("no radio chosen: pass --radio URL, or save a default with `meshport use URL`", status: .usage)
            }
        }
        let targets: [RadioTarget]
        do {
            targets = try RadioTarget.resolve(urls)
        } catch {
            throw CLIError("\(error)", status: .usage)
        }
        let database = db ?? file.db ?? Paths.database
        let folder = URL(fileURLWithPath: database).deletingLastPathComponent().path
        let uplinks: [UplinkTarget]
        do {
            uplinks = try (mqtt.isEmpty ? file.mqtt ?? [] : mqtt).map { try UplinkTarget(parsing: $0) }
        } catch {
            throw CLIError("\(error)", status: .usage)
        }
        let timeout = timeout ?? file.timeout ?? 5, statsInterval = statsInterval ?? file.statsInterval ?? 300
        var config = ServeConfiguration(
            radios: targets, databasePath: database, http: try ListenAddress(parsing: http ?? file.http ?? Serve.defaultHTTP),
            companions: try (companions.isEmpty ? file.companion ?? [] : companions).map { text throws(ServeError) in try ListenAddress(parsing: text) },
            tokenFile: tokenFile ?? file.tokenFile, webRoot: (webRoot ?? file.webRoot).map { URL(fileURLWithPath: $0) },
            passwordFile: Paths.passwordFile, allowedOrigins: Set(allowedOrigins.isEmpty ? file.allowOrigin ?? [] : allowedOrigins),
            commandTimeout: .milliseconds(Int(timeout * 1000)), eventBuffer: eventBuffer ?? file.eventBuffer ?? 1024,
            maxBodyBytes: maxBody ?? file.maxBody ?? 64 * 1024, statsInterval: statsInterval > 0 ? .milliseconds(Int(statsInterval * 1000)) : nil,
            logLevel: logLevel)
        config.uplinks = uplinks
        config.history = history ?? file.history
        try mapSettings(into: &config, mapTiles: mapTiles ?? file.mapTiles, leaflet: leaflet ?? file.leaflet)
        config.uplinkFolder = URL(fileURLWithPath: folder).appendingPathComponent("uplink").path
        return config
    }

    private func mapSettings(into config: inout ServeConfiguration, mapTiles: String?, leaflet: String?) throws {
        if let mapTiles {
            config.mapTiles = mapTiles == "off" ? nil : try MapTiles(template: mapTiles, attribution: "map tiles from \(mapTiles)")
        }
        if let leaflet {
            guard leaflet != "off" else {
                config.leafletFolder = nil
                return
            }
            let folder = URL(fileURLWithPath: leaflet)
            guard let found = MapTiles.leafletFolder(folder) else {
                throw ServeError.webRoot(leaflet, reason: "no leaflet.js in this folder (--leaflet wants the folder holding leaflet.js and leaflet.css)")
            }
            config.leafletFolder = found
        }
    }
}
