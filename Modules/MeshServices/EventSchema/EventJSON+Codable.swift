/// The wire form: one flat object, `type` first among equals (keys are sorted), each case's
/// fields beside it, optional ones left out.
extension EventJSON: Codable {
    enum Key: String, CodingKey {
        case type, radio, radios, state, sync, message, change, contact, key, remote, admin, status, readings, room, author, text,
             channel, dataType, data, packet, push
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        radio = try c.decodeIfPresent(String.self, forKey: .radio)
        let type = try c.decode(String.self, forKey: .type)
        switch type {
        case "hello": body = .hello(radios: try c.decode([RadioJSON].self, forKey: .radios))
        case "connection": body = .connection(state: try c.decode(String.self, forKey: .state))
        case "sync": body = .sync(try c.decode(SyncJSON.self, forKey: .sync))
        case "message": body = .message(try c.decode(MessageJSON.self, forKey: .message))
        case "messageStatus": body = .messageStatus(try c.decode(MessageJSON.self, forKey: .message))
        case "contact": body = .contact(try ContactChangeJSON(from: c))
        case "remote": body = .remote(try RemoteEventJSON(from: c))
        case "roomPost":
            body = .roomPost(room: try c.decode(String.self, forKey: .room), author: try c.decodeIfPresent(String.self, forKey: .author),
                             text: try c.decode(String.self, forKey: .text))
        case "datagram":
            body = .datagram(channel: try c.decode(Int.self, forKey: .channel), dataType: try c.decode(Int.self, forKey: .dataType),
                             data: try c.decode(String.self, forKey: .data))
        case "packet": body = .packet(try c.decode(PacketJSON.self, forKey: .packet))
        case "push": body = .push(try c.decode(String.self, forKey: .push))
        case "problem": body = .problem(try c.decode(String.self, forKey: .text))
        default:
            throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "\"\(type)\" is not an event type this version knows")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encodeIfPresent(radio, forKey: .radio)
        try c.encode(type, forKey: .type)
        switch body {
        case let .hello(radios): try c.encode(radios, forKey: .radios)
        case let .connection(state): try c.encode(state, forKey: .state)
        case let .sync(step): try c.encode(step, forKey: .sync)
        case let .message(m), let .messageStatus(m): try c.encode(m, forKey: .message)
        case let .contact(change): try change.encode(to: &c)
        case let .remote(event): try event.encode(to: &c)
        case let .roomPost(room, author, text):
            try c.encode(room, forKey: .room)
            try c.encodeIfPresent(author, forKey: .author)
            try c.encode(text, forKey: .text)
        case let .datagram(channel, dataType, data):
            try c.encode(channel, forKey: .channel)
            try c.encode(dataType, forKey: .dataType)
            try c.encode(data, forKey: .data)
        case let .packet(p): try c.encode(p, forKey: .packet)
        case let .push(name): try c.encode(name, forKey: .push)
        case let .problem(text): try c.encode(text, forKey: .text)
        }
    }

    /// The `type` on the wire.
    public var type: String {
        switch body {
        case .hello: "hello"
        case .connection: "connection"
        case .sync: "sync"
        case .message: "message"
        case .messageStatus: "messageStatus"
        case .contact: "contact"
        case .remote: "remote"
        case .roomPost: "roomPost"
        case .datagram: "datagram"
        case .packet: "packet"
        case .push: "push"
        case .problem: "problem"
        }
    }
}

extension ContactChangeJSON {
    init(from c: KeyedDecodingContainer<EventJSON.Key>) throws {
        let change = try c.decode(String.self, forKey: .change)
        switch change {
        case "updated": self = .updated(try c.decode(ContactJSON.self, forKey: .contact))
        case "removed": self = .removed(key: try c.decode(String.self, forKey: .key))
        case "discovered": self = .discovered(try c.decode(ContactJSON.self, forKey: .contact))
        case "tableFull": self = .tableFull
        default: throw DecodingError.dataCorruptedError(forKey: .change, in: c, debugDescription: "\"\(change)\" is not a contact change this version knows")
        }
    }

    func encode(to c: inout KeyedEncodingContainer<EventJSON.Key>) throws {
        switch self {
        case let .updated(contact):
            try c.encode("updated", forKey: .change)
            try c.encode(contact, forKey: .contact)
        case let .removed(key):
            try c.encode("removed", forKey: .change)
            try c.encode(key, forKey: .key)
        case let .discovered(contact):
            try c.encode("discovered", forKey: .change)
            try c.encode(contact, forKey: .contact)
        case .tableFull:
            try c.encode("tableFull", forKey: .change)
        }
    }
}

extension RemoteEventJSON {
    init(from c: KeyedDecodingContainer<EventJSON.Key>) throws {
        let remote = try c.decode(String.self, forKey: .remote)
        let key = try c.decode(String.self, forKey: .key)
        switch remote {
        case "loggedIn": self = .loggedIn(key: key, admin: try c.decode(Bool.self, forKey: .admin))
        case "loginFailed": self = .loginFailed(key: key)
        case "loggedOut": self = .loggedOut(key: key)
        case "status": self = .status(key: key, try c.decode(RepeaterStatusJSON.self, forKey: .status))
        case "telemetry": self = .telemetry(key: key, try c.decode([ReadingJSON].self, forKey: .readings))
        default: throw DecodingError.dataCorruptedError(forKey: .remote, in: c, debugDescription: "\"\(remote)\" is not a remote event this version knows")
        }
    }

    func encode(to c: inout KeyedEncodingContainer<EventJSON.Key>) throws {
        switch self {
        case let .loggedIn(key, admin):
            try c.encode("loggedIn", forKey: .remote)
            try c.encode(key, forKey: .key)
            try c.encode(admin, forKey: .admin)
        case let .loginFailed(key):
            try c.encode("loginFailed", forKey: .remote)
            try c.encode(key, forKey: .key)
        case let .loggedOut(key):
            try c.encode("loggedOut", forKey: .remote)
            try c.encode(key, forKey: .key)
        case let .status(key, status):
            try c.encode("status", forKey: .remote)
            try c.encode(key, forKey: .key)
            try c.encode(status, forKey: .status)
        case let .telemetry(key, readings):
            try c.encode("telemetry", forKey: .remote)
            try c.encode(key, forKey: .key)
            try c.encode(readings, forKey: .readings)
        }
    }
}
