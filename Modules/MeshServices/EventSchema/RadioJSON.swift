/// A step of a radio's initialization, with its progress where it has one.
public struct SyncJSON: Codable, Hashable, Sendable {
    public var step: String
    public var received: Int?
    public var total: Int?

    public init(_ step: SyncStep) {
        switch step {
        case .selfInfo: self.step = "selfInfo"
        case .deviceInfo: self.step = "deviceInfo"
        case .clock: self.step = "clock"
        case let .contacts(received, total): (self.step, self.received, self.total) = ("contacts", received, total)
        case .channels: self.step = "channels"
        case let .messages(drained): (self.step, received) = ("messages", drained)
        }
    }
}

/// A radio a server serves, as its list and the events stream's `hello` show it.
public struct RadioJSON: Codable, Hashable, Sendable {
    public var id: String
    public var url: String
    public var state: String
    public var ready: Bool
    public var lastError: String?
    public var sync: SyncJSON?
    public var name: String?
    public var publicKey: String?
    public var connectedAt: String?

    public init(id: String, url: String, state: RadioSession.State, lastError: String? = nil, sync: SyncJSON? = nil, name: String? = nil,
                publicKey: String? = nil, connectedAt: String? = nil) {
        self.id = id
        self.url = url
        self.state = "\(state)"
        ready = state == .ready
        self.lastError = lastError
        self.sync = sync
        self.name = name
        self.publicKey = publicKey
        self.connectedAt = connectedAt
    }
}
