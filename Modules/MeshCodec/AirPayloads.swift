/// Payload layouts of `AirPacket`s (firmware Mesh.cpp), before and after sealing. Sealing
/// itself (AES-128 + 2-byte HMAC) is MeshCrypto's `PacketCipher`.

/// TXT_MSG, REQ, RESPONSE and PATH: destination and source node hashes, then the sealed data.
public struct AddressedPayload: Hashable, Sendable {
    public var destinationHash: UInt8
    public var sourceHash: UInt8
    /// MAC ‖ ciphertext.
    public var sealed: [UInt8]

    public init(destinationHash: UInt8, sourceHash: UInt8, sealed: [UInt8]) {
        self.destinationHash = destinationHash
        self.sourceHash = sourceHash
        self.sealed = sealed
    }

    public init(decoding bytes: [UInt8]) throws {
        var r = ByteReader(bytes, frame: "addressed payload")
        destinationHash = try r.u8("destination hash")
        sourceHash = try r.u8("source hash")
        sealed = try r.bytes(max(r.remaining, 3), "sealed data")
    }

    public var bytes: [UInt8] { [destinationHash, sourceHash] + sealed }
}

/// GRP_TXT and GRP_DATA: the channel hash (SHA-256 of the secret, first byte), then the sealed data.
public struct GroupPayload: Hashable, Sendable {
    public var channelHash: UInt8
    public var sealed: [UInt8]

    public init(channelHash: UInt8, sealed: [UInt8]) {
        self.channelHash = channelHash
        self.sealed = sealed
    }

    public init(decoding bytes: [UInt8]) throws {
        var r = ByteReader(bytes, frame: "group payload")
        channelHash = try r.u8("channel hash")
        sealed = try r.bytes(max(r.remaining, 3), "sealed data")
    }

    public var bytes: [UInt8] { [channelHash] + sealed }
}

/// The plaintext of TXT_MSG and GRP_TXT: sender's timestamp, flags (attempt in bits 0-1,
/// text type from bit 2), text. Channel texts read "name: text". Decrypted data carries
/// zero padding, which ends the text.
public struct TextContent: Hashable, Sendable {
    public var timestamp: UInt32
    public var flags: UInt8
    public var text: [UInt8]

    public init(timestamp: UInt32, attempt: UInt8 = 0, textType: TextType = .plain, text: [UInt8]) {
        self.timestamp = timestamp
        flags = attempt & 3 | textType.rawValue << 2
        self.text = text
    }

    public init(decoding bytes: [UInt8]) throws {
        var r = ByteReader(bytes, frame: "text content")
        timestamp = try r.u32("timestamp")
        flags = try r.u8("flags")
        let rest = r.rest()
        text = Array(rest.prefix { $0 != 0 })
    }

    public var attempt: UInt8 { flags & 3 }
    public var textType: TextType { TextType(rawValue: flags >> 2) }
    public var bytes: [UInt8] { le32(timestamp) + [flags] + text }
}

/// The plaintext of a PATH packet: the path the sender was reached by (the recipient's route
/// to it from now on), then an extra typed payload, as an ACK (type 3, the 4-byte code) or a
/// RESPONSE (type 1, the reply data); type 0xFF and 4 random bytes when there is none.
public struct ReturnedPath: Hashable, Sendable {
    public var path: Path
    public var extraType: AirPacket.PayloadType
    public var extra: [UInt8]

    public init(path: Path, extraType: AirPacket.PayloadType, extra: [UInt8]) {
        self.path = path
        self.extraType = extraType
        self.extra = extra
    }

    /// Decrypted data: the extra runs to the end, zero padding included (its type says how
    /// much of it counts: 4 bytes for an ACK).
    public init(decoding bytes: [UInt8]) throws {
        var r = ByteReader(bytes, frame: "returned path")
        let at = r.offset
        let length = PathLength(raw: try r.u8("path length"))
        guard !length.isNone, length.isValid else { throw r.invalid("path length", at: at, "reserved hash size or over \(Path.maxBytes) bytes") }
        path = Path(length: length, bytes: try r.bytes(length.byteCount, "path"))
        extraType = AirPacket.PayloadType(rawValue: try r.u8("extra type"))
        extra = r.rest()
    }

    public var bytes: [UInt8] { [path.length.raw] + path.bytes + [extraType.rawValue] + extra }
}

private func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
