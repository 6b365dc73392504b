/// Advert app-data (Docs/protocol.md §9): flags byte (low nibble node type, 0x10 location,
/// 0x20/0x40 feature words, 0x80 name), then the fields the flags announce; at most 32 bytes.
public struct AdvertAppData: Hashable, Sendable {
    public static let maxSize = 32

    public var type: NodeType
    public var position: Coordinates?
    public var feature1: UInt16?
    public var feature2: UInt16?
    public var name: String?

    public init(type: NodeType, position: Coordinates? = nil, feature1: UInt16? = nil, feature2: UInt16? = nil, name: String? = nil) {
        self.type = type
        self.position = position
        self.feature1 = feature1
        self.feature2 = feature2
        self.name = name
    }

    public init(decoding bytes: [UInt8]) throws {
        var r = ByteReader(bytes, frame: "advert app-data")
        let flags = try r.u8("flags")
        self.init(type: NodeType(rawValue: flags & 0x0F))
        if flags & 0x10 != 0 { position = Coordinates(latitudeE6: try r.i32("latitude"), longitudeE6: try r.i32("longitude")) }
        if flags & 0x20 != 0 { feature1 = try r.u16("feature 1") }
        if flags & 0x40 != 0 { feature2 = try r.u16("feature 2") }
        // As the firmware reads it (up to a NUL), invalid UTF-8 dropped: a decoded name always
        // encodes again within the 32 bytes (replacement characters would triple its bytes).
        if flags & 0x80 != 0 { name = FixedString.decode(r.rest()) }
        try r.expectEnd()
    }

    public func encode() throws -> [UInt8] {
        var flags = type.rawValue & 0x0F
        if position != nil { flags |= 0x10 }
        if feature1 != nil { flags |= 0x20 }
        if feature2 != nil { flags |= 0x40 }
        if name != nil { flags |= 0x80 }
        var w = ByteWriter(code: flags)
        if let p = position { w.i32(p.latitudeE6); w.i32(p.longitudeE6) }
        if let f = feature1 { w.u16(f) }
        if let f = feature2 { w.u16(f) }
        if let name { w.string(name) }
        guard w.bytes.count <= Self.maxSize else {
            throw CodecError.unencodable(frame: "advert app-data", field: "name", reason: "app-data is \(w.bytes.count) bytes, at most \(Self.maxSize)")
        }
        return w.bytes
    }
}

/// A raw on-air ADVERT packet, as EXPORT_CONTACT returns and IMPORT_CONTACT takes:
/// header, optional transport codes, path, then public key, timestamp, signature, app-data.
public struct AdvertPacket: Hashable, Sendable {
    public static let payloadTypeAdvert: UInt8 = 0x04
    public static let uriScheme = "meshcore://"

    /// Bits 0-1 route type, 2-5 payload type, 6-7 version.
    public var header: UInt8
    /// Present for transport-flood (0) and transport-direct (3) route types.
    public var transportCodes: [UInt8]?
    public var path: Path
    public var publicKey: PublicKey
    public var timestamp: UInt32
    public var signature: [UInt8]
    public var appData: [UInt8]

    public init(header: UInt8 = 0x11, transportCodes: [UInt8]? = nil, path: Path = Path(length: PathLength(raw: 0), bytes: []),
                publicKey: PublicKey, timestamp: UInt32, signature: [UInt8], appData: [UInt8]) {
        self.header = header
        self.transportCodes = transportCodes
        self.path = path
        self.publicKey = publicKey
        self.timestamp = timestamp
        self.signature = signature
        self.appData = appData
    }

    public var routeType: UInt8 { header & 0x03 }
    public var payloadType: UInt8 { (header >> 2) & 0x0F }

    public init(decoding bytes: [UInt8]) throws {
        var r = ByteReader(bytes, frame: "advert packet")
        let header = try r.u8("header")
        guard (header >> 2) & 0x0F == Self.payloadTypeAdvert else {
            throw r.invalid("header", at: 0, "payload type \((header >> 2) & 0x0F) is not ADVERT (4)")
        }
        let route = header & 0x03
        let codes = (route == 0 || route == 3) ? try r.bytes(4, "transport codes") : nil
        let path = try Path.read(&r, "path")
        let key = try r.publicKey()
        let ts = try r.u32("timestamp")
        let sig = try r.bytes(64, "signature")
        let app = r.rest()
        guard app.count <= AdvertAppData.maxSize else { throw r.invalid("app-data", at: bytes.count - app.count, "\(app.count) bytes, at most 32") }
        self.init(header: header, transportCodes: codes, path: path, publicKey: key, timestamp: ts, signature: sig, appData: app)
    }

    public func encode() -> [UInt8] {
        var w = ByteWriter(code: header, capacity: 140)
        if routeType == 0 || routeType == 3 { w.append(transportCodes ?? [0, 0, 0, 0]) }
        path.write(&w)
        w.append(publicKey.bytes)
        w.u32(timestamp)
        w.append(signature)
        w.append(appData)
        return w.bytes
    }

    /// The bytes an Ed25519 advert signature covers: public key ‖ timestamp ‖ app-data.
    public var signedMessage: [UInt8] {
        var w = ByteWriter(code: 0)
        w.append(publicKey.bytes)
        w.u32(timestamp)
        w.append(appData)
        return Array(w.bytes.dropFirst())
    }

    /// `meshcore://` + hex, as apps share a contact card.
    public var uri: String { Self.uriScheme + Hex.encode(encode()) }

    public init(uri: String) throws {
        guard uri.hasPrefix(Self.uriScheme), let bytes = Hex.decode(String(uri.dropFirst(Self.uriScheme.count))) else {
            throw CodecError.invalidField(frame: "contact URI", field: "hex", offset: 0, reason: "expected meshcore:// followed by hex digits")
        }
        try self.init(decoding: bytes)
    }
}
