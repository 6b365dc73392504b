/// `ADV_TYPE_*`: what kind of node advertised.
public struct NodeType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let none = NodeType(rawValue: 0)
    public static let chat = NodeType(rawValue: 1)
    public static let repeater = NodeType(rawValue: 2)
    public static let room = NodeType(rawValue: 3)
    public static let sensor = NodeType(rawValue: 4)

    public var description: String {
        switch rawValue {
        case 0: "none"
        case 1: "chat"
        case 2: "repeater"
        case 3: "room"
        case 4: "sensor"
        default: "type\(rawValue)"
        }
    }
}

/// Contact flags: bit 0 favourite; bits 1-3 per-contact telemetry permissions.
public struct ContactFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let favourite = ContactFlags(rawValue: 1 << 0)
    public static let telemetryBase = ContactFlags(rawValue: 1 << 1)
    public static let telemetryLocation = ContactFlags(rawValue: 1 << 2)
    public static let telemetryEnvironment = ContactFlags(rawValue: 1 << 3)
}

/// Latitude/longitude in degrees × 1,000,000, as on the wire.
public struct Coordinates: Hashable, Sendable {
    public var latitudeE6: Int32
    public var longitudeE6: Int32

    public init(latitudeE6: Int32, longitudeE6: Int32) {
        self.latitudeE6 = latitudeE6
        self.longitudeE6 = longitudeE6
    }

    public init(latitude: Double, longitude: Double) {
        latitudeE6 = Int32((latitude * 1_000_000).rounded())
        longitudeE6 = Int32((longitude * 1_000_000).rounded())
    }

    public var latitude: Double { Double(latitudeE6) / 1_000_000 }
    public var longitude: Double { Double(longitudeE6) / 1_000_000 }
    public var isZero: Bool { latitudeE6 == 0 && longitudeE6 == 0 }
    public static let zero = Coordinates(latitudeE6: 0, longitudeE6: 0)
}

/// The 147-byte contact record after the code byte of CONTACT (3) and NEW_ADVERT (0x8A),
/// also the body of ADD_UPDATE_CONTACT (Docs/protocol.md §4.1).
public struct Contact: Hashable, Sendable {
    public static let recordSize = 147
    static let outPathWidth = 64
    static let nameWidth = 32

    public var publicKey: PublicKey
    public var type: NodeType
    public var flags: ContactFlags
    /// Out path; `.none` length means unknown, so messages go flood.
    public var outPath: Path
    public var name: String
    /// From the contact's own advert (its clock).
    public var lastAdvert: UInt32
    public var position: Coordinates
    /// The radio's clock when the record last changed: the incremental-sync watermark.
    public var lastModified: UInt32

    public init(publicKey: PublicKey, type: NodeType, flags: ContactFlags = [], outPath: Path = .none, name: String,
                lastAdvert: UInt32 = 0, position: Coordinates = .zero, lastModified: UInt32 = 0) {
        self.publicKey = publicKey
        self.type = type
        self.flags = flags
        self.outPath = outPath
        self.name = name
        self.lastAdvert = lastAdvert
        self.position = position
        self.lastModified = lastModified
    }

    /// Reads up to `lastAdvert`, the part every layout has.
    static func readBase(_ r: inout ByteReader) throws -> Contact {
        let key = try r.publicKey()
        let type = NodeType(rawValue: try r.u8("type"))
        let flags = ContactFlags(rawValue: try r.u8("flags"))
        let len = PathLength(raw: try r.u8("out_path_len"))
        // Only the announced bytes carry meaning; the rest of the 64-byte field is padding.
        // A reserved length is kept as it came (the record stays usable), capped at the field.
        let meaningful = min(len.byteCount, outPathWidth)
        let path = Path(length: len, bytes: try r.bytes(meaningful, "out_path"))
        try r.skip(outPathWidth - meaningful, "out_path")
        let name = try r.fixedString(nameWidth, "adv_name")
        let lastAdvert = try r.u32("last_advert")
        return Contact(publicKey: key, type: type, flags: flags, outPath: path, name: name, lastAdvert: lastAdvert)
    }

    static func read(_ r: inout ByteReader) throws -> Contact {
        var c = try readBase(&r)
        c.position = Coordinates(latitudeE6: try r.i32("adv_lat"), longitudeE6: try r.i32("adv_lon"))
        c.lastModified = try r.u32("lastmod")
        return c
    }

    func writeBase(_ w: inout ByteWriter) {
        w.append(publicKey.bytes)
        w.u8(type.rawValue)
        w.u8(flags.rawValue)
        w.u8(outPath.length.raw)
        let meaningful = outPath.bytes.prefix(Self.outPathWidth)
        w.append(meaningful)
        w.append(repeatElement(0, count: Self.outPathWidth - meaningful.count))
        w.fixedString(name, width: Self.nameWidth)
        w.u32(lastAdvert)
    }

    func write(_ w: inout ByteWriter) {
        writeBase(&w)
        w.i32(position.latitudeE6)
        w.i32(position.longitudeE6)
        w.u32(lastModified)
    }
}
