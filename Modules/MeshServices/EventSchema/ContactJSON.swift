import MeshCodec
import MeshStore

/// A contact's route: flood (no known path) or the hops of its path.
public struct PathJSON: Codable, Hashable, Sendable {
    public var flood: Bool
    public var hops: Int?
    public var hashSize: Int?
    public var bytes: String?

    public init(_ p: Path) {
        flood = p.length.isNone
        if !flood {
            hops = p.length.hopCount
            hashSize = p.length.hashSize
            bytes = Hex.encode(p.bytes)
        }
    }
}

/// A contact as the radio lists it, with what the store counts of its messages.
public struct ContactJSON: Codable, Hashable, Sendable {
    public var key: String
    public var name: String
    public var type: String
    public var favourite: Bool
    public var unread: Int
    public var messages: Int
    public var path: PathJSON
    public var lastAdvert: String?
    public var latitude: Double?
    public var longitude: Double?
    public var onRadio: Bool

    public init(_ c: StoredContact) {
        self.init(c.contact, unread: c.unreadCount, messages: c.messageCount, favourite: c.isFavourite, onRadio: c.isOnRadio)
    }

    public init(_ c: Contact, unread: Int = 0, messages: Int = 0, favourite: Bool? = nil, onRadio: Bool = true) {
        key = c.publicKey.hex
        name = c.name
        type = c.type.description
        self.favourite = favourite ?? c.flags.contains(.favourite)
        self.unread = unread
        self.messages = messages
        path = PathJSON(c.outPath)
        lastAdvert = JSONTime.epoch(c.lastAdvert)
        if !c.position.isZero {
            latitude = c.position.latitude
            longitude = c.position.longitude
        }
        self.onRadio = onRadio
    }
}
