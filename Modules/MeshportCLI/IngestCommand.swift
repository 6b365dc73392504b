import ArgumentParser
import Foundation
import Logging
import MeshIngest
import MeshRegion

/// `meshport ingest`: one worker writing the community topics of MQTT brokers into the region
/// database; any number of workers in one group split the stream (Docs/ingest.md).
struct IngestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Write what gateways publish on MQTT into the region's PostgreSQL history.",
        discussion: """
            Subscribes to meshcore/+/+/packets and .../status as a member of an MQTT 5 shared \
            subscription group, so any number of workers on any number of machines split the stream. \
            Each worker keeps a spool in its state folder: messages are in it before the broker \
            forgets them, and a slow or absent database holds the broker back instead of losing \
            anything. Runs until interrupted. See Docs/ingest.md.
            """)

    @Option(name: .customLong("mqtt"), help: ArgumentHelp("A broker: mqtt[s]://[USER:PASSWORD@]HOST[:PORT] or ws[s]://...; repeatable.", valueName: "url"))
    var mqtt: [String] = []
    @Option(name: .customLong("postgres"), help: ArgumentHelp("The region database: postgres://USER:PASSWORD@HOST[:PORT]/DATABASE[?sslmode=verify-full&sslrootcert=CA.pem]. TLS as libpq's sslmode says: disable, prefer (the default: TLS if the server offers it, unverified), require, verify-ca, verify-full; sslcert and sslkey for a client certificate (Docs/region.md).", valueName: "url"))
    var postgres: String?
    @Option(name: .customLong("workers-group"), help: ArgumentHelp("The shared-subscription group; workers in one group split the stream (default \(IngestOptions.defaultGroup)).", valueName: "name"))
    var group: String?
    @Flag(name: .customLong("single-worker"), help: ArgumentHelp("Subscribe without a shared group: this worker takes the whole stream alone. A restarted Mosquitto restores such subscriptions (not shared ones), so nothing published while the worker reconnects is lost."))
    var singleWorker = false
    @Flag(name: .customLong("anchor"), help: ArgumentHelp("Make this worker its group's anchor (one per group): it also holds plain subscriptions, which a restarted Mosquitto restores (shared ones it does not), and writes what arrives on them until the group's subscriptions deliver again, so a broker restart loses nothing. Raise Mosquitto's max_queued_messages (Docs/ingest.md)."))
    var anchor = false
    @Option(name: .customLong("state"), help: ArgumentHelp("This worker's folder for its spool (default $XDG_STATE_HOME/meshport/ingest); one per worker.", valueName: "folder"))
    var state: String?
    @Option(name: .customLong("client-id"), help: ArgumentHelp("The MQTT client id; keep it across restarts (default: from the host name and the state folder).", valueName: "id"))
    var clientID: String?
    @Option(name: .customLong("channel"), help: ArgumentHelp("Also decrypt this channel: #name, or NAME=32 hex digit secret; repeatable. Public is always decrypted.", valueName: "channel"))
    var channels: [String] = []
    @Option(name: .customLong("batch-size"), help: "Messages written to the database per transaction.")
    var batchSize = 500
    @Option(name: .customLong("batch-ms"), help: "How long a batch that is not full waits, in milliseconds.")
    var batchMilliseconds = 200
    @Option(name: .customLong("spool-limit"), help: "Messages waiting in the spool before the broker is held back.")
    var spoolLimit = 10_000
    @Option(name: .customLong("retention-days"), help: ArgumentHelp("Keep this many days of history: older observation days are dropped and older rows deleted, at start and every hour (Docs/region.md). Default: keep everything.", valueName: "days"))
    var retentionDays: Int?
    @Option(name: .customLong("session-expiry"), help: "Seconds the broker keeps a stopped worker's session and queue.")
    var sessionExpiry = 7 * 86_400
    @OptionGroup var log: LogOptions

    func validate() throws {
        do {
            _ = try options()
        } catch {
            throw ValidationError("\(error)")
        }
    }

    func run() async throws {
        log.bootstrap()
        let logger = Logger(label: "meshport.ingest")
        let options = try options()
        let store: RegionStore
        do {
            store = try await Self.openStore(options, logger: logger)
        } catch {
            logger.error("\(error)")
            throw ExitCode.failure
        }
        let worker = IngestWorker(settings: options.settings, sink: store, logger: logger)
        try await worker.start()
        logger.notice("Working \(options.group.map { "in group \($0)" } ?? "alone (no shared group)") as client \(options.clientID), spool \(options.spoolFolder.path).")
        let report = Task {
            while !Task.isCancelled {
                do { try await Task.sleep(for: .seconds(60)) } catch { return }
                let summary = await worker.counts.summary
                logger.notice("\(summary)")
            }
        }
        let retention = options.retentionDays.map { days in Task { await Self.keep(days: days, in: store, logger: logger) } }
        let signal = await Termination.wait()
        logger.notice("Stopped by \(signal).")
        report.cancel()
        retention?.cancel()
        await worker.stop()
        await store.close()
    }

    private func options() throws(IngestOptionsError) -> IngestOptions {
        try IngestOptions(mqtt: mqtt, postgres: postgres, group: group, singleWorker: singleWorker, anchor: anchor, state: state, clientID: clientID, channels: channels,
                          batchSize: batchSize, batchMilliseconds: batchMilliseconds, spoolLimit: spoolLimit,
                          sessionExpirySeconds: sessionExpiry, retentionDays: retentionDays)
    }

    /// Applies the retention setting now and every hour; a failure is logged and tried again
    /// at the next hour (several workers doing it at once is harmless).
    private static func keep(days: Int, in store: RegionStore, logger: Logger) async {
        while !Task.isCancelled {
            do {
                try await store.applyRetention(keepingDays: days)
            } catch {
                logger.error("\(error)")
            }
            do { try await Task.sleep(for: .seconds(3600)) } catch { return }
        }
    }

    /// The region store, connected and migrated. A database that is not up yet (the worker
    /// started before it) is waited for, with backoff; any other failure ends the command.
    private static func openStore(_ options: IngestOptions, logger: Logger) async throws(RegionStoreError) -> RegionStore {
        var delay = Duration.seconds(1)
        var said = false
        while true {
            do throws(RegionStoreError) {
                let store = try await RegionStore.connect(url: options.postgres, log: { logger.notice("\($0)") })
                try await store.migrate()
                if said { logger.notice("The region database answers now.") }
                return store
            } catch let failure where failure.retryLater {
                if !said { logger.warning("\(failure); trying again until it answers.") }
                said = true
                do { try await Task.sleep(for: delay) } catch { throw failure }
                delay = min(delay * 2, .seconds(30))
            }
        }
    }
}
