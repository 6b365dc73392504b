import Foundation
import MeshCodec
import MeshMQTT

/// `meshport ingest`'s options, checked (Docs/ingest.md, "Running workers"): every bad value
/// is an `IngestOptionsError` naming the option.
public struct IngestOptions: Sendable {
    public var brokers: [MQTTBrokerURL]
    /// The region database (`postgres://` or `postgresql://`), for the region store.
    public var postgres: String
    /// The shared-subscription group; nil with `--single-worker`.
    public var group: String?
    /// `--anchor`: this worker is its group's anchor (IngestSettings.anchor).
    public var anchor: Bool
    public var spoolFolder: URL
    public var clientID: String
    public var channels: IngestChannels
    public var batchSize: Int
    public var batchInterval: Duration
    public var spoolBound: Int
    public var sessionExpirySeconds: UInt32

    public static let defaultGroup = "meshport-ingest"
    /// `--retention-days`: the history kept; nil keeps everything.
    public var retentionDays: Int?

    /// `state` is the worker's folder (default: `$XDG_STATE_HOME/meshport/ingest`, else
    /// `~/.local/state/meshport/ingest`); the spool lives in it. `clientID` defaults to one made
    /// from the host name and that folder, so it stays the same across restarts and differs
    /// between two workers on one machine (which need two folders anyway).
    /// `singleWorker`: plain subscriptions instead of a shared group (`group` must then be nil).
    public init(mqtt: [String], postgres: String?, group: String? = nil, singleWorker: Bool = false, anchor: Bool = false, state: String? = nil, clientID: String? = nil,
                channels: [String] = [], batchSize: Int = 500, batchMilliseconds: Int = 200, spoolLimit: Int = 10_000,
                sessionExpirySeconds: Int = 7 * 86_400, retentionDays: Int? = nil, hostName: String = ProcessInfo.processInfo.hostName,
                environment: [String: String] = ProcessInfo.processInfo.environment) throws(IngestOptionsError) {
        guard !mqtt.isEmpty else { throw .missing(option: "mqtt") }
        brokers = []
        for text in mqtt {
            do {
                brokers.append(try MQTTBrokerURL(parsing: text))
            } catch {
                throw .badValue(option: "mqtt", value: MQTTBrokerURL.redacted(text), reason: "\(error)")
            }
        }
        guard let postgres, !postgres.isEmpty else { throw .missing(option: "postgres") }
        guard postgres.hasPrefix("postgres://") || postgres.hasPrefix("postgresql://") else {
            throw .badValue(option: "postgres", value: MQTTBrokerURL.redacted(postgres), reason: "give a postgres://USER:PASSWORD@HOST[:PORT]/DATABASE URL")
        }
        self.postgres = postgres
        if singleWorker {
            if let group {
                throw .badValue(option: "workers-group", value: group, reason: "a worker started with --single-worker has no group; give one or the other")
            }
            if anchor {
                throw .badValue(option: "anchor", value: "on", reason: "a worker started with --single-worker holds plain subscriptions already; --anchor is for one worker of a group")
            }
            self.group = nil
        } else {
            let group = group ?? Self.defaultGroup
            guard !group.isEmpty, !group.contains(where: { "/+#".contains($0) }) else {
                throw .badValue(option: "workers-group", value: group, reason: "a group name is not empty and has no /, + or #")
            }
            self.group = group
        }
        self.anchor = anchor
        spoolFolder = Self.stateFolder(state, environment: environment)
        if let clientID {
            guard !clientID.isEmpty, clientID.utf8.count <= 65_535 else {
                throw .badValue(option: "client-id", value: clientID, reason: "give 1 to 65535 bytes")
            }
            self.clientID = clientID
        } else {
            self.clientID = Self.defaultClientID(hostName: hostName, folder: spoolFolder)
        }
        self.channels = try IngestChannels(specs: channels)
        guard (1...10_000).contains(batchSize) else {
            throw .badValue(option: "batch-size", value: String(batchSize), reason: "give 1 to 10000 messages")
        }
        self.batchSize = batchSize
        guard (1...60_000).contains(batchMilliseconds) else {
            throw .badValue(option: "batch-ms", value: String(batchMilliseconds), reason: "give 1 to 60000 milliseconds")
        }
        batchInterval = .milliseconds(batchMilliseconds)
        guard spoolLimit >= batchSize, spoolLimit <= 10_000_000 else {
            throw .badValue(option: "spool-limit", value: String(spoolLimit), reason: "give at least the batch size (\(batchSize)) and at most 10000000 messages")
        }
        spoolBound = spoolLimit
        guard (60...Int(UInt32.max)).contains(sessionExpirySeconds) else {
            throw .badValue(option: "session-expiry", value: String(sessionExpirySeconds), reason: "give at least 60 seconds")
        }
        self.sessionExpirySeconds = UInt32(sessionExpirySeconds)
        if let retentionDays {
            guard (1...36_600).contains(retentionDays) else {
                throw .badValue(option: "retention-days", value: String(retentionDays), reason: "give 1 to 36600 days")
            }
        }
        self.retentionDays = retentionDays
    }

    public var settings: IngestSettings {
        IngestSettings(brokers: brokers, group: group, anchor: anchor, clientID: clientID, spoolFolder: spoolFolder, batchSize: batchSize,
                       batchInterval: batchInterval, spoolBound: spoolBound, sessionExpirySeconds: sessionExpirySeconds,
                       channels: channels)
    }

    static func stateFolder(_ given: String?, environment: [String: String]) -> URL {
        if let given, !given.isEmpty { return URL(fileURLWithPath: given, isDirectory: true) }
        let base: String
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty {
            base = state
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        }
        return URL(fileURLWithPath: base, isDirectory: true).appendingPathComponent("meshport/ingest", isDirectory: true)
    }

    /// `meshport-ingest-HOST-XXXXXXXX`: the host name (letters, digits and dashes) and the start
    /// of the SHA-256 of the state folder's path.
    static func defaultClientID(hostName: String, folder: URL) -> String {
        let host = String(hostName.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" }.prefix(40))
        let digest = Hex.encode(SHA256.hash(Array(folder.standardizedFileURL.path.utf8)).prefix(4))
        return "meshport-ingest-\(host.isEmpty ? "host" : host)-\(digest)"
    }
}
