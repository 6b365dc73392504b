/// A Cayenne LPP data type as used by MeshCore telemetry (the ElectronicCats type set).
/// Values are big-endian; each has one or more components with their own scale.
public struct LPPType: Hashable, Sendable {
    public let code: UInt8
    public let name: String
    /// Bytes per component.
    public let componentSize: Int
    public let signed: Bool
    /// Divisor per component (the wire integer / scale = value).
    public let scales: [Double]

    public var size: Int { componentSize * scales.count }

    public static let all: [LPPType] = [
        LPPType(code: 0, name: "digital_input", componentSize: 1, signed: false, scales: [1]),
        LPPType(code: 1, name: "digital_output", componentSize: 1, signed: false, scales: [1]),
        LPPType(code: 2, name: "analog_input", componentSize: 2, signed: true, scales: [100]),
        LPPType(code: 3, name: "analog_output", componentSize: 2, signed: true, scales: [100]),
        LPPType(code: 100, name: "generic_sensor", componentSize: 4, signed: false, scales: [1]),
        LPPType(code: 101, name: "luminosity", componentSize: 2, signed: false, scales: [1]),
        LPPType(code: 102, name: "presence", componentSize: 1, signed: false, scales: [1]),
        LPPType(code: 103, name: "temperature", componentSize: 2, signed: true, scales: [10]),
        LPPType(code: 104, name: "humidity", componentSize: 1, signed: false, scales: [2]),
        LPPType(code: 113, name: "accelerometer", componentSize: 2, signed: true, scales: [1000, 1000, 1000]),
        LPPType(code: 115, name: "barometer", componentSize: 2, signed: false, scales: [10]),
        LPPType(code: 116, name: "voltage", componentSize: 2, signed: false, scales: [100]),
        LPPType(code: 117, name: "current", componentSize: 2, signed: false, scales: [1000]),
        LPPType(code: 118, name: "frequency", componentSize: 4, signed: false, scales: [1]),
        LPPType(code: 120, name: "percentage", componentSize: 1, signed: false, scales: [1]),
        LPPType(code: 121, name: "altitude", componentSize: 2, signed: true, scales: [1]),
        LPPType(code: 125, name: "concentration", componentSize: 2, signed: false, scales: [1]),
        LPPType(code: 128, name: "power", componentSize: 2, signed: false, scales: [1]),
        LPPType(code: 130, name: "distance", componentSize: 4, signed: false, scales: [1000]),
        LPPType(code: 131, name: "energy", componentSize: 4, signed: false, scales: [1000]),
        LPPType(code: 132, name: "direction", componentSize: 2, signed: false, scales: [1]),
        LPPType(code: 133, name: "unixtime", componentSize: 4, signed: false, scales: [1]),
        LPPType(code: 134, name: "gyrometer", componentSize: 2, signed: true, scales: [100, 100, 100]),
        LPPType(code: 135, name: "colour", componentSize: 1, signed: false, scales: [1, 1, 1]),
        LPPType(code: 136, name: "gps", componentSize: 3, signed: true, scales: [10000, 10000, 100]),
        LPPType(code: 142, name: "switch", componentSize: 1, signed: false, scales: [1]),
    ]

    private static let byCode: [UInt8: LPPType] = Dictionary(uniqueKeysWithValues: all.map { ($0.code, $0) })

    public static func named(_ code: UInt8) -> LPPType? { byCode[code] }

    public static let temperature = byCode[103]!
    public static let humidity = byCode[104]!
    public static let barometer = byCode[115]!
    public static let voltage = byCode[116]!
    public static let current = byCode[117]!
    public static let gps = byCode[136]!
    public static let altitude = byCode[121]!
    public static let percentage = byCode[120]!
}

/// One LPP record: channel, type and its component values in natural units.
public struct LPPRecord: Hashable, Sendable {
    public var channel: UInt8
    public var type: LPPType
    public var values: [Double]

    public init(channel: UInt8, type: LPPType, values: [Double]) {
        self.channel = channel
        self.type = type
        self.values = values
    }
}

/// Cayenne LPP encoding and decoding (TELEMETRY_RESPONSE payloads).
public enum CayenneLPP {
    /// Decodes every record; an unknown type or a cut record throws with its offset (the
    /// format has no lengths, so nothing after an unknown type can be read).
    public static func decode(_ bytes: [UInt8]) throws -> [LPPRecord] {
        var r = ByteReader(bytes, frame: "Cayenne LPP")
        var out: [LPPRecord] = []
        while !r.isAtEnd {
            let channel = try r.u8("channel")
            let at = r.offset
            let code = try r.u8("type")
            guard let type = LPPType.named(code) else { throw r.invalid("type", at: at, "unknown LPP type \(code)") }
            var values: [Double] = []
            for scale in type.scales {
                let raw = try r.bytes(type.componentSize, type.name)
                var v: Int64 = 0
                for b in raw { v = v << 8 | Int64(b) }
                if type.signed, raw[0] & 0x80 != 0 { v -= 1 << (8 * Int64(type.componentSize)) }
                values.append(Double(v) / scale)
            }
            out.append(LPPRecord(channel: channel, type: type, values: values))
        }
        return out
    }

    public static func encode(_ records: [LPPRecord]) throws -> [UInt8] {
        var out: [UInt8] = []
        for rec in records {
            guard rec.values.count == rec.type.scales.count else {
                throw CodecError.unencodable(frame: "Cayenne LPP", field: rec.type.name, reason: "needs \(rec.type.scales.count) value(s)")
            }
            out.append(rec.channel)
            out.append(rec.type.code)
            let bits = 8 * rec.type.componentSize
            let lo: Int64 = rec.type.signed ? -(1 << (bits - 1)) : 0
            let hi: Int64 = rec.type.signed ? (1 << (bits - 1)) - 1 : (1 << bits) - 1
            for (value, scale) in zip(rec.values, rec.type.scales) {
                let scaled = (value * scale).rounded()
                guard scaled.isFinite, scaled >= Double(lo), scaled <= Double(hi) else {
                    throw CodecError.unencodable(frame: "Cayenne LPP", field: rec.type.name, reason: "\(value) is out of range")
                }
                let v = UInt64(bitPattern: Int64(scaled))
                for i in (0..<rec.type.componentSize).reversed() { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) }
            }
        }
        return out
    }
}
