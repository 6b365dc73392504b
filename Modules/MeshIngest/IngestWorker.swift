import Foundation
import Logging
import MeshMQTT
import MeshRegion

/// One ingest worker (Docs/ingest.md): subscribes to the community topics as a member of a
/// shared-subscription group on each broker (MQTT 5, a session the broker keeps while the
/// worker restarts), appends every message to its spool on Paho's thread, and writes them in
/// batches to the region store, retrying with backoff while the store is away. When the spool
/// holds `spoolBound` messages the MQTT callback waits, so the broker keeps the rest.
public actor IngestWorker {
    public let settings: IngestSettings
    private let sink: any RegionSink
    private let decoder: IngestDecoder
    private let logger: Logger
    private var spool: Spool?
    private var clients: [MQTTClient] = []
    private var gates: [AnchorGate] = []
    private var tasks: [Task<Void, Never>] = []
    private var tally = IngestCounts()
    private var sinkAway = false

    public init(settings: IngestSettings, sink: any RegionSink, logger: Logger = Logger(label: "meshport.ingest")) {
        self.settings = settings
        self.sink = sink
        decoder = IngestDecoder(channels: settings.channels)
        self.logger = logger
    }

    /// Opens the spool (what a previous run left is written first), starts the batcher and
    /// connects to every broker. Throws when the spool folder or a client cannot be set up.
    public func start() async throws {
        guard spool == nil else { return }
        let spool = try Spool(folder: settings.spoolFolder, bound: settings.spoolBound, logger: logger)
        self.spool = spool
        if spool.recovery.replayed > 0 {
            logger.notice("\(spool.recovery.replayed) messages a previous run left in the spool are written first.")
        }
        if spool.recovery.tornSegments > 0 {
            logger.warning("\(spool.recovery.tornSegments) spool segments ended in a record cut short by a crash; the whole records before it are kept.")
        }
        tasks.append(Task { await self.runBatches(spool) })
        do {
            try await connect(spool)
        } catch {
            await stop()
            throw error
        }
    }

    /// One client per broker, each subscribed to the group's filters, all feeding `spool`.
    private func connect(_ spool: Spool) async throws {
        let logger = self.logger
        let group = settings.group.map { "group \($0)" + (settings.anchor ? ", its anchor" : "") } ?? "no shared group"
        for (index, broker) in settings.brokers.enumerated() {
            let id = settings.brokers.count > 1 ? "\(settings.clientID)-\(index + 1)" : settings.clientID
            let gate = settings.anchor ? AnchorGate() : nil
            if let gate { gates.append(gate) }
            let options = MQTTClientOptions(clientID: id, session: .persistent(expirySeconds: settings.sessionExpirySeconds)) { message in
                if let gate {
                    let admitted = gate.admit(message) { written in
                        logger.notice("The group's subscriptions on \(broker) deliver again: \(written) messages came only to the anchor meanwhile and are written; its copies are skipped from here.")
                    }
                    guard admitted else { return }
                } else if AnchorGate.isProbe(message.topic) {
                    return
                }
                do {
                    try spool.append(SpooledMessage(topic: message.topic, payload: message.payload, receivedAt: Date()))
                } catch {
                    // Only a closed spool refuses (the worker is stopping after its clients closed).
                    logger.warning("A message on \(message.topic) arrived after the spool closed and is not kept: \(error)")
                }
            }
            let client = try MQTTClient(broker: broker, options: options)
            for (filter, identifier) in settings.subscriptions { try await client.subscribe(filter, qos: .atLeastOnce, identifier: identifier) }
            clients.append(client)
            let states = await client.stateUpdates()
            let shared = settings.subscriptions.filter { $0.identifier == IngestSettings.Subscription.group.rawValue }.map(\.filter)
            tasks.append(Task {
                var probing: Task<Void, Never>?
                for await state in states {
                    switch state {
                    case .connected:
                        logger.notice("Connected to \(broker) as \(id), \(group).")
                        if let gate { probing = Task { await Self.probe(client, gate: gate, shared: shared, logger: logger) } }
                    case .waiting:
                        probing?.cancel()
                        gate?.connectionLost()
                        logger.warning("\(state)")
                    case .connecting:
                        gate?.connectionLost()
                    case .idle, .closed:
                        break
                    }
                }
                probing?.cancel()
            })
            await client.start()
        }
    }

    /// The anchor's probe for this connection, once the broker granted the group's shared
    /// subscriptions on it (AnchorGate.swift).
    private static func probe(_ client: MQTTClient, gate: AnchorGate, shared: [String], logger: Logger) async {
        while !Task.isCancelled {
            let granted = await client.grantedFilters
            if shared.allSatisfy(granted.contains) { break }
            do { try await Task.sleep(for: .milliseconds(20)) } catch { return }
        }
        // Cancelled: the connection went before the grant; the next one probes anew.
        guard !Task.isCancelled else { return }
        let topic = gate.newProbe(nonce: UUID().uuidString.lowercased())
        do {
            try await client.publish(MQTTMessage(topic: topic, text: #"{"probe":"meshport ingest anchor"}"#, qos: .atLeastOnce))
        } catch {
            logger.warning("The anchor's probe could not be sent (\(error)); it writes every message it receives until the next connection.")
        }
    }

    /// True once every broker granted both shared subscriptions.
    public var isSubscribed: Bool {
        get async {
            for client in clients {
                let granted = await client.grantedFilters
                guard settings.filters.allSatisfy(granted.contains) else { return false }
            }
            return !clients.isEmpty
        }
    }

    public var counts: IngestCounts {
        var counts = tally
        if let spool {
            counts.received = spool.appendedCount
            counts.spoolDepth = spool.depth
            counts.deepestSpoolDepth = spool.deepestDepth
        }
        for gate in gates {
            let tally = gate.tally
            counts.anchorWrittenAlone += tally.writtenAlone
            counts.anchorSkipped += tally.skipped
        }
        return counts
    }

    /// Disconnects from the brokers and stops the batcher; messages not yet written stay in the
    /// spool for the next start (and the broker keeps the session's queue meanwhile).
    public func stop() async {
        guard let spool else { return }
        spool.release()
        for client in clients { await client.close() }
        clients = []
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        tasks = []
        let summary = counts.summary
        spool.close()
        self.spool = nil
        logger.notice("Stopped: \(summary)")
    }

    // MARK: - Batches

    private func runBatches(_ spool: Spool) async {
        var arrivals = spool.arrivals.makeAsyncIterator()
        while !Task.isCancelled {
            var messages = spool.peek(settings.batchSize)
            if messages.isEmpty {
                guard await arrivals.next() != nil else { return }
                continue
            }
            if messages.count < settings.batchSize {
                // A batch that is not full waits one interval for company.
                do { try await Task.sleep(for: settings.batchInterval) } catch { return }
                messages = spool.peek(settings.batchSize)
            }
            let batch = decode(messages)
            do {
                try spool.sync()
            } catch {
                logger.error("\(error)")
            }
            guard await write(batch) else { return }
            tally.written += batch.count
            do {
                try spool.commit(messages.count)
            } catch {
                // The batch is written; only the mark is missing, so a restart writes it again
                // and the region store ignores what it already has.
                logger.error("\(error)")
            }
        }
    }

    private func decode(_ messages: [SpooledMessage]) -> RegionBatch {
        var batch = RegionBatch()
        for message in messages {
            let record = decoder.decode(topic: message.topic, payload: message.payload, receivedAt: message.receivedAt)
            switch record {
            case .rejected(_, let kind): tally.rejected[kind.rawValue, default: 0] += 1
            case .hearing(let hearing) where hearing.decoded == nil: tally.undecodable += 1
            case .hearing, .observer: break
            }
            batch.append(record)
        }
        return batch
    }

    /// Writes `batch`, retrying with backoff until it is written; false when cancelled first.
    private func write(_ batch: RegionBatch) async -> Bool {
        var delay = settings.retryMin
        while true {
            do {
                try await sink.write(batch)
                if sinkAway {
                    sinkAway = false
                    logger.notice("The region database is back; writing resumes with \(spool?.depth ?? 0) messages waiting in the spool.")
                }
                return true
            } catch {
                tally.sinkRetries += 1
                if !sinkAway {
                    sinkAway = true
                    logger.warning("The region database cannot be written (\(error)); messages wait in the spool, then at the broker, and writing is retried.")
                }
                do { try await Task.sleep(for: delay) } catch { return false }
                delay = min(delay * 2, settings.retryMax)
            }
        }
    }
}
