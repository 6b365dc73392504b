import Foundation
import Logging
import MeshServices
import MeshUplink

/// The uplinks of one served radio (`serve --mqtt`): started when the radio is ready, made
/// again when another radio answers on its link, stopped with the server. A broker that
/// refuses or is away never holds up the radio; an uplink that cannot work at all (token mode
/// on a radio that cannot sign) is reported as a problem and left off.
actor RadioUplinks {
    private let radioID: String
    private let targets: [UplinkTarget]
    private let folder: URL?
    private let logger: Logger
    private let events: EventPublisher
    private var running: [(uplink: Uplink, figures: UplinkFigures)] = []
    private var radioKey: [UInt8]?
    /// One per target, in --mqtt order, kept across the uplinks made for each radio.
    private let figures: [UplinkFigures]

    init(radioID: String, targets: [UplinkTarget], folder: URL?, logger: Logger, events: EventPublisher, metrics: ServerMetrics) {
        self.radioID = radioID
        self.targets = targets
        self.folder = folder
        self.logger = logger
        self.events = events
        figures = targets.map { UplinkFigures(radio: radioID, broker: $0.description, registry: metrics.registry) }
    }

    /// Starts the uplinks for the radio `context` speaks for (again when it is another radio);
    /// commands from the home automation topic go through `messenger`, the radio's own.
    func radioReady(_ context: ServiceContext, messenger: Messenger) async {
        guard !targets.isEmpty, radioKey != context.selfInfo.publicKey.bytes else { return }
        await stop()
        radioKey = context.selfInfo.publicKey.bytes
        for (index, target) in targets.enumerated() {
            var logger = self.logger
            logger[metadataKey: "radio"] = "\(radioID)"
            do {
                let uplink = try Uplink(target: target, index: index, context: context, messenger: messenger, backlogRoot: folder,
                                        logger: logger)
                try await uplink.start()
                figures[index].restart()
                running.append((uplink, figures[index]))
            } catch {
                events.problem(radio: radioID, "the uplink to \(target) is off: \(error)")
            }
        }
    }

    func stop() async {
        for (uplink, figures) in running {
            await readFigures(uplink, into: figures)
            await uplink.stop()
            figures.stopped()
        }
        running = []
        radioKey = nil
    }

    /// Brings the running uplinks' figures up to date, for /metrics.
    func readFigures() async {
        for (uplink, figures) in running { await readFigures(uplink, into: figures) }
    }

    private func readFigures(_ uplink: Uplink, into figures: UplinkFigures) async {
        figures.read(await uplink.counters, backlog: await uplink.backlog(), connected: await uplink.brokerConnected)
    }
}
