import Foundation
import Logging
import MeshServices

/// Turns each radio's events into JSON once (`EventJSON`, the schema `listen --json` shares) and
/// hands it to every WebSocket client; problems are also logged (they name commands and links,
/// never a password or a channel secret).
package final class EventPublisher: Sendable {
    package let broadcaster: EventBroadcaster
    private let logger: Logger
    private let metrics: ServerMetrics

    init(broadcaster: EventBroadcaster, logger: Logger, metrics: ServerMetrics) {
        self.broadcaster = broadcaster
        self.logger = logger
        self.metrics = metrics
    }

    func publish(radio: String, _ event: ClientEvent) {
        if let text = event.problemText { logger.warning("\(text)", metadata: ["radio": "\(radio)"]) }
        publish(EventJSON(radio: radio, EventJSON.Body(event)))
    }

    func problem(radio: String, _ text: String) {
        logger.notice("\(text)", metadata: ["radio": "\(radio)"])
        publish(EventJSON(radio: radio, .problem(text)))
    }

    func publish(_ event: EventJSON) {
        guard let text = encode(event) else { return }
        metrics.eventPublished(event.type)
        broadcaster.publish(text)
    }

    func encode(_ event: EventJSON) -> String? {
        do {
            return try event.line()
        } catch {
            logger.error("An event of type \(event.type) cannot be encoded: \(error.localizedDescription)")
            return nil
        }
    }
}
