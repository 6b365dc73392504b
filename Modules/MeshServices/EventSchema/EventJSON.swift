import Foundation

/// One event as `meshport listen --json` prints it and `/api/events` sends it (Docs/events.md,
/// Docs/openapi.json `Event`): a JSON object whose `type` says which other fields are there.
/// Both front ends encode through this type, so the same event reads the same in either.
public struct EventJSON: Hashable, Sendable {
    /// The server's name of the radio it came from; `listen` (one radio) leaves it out.
    public var radio: String?
    public var body: Body

    public init(radio: String? = nil, _ body: Body) {
        self.radio = radio
        self.body = body
    }

    /// What happened; the case is the `type` on the wire.
    public enum Body: Hashable, Sendable {
        /// The server's first event to each client: every radio and its state.
        case hello(radios: [RadioJSON])
        case connection(state: String)
        case sync(SyncJSON)
        /// A message the radio handed over, as stored.
        case message(MessageJSON)
        /// An outgoing message moved on: sent, delivered, failed, or heard repeated.
        case messageStatus(MessageJSON)
        case contact(ContactChangeJSON)
        case remote(RemoteEventJSON)
        /// A room server's post; `author` is the author's key prefix in hex.
        case roomPost(room: String, author: String?, text: String)
        /// A channel datagram: `data` in hex.
        case datagram(channel: Int, dataType: Int, data: String)
        /// A packet the radio heard on air.
        case packet(PacketJSON)
        /// A push no service consumed, by name.
        case push(String)
        /// Something went wrong in the background, in a sentence for people.
        case problem(String)
    }

    /// JSON with sorted keys and unescaped slashes, as both front ends write it.
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The event as one line of JSON.
    public func line() throws -> String { String(decoding: try Self.encoder.encode(self), as: UTF8.self) }
}

/// A contact event's `change`, with the contact (or only its key, once removed).
public enum ContactChangeJSON: Hashable, Sendable {
    case updated(ContactJSON)
    case removed(key: String)
    /// Heard but not added (auto-add off); `onRadio` is false.
    case discovered(ContactJSON)
    case tableFull
}

/// A remote event's `remote`: what a remote node (repeater, room server, sensor) answered.
public enum RemoteEventJSON: Hashable, Sendable {
    case loggedIn(key: String, admin: Bool)
    case loginFailed(key: String)
    case loggedOut(key: String)
    case status(key: String, RepeaterStatusJSON)
    case telemetry(key: String, [ReadingJSON])
}
