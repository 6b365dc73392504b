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
    private var running: [Uplink] = []
    private var radioKey: [UInt8]?

    init(radioID: String, targets: [UplinkTarget], folder: URL?, logger: Logger, events: EventPublisher) {
        self.radioID = radioID
        self.targets = targets
        self.folder = folder
        self.logger = logger
        self.events = events
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
                running.append(uplink)
            } catch {
                events.problem(radio: radioID, "the uplink to \(target) is off: \(error)")
            }
        }
    }

    func stop() async {
        for uplink in running { await uplink.stop() }
        running = []
        radioKey = nil
    }

    /// For /metrics.
    func summaries() async -> [UplinkSummary] {
        var out: [UplinkSummary] = []
        for uplink in running {
            out.append(UplinkSummary(radio: radioID, broker: uplink.target.description, counters: await uplink.counters,
                                     backlog: await uplink.backlog()))
        }
        return out
    }
}
