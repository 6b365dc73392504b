/// The AD structures of an advertisement or scan response (Core Supplement Part A).
public struct AdvertisingData: Equatable, Sendable {
    /// (AD type, data) in the order sent.
    public let structures: [(type: UInt8, data: [UInt8])]

    public static func == (a: AdvertisingData, b: AdvertisingData) -> Bool {
        a.structures.count == b.structures.count && zip(a.structures, b.structures).allSatisfy { $0.type == $1.type && $0.data == $1.data }
    }

    /// Parses length-type-value structures; a structure running past the end ends the parse
    /// (what came before is kept: advertisers do send such packets).
    public init(_ bytes: [UInt8]) {
        var structures: [(type: UInt8, data: [UInt8])] = []
        var i = 0
        while i < bytes.count {
            let length = Int(bytes[i])
            if length == 0 { break }  // padding
            guard i + 1 + length <= bytes.count else { break }
            structures.append((bytes[i + 1], Array(bytes[(i + 2)..<(i + 1 + length)])))
            i += 1 + length
        }
        self.structures = structures
    }

    public init(structures: [(type: UInt8, data: [UInt8])]) {
        self.structures = structures
    }

    /// Complete or shortened local name.
    public var localName: String? {
        for s in structures where s.type == 0x09 || s.type == 0x08 {
            return String(decoding: s.data, as: UTF8.self)
        }
        return nil
    }

    /// Service UUIDs of every width, complete and incomplete lists.
    public var serviceUUIDs: [BLEUUID] {
        var uuids: [BLEUUID] = []
        for s in structures {
            let width: Int
            switch s.type {
            case 0x02, 0x03: width = 2
            case 0x04, 0x05: width = 4
            case 0x06, 0x07: width = 16
            default: continue
            }
            var i = 0
            while i + width <= s.data.count {
                uuids.append(BLEUUID(littleEndian: Array(s.data[i..<(i + width)])))
                i += width
            }
        }
        return uuids
    }

    public func merged(with other: AdvertisingData) -> AdvertisingData {
        AdvertisingData(structures: structures + other.structures)
    }
}
