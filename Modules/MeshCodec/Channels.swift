/// A channel's 16-byte secret (Docs/protocol.md §7.6).
public struct ChannelSecret: Hashable, Sendable, CustomStringConvertible {
    public static let size = 16
    public let bytes: [UInt8]
    /// The on-air channel hash: first byte of SHA-256 over the secret. Kept, not computed on
    /// each use: the packet log matches every heard group packet against each slot's hash.
    public let channelHash: UInt8

    public init?(_ bytes: [UInt8]) {
        guard bytes.count == Self.size else { return nil }
        self.init(unchecked: bytes)
    }

    /// 32 hex digits, as private channels are shared.
    public init?(hex: String) {
        guard let b = Hex.decode(hex) else { return nil }
        self.init(b)
    }

    init(unchecked bytes: [UInt8]) {
        self.bytes = bytes
        channelHash = SHA256.hash(bytes)[0]
    }

    /// The key the firmware pre-loads into slot 0 ("Public").
    public static let publicChannel = ChannelSecret(unchecked: [
        0x8b, 0x33, 0x87, 0xe9, 0xc5, 0xcd, 0xea, 0x6a, 0xc9, 0xe5, 0xed, 0xba, 0xa1, 0x15, 0xcd, 0x72,
    ])
    public static let publicChannelName = "Public"

    /// All zeros: with an empty name it marks a free slot.
    public static let empty = ChannelSecret(unchecked: [UInt8](repeating: 0, count: size))

    /// Hashtag channel: first 16 bytes of SHA-256 of the name including its leading `#`
    /// (added when missing).
    public static func hashtag(_ name: String) -> ChannelSecret {
        let full = name.hasPrefix("#") ? name : "#" + name
        return ChannelSecret(unchecked: Array(SHA256.hash(Array(full.utf8)).prefix(size)))
    }

    /// A private channel keyed by a passphrase: first 16 bytes of SHA-256 of its UTF-8 bytes.
    public static func passphrase(_ phrase: String) -> ChannelSecret {
        ChannelSecret(unchecked: Array(SHA256.hash(Array(phrase.utf8)).prefix(size)))
    }

    public var isEmpty: Bool { bytes.allSatisfy { $0 == 0 } }

    public var hex: String { Hex.encode(bytes) }
    /// Never prints the secret itself: secrets must not reach logs.
    public var description: String { "ChannelSecret(hash 0x\(Hex.encode([channelHash])))" }
}

/// CHANNEL_INFO (18) and SET_CHANNEL (32) carry the same slot description.
public struct ChannelInfo: Hashable, Sendable {
    public var index: UInt8
    public var name: String
    public var secret: ChannelSecret

    public init(index: UInt8, name: String, secret: ChannelSecret) {
        self.index = index
        self.name = name
        self.secret = secret
    }

    /// Empty name and all-zero secret: the slot is free.
    public var isEmpty: Bool { name.isEmpty && secret.isEmpty }

    static let nameWidth = 32

    static func read(_ r: inout ByteReader) throws -> ChannelInfo {
        let index = try r.u8("channel index")
        let name = try r.fixedString(nameWidth, "channel name")
        let secret = ChannelSecret(unchecked: try r.bytes(ChannelSecret.size, "channel secret"))
        return ChannelInfo(index: index, name: name, secret: secret)
    }

    func write(_ w: inout ByteWriter) {
        w.u8(index)
        w.fixedString(name, width: Self.nameWidth)
        w.append(secret.bytes)
    }
}

/// A flood scope (region): name and 16-byte transport key (Docs/protocol.md §7.7).
public struct FloodScope: Hashable, Sendable {
    public var name: String
    public var key: [UInt8]

    public init(name: String, key: [UInt8]) {
        self.name = name
        self.key = key
    }

    /// Public region names: key = first 16 bytes of SHA-256 of `#name`.
    public init(region name: String) {
        let bare = name.hasPrefix("#") ? String(name.dropFirst()) : name
        self.init(name: bare, key: ChannelSecret.hashtag(bare).bytes)
    }
}
