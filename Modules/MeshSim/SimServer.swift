import MeshCodec

/// What a repeater, room server or sensor of the simulated mesh does with the radio's
/// requests: its passwords, the access it grants, the posts a room server holds.
public struct SimServer: Hashable, Sendable {
    /// Logs in with admin permission (the firmware's default admin password is "password").
    public var adminPassword: String
    /// Repeaters and sensors: guest access. Room servers: the room password, read-write access.
    public var guestPassword: String
    /// Room servers: any other password still logs in, read-only (`allow.read.only`).
    public var allowReadOnly: Bool
    /// `FIRMWARE_VER_LEVEL` the node reports at login: repeaters 2, room servers and sensors 1.
    public var firmwareLevel: UInt8
    /// Room servers: what is posted, oldest first; pushed to the radio after it logs in.
    public var posts: [RoomPost]
    /// Repeaters (firmware level 2+): the owner line of REQ_TYPE_GET_OWNER_INFO.
    public var ownerInfo: String
    /// A fault knob: answer a wrong password with a refusal (the radio pushes LOGIN_FAIL)
    /// instead of the silence of v1.17.1's servers, so clients can exercise LOGIN_FAIL.
    public var answersRefusedLogins: Bool

    public init(adminPassword: String = "password", guestPassword: String = "", allowReadOnly: Bool = false,
                firmwareLevel: UInt8 = 1, posts: [RoomPost] = [], ownerInfo: String = "", answersRefusedLogins: Bool = false) {
        self.adminPassword = adminPassword
        self.guestPassword = guestPassword
        self.allowReadOnly = allowReadOnly
        self.firmwareLevel = firmwareLevel
        self.posts = posts
        self.ownerInfo = ownerInfo
        self.answersRefusedLogins = answersRefusedLogins
    }

    /// The defaults of a node type's firmware.
    public static func defaults(for type: NodeType) -> SimServer? {
        switch type {
        case .repeater: SimServer(firmwareLevel: 2)
        case .room: SimServer(guestPassword: "hello")
        case .sensor: SimServer()
        default: nil
        }
    }
}

/// One post on a room server.
public struct RoomPost: Hashable, Sendable {
    /// Who wrote it (the room pushes the author's 4-byte key prefix with the text).
    public var author: PublicKey
    public var text: String
    /// The room server's clock when it was posted, epoch seconds.
    public var postedAt: UInt32

    public init(author: PublicKey, text: String, postedAt: UInt32) {
        self.author = author
        self.text = text
        self.postedAt = postedAt
    }
}

/// The radio's entry in one server's access list, kept by the server across logins.
struct SimAccessEntry: Hashable, Sendable {
    /// Low 2 bits: 0 guest, 1 read-only, 2 read-write, 3 admin (`PERM_ACL_*`).
    var permissions: UInt8
    /// The last request timestamp accepted: older or equal ones are replays and get no answer.
    var lastTimestamp: UInt32
    /// Room servers: posts newer than this have not reached the radio yet.
    var syncSince: UInt32 = 0

    var isAdmin: Bool { permissions & 3 == 3 }
}
