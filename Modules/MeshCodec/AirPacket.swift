/// A packet as it travels over LoRa, the raw bytes of a LOG_RX_DATA push (Docs/protocol.md §5):
/// header (route type bits 0-1, payload type bits 2-5, payload version bits 6-7), two
/// transport codes on transport routes, the path, then the payload.
public struct AirPacket: Hashable, Sendable {
    public enum Route: UInt8, Sendable {
        case transportFlood = 0, flood = 1, direct = 2, transportDirect = 3

        public var isFlood: Bool { self == .flood || self == .transportFlood }
        public var hasTransportCodes: Bool { self == .transportFlood || self == .transportDirect }
    }

    /// The firmware's PAYLOAD_TYPE_* values (4 bits in a header; a whole byte where a
    /// path-return names its extra, 0xFF there meaning none); others keep their number.
    public struct PayloadType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let request = PayloadType(rawValue: 0)
        public static let response = PayloadType(rawValue: 1)
        public static let textMessage = PayloadType(rawValue: 2)
        public static let ack = PayloadType(rawValue: 3)
        public static let advert = PayloadType(rawValue: 4)
        public static let groupText = PayloadType(rawValue: 5)
        public static let groupData = PayloadType(rawValue: 6)
        public static let anonRequest = PayloadType(rawValue: 7)
        public static let path = PayloadType(rawValue: 8)
        public static let trace = PayloadType(rawValue: 9)
        public static let multipart = PayloadType(rawValue: 10)
        public static let control = PayloadType(rawValue: 11)
        public static let rawCustom = PayloadType(rawValue: 15)

        private static let names = ["REQ", "RESPONSE", "TXT_MSG", "ACK", "ADVERT", "GRP_TXT", "GRP_DATA", "ANON_REQ",
                                    "PATH", "TRACE", "MULTIPART", "CONTROL"]
        public var description: String {
            rawValue == 15 ? "RAW_CUSTOM" : Int(rawValue) < Self.names.count ? Self.names[Int(rawValue)] : "type \(rawValue)"
        }
    }

    public var route: Route
    public var payloadType: PayloadType
    /// 0: 1-byte node hashes and a 2-byte MAC, the only version in use.
    public var version: UInt8
    /// Present exactly on transport routes (region scoping).
    public var transportCodes: TransportCodes?
    /// Hops so far on a flood, hops still to go on a direct route; never `.none` on air.
    public var path: Path
    public var payload: [UInt8]

    public init(route: Route, payloadType: PayloadType, version: UInt8 = 0, transportCodes: TransportCodes? = nil,
                path: Path = Path(length: PathLength(raw: 0), bytes: []), payload: [UInt8]) {
        self.route = route
        self.payloadType = payloadType
        self.version = version
        self.transportCodes = transportCodes
        self.path = path
        self.payload = payload
    }

    /// The firmware's MAX_TRANS_UNIT: header, path and payload together.
    public static let maxSize = 255

    public var header: UInt8 { version << 6 | (payloadType.rawValue & 0x0F) << 2 | route.rawValue }

    public init(decoding bytes: [UInt8]) throws {
        guard bytes.count <= Self.maxSize else { throw CodecError.overlong(frame: "air packet", expected: Self.maxSize, actual: bytes.count) }
        var r = ByteReader(bytes, frame: "air packet")
        let header = try r.u8("header")
        route = Route(rawValue: header & 0x03)!
        payloadType = PayloadType(rawValue: header >> 2 & 0x0F)
        version = header >> 6
        transportCodes = route.hasTransportCodes ? TransportCodes(try r.u16("transport code 1"), try r.u16("transport code 2")) : nil
        let at = r.offset
        let length = PathLength(raw: try r.u8("path length"))
        guard !length.isNone, length.isValid else {
            throw r.invalid("path length", at: at, "reserved hash size or over \(Path.maxBytes) bytes (0x\(Hex.encode([length.raw])))")
        }
        path = Path(length: length, bytes: try r.bytes(length.byteCount, "path"))
        // The firmware refuses a packet with nothing after its path.
        guard r.remaining > 0 else { throw CodecError.truncated(frame: "air packet", field: "payload", offset: r.offset, needed: 1, available: 0) }
        payload = r.rest()
    }

    public func encode() throws -> [UInt8] {
        guard payloadType.rawValue <= 0x0F, version <= 3 else {
            throw CodecError.unencodable(frame: "air packet", field: "header", reason: "payload type \(payloadType.rawValue) or version \(version) does not fit its bits")
        }
        guard route.hasTransportCodes == (transportCodes != nil) else {
            throw CodecError.unencodable(frame: "air packet", field: "transport codes", reason: "present exactly on transport routes")
        }
        guard !path.length.isNone, path.length.isValid, path.bytes.count == path.length.byteCount else {
            throw CodecError.unencodable(frame: "air packet", field: "path", reason: "\(path.bytes.count) bytes for \(path.length)")
        }
        var w = ByteWriter(code: header, capacity: 2 + path.bytes.count + payload.count)
        if let codes = transportCodes { w.u16(codes.first); w.u16(codes.second) }
        w.u8(path.length.raw)
        w.append(path.bytes)
        w.append(payload)
        guard w.bytes.count <= Self.maxSize else {
            throw CodecError.unencodable(frame: "air packet", field: "payload", reason: "\(w.bytes.count) bytes, over \(Self.maxSize)")
        }
        return w.bytes
    }
}

/// The two 16-bit codes a transport route carries before its path.
public struct TransportCodes: Hashable, Sendable {
    public var first: UInt16
    public var second: UInt16
    public init(_ first: UInt16, _ second: UInt16) {
        self.first = first
        self.second = second
    }
}
