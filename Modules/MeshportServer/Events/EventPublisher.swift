import Foundation
import Logging
import MeshCodec
import MeshServices

/// One event as WebSocket clients receive it: `type` says which fields are there
/// (Docs/openapi.json, `Event`).
package struct EventJSON: Encodable, Sendable {
    var type: String
    var radio: String?
    var state: String?
    var sync: SyncJSON?
    var message: MessageJSON?
    var change: String?
    var contact: ContactJSON?
    var key: String?
    var remote: String?
    var admin: Bool?
    var status: RepeaterStatusJSON?
    var readings: [ReadingJSON]?
    var room: String?
    var author: String?
    package var text: String?
    var channel: Int?
    var dataType: Int?
    var data: String?
    var push: String?
    var radios: [RadioJSON]?

    package init(type: String, radio: String? = nil) {
        self.type = type
        self.radio = radio
    }

    /// The JSON of a radio's event; nil for none worth sending.
    init(_ event: ClientEvent, radio: String) {
        self.init(type: "problem", radio: radio)
        switch event {
        case let .connection(state):
            type = "connection"
            self.state = "\(state)"
        case let .syncProgress(step):
            type = "sync"
            sync = SyncJSON(step)
        case let .messageReceived(m):
            type = "message"
            message = MessageJSON(m)
        case let .messageStatus(m):
            type = "messageStatus"
            message = MessageJSON(m)
        case let .contactChanged(c):
            type = "contact"
            switch c {
            case let .updated(contact): (change, self.contact) = ("updated", ContactJSON(contact))
            case let .removed(key): (change, self.key) = ("removed", key.hex)
            case let .discovered(contact): (change, self.contact) = ("discovered", ContactJSON(contact, onRadio: false))
            case .tableFull: change = "tableFull"
            }
        case let .remote(r):
            type = "remote"
            switch r {
            case let .loggedIn(key, isAdmin, _): (remote, self.key, admin) = ("loggedIn", key.hex, isAdmin)
            case let .loginFailed(key): (remote, self.key) = ("loginFailed", key.hex)
            case let .loggedOut(key): (remote, self.key) = ("loggedOut", key.hex)
            case let .status(key, s): (remote, self.key, status) = ("status", key.hex, RepeaterStatusJSON(s))
            case let .telemetry(key, records): (remote, self.key, readings) = ("telemetry", key.hex, records.map { ReadingJSON($0) })
            }
        case let .roomPost(room, post):
            type = "roomPost"
            self.room = room.hex
            author = post.authorPrefix?.hex
            text = post.text
        case let .datagram(d):
            type = "datagram"
            channel = Int(d.channelIndex)
            dataType = Int(d.dataType)
            data = Hex.encode(d.data)
        case let .push(p):
            type = "push"
            push = p.name
        case let .problem(text):
            self.text = text
        }
    }
}

/// Turns each radio's events into JSON once and hands it to every WebSocket client; problems
/// are also logged (they name commands and links, never a password or a channel secret).
package final class EventPublisher: Sendable {
    let broadcaster: EventBroadcaster
    private let logger: Logger
    private let encoder: JSONEncoder
    private let metrics: ServerMetrics

    init(broadcaster: EventBroadcaster, logger: Logger, metrics: ServerMetrics) {
        self.broadcaster = broadcaster
        self.logger = logger
        self.metrics = metrics
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.encoder = encoder
    }

    func publish(radio: String, _ event: ClientEvent, context: RadioContext?) {
        if case let .problem(text) = event { logger.warning("radio \(radio): \(text)") }
        publish(EventJSON(event, radio: radio))
    }

    func problem(radio: String, _ text: String) {
        logger.notice("radio \(radio): \(text)")
        var event = EventJSON(type: "problem", radio: radio)
        event.text = text
        publish(event)
    }

    package func publish(_ event: EventJSON) {
        guard let text = encode(event) else { return }
        metrics.eventPublished(event.type)
        broadcaster.publish(text)
    }

    func encode(_ event: EventJSON) -> String? {
        do {
            return String(decoding: try encoder.encode(event), as: UTF8.self)
        } catch {
            logger.error("event \(event.type) cannot be encoded: \(error)")
            return nil
        }
    }
}
