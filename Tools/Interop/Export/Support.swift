import MeshCodec

/// A JSON object as JSONSerialization takes it.
typealias JSON = [String: Any]

/// A failure while building the export; the message names the case.
struct ExportError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs `body`, prefixing any error with the case name so the failing entry is obvious.
func inCase<T>(_ name: String, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch {
        throw ExportError("case \(name): \(error)")
    }
}

func require<T>(_ value: T?, _ what: @autoclosure () -> String) throws -> T {
    guard let value else { throw ExportError(what()) }
    return value
}

func hex<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 { Hex.encode(bytes) }

/// `{"$bytes": hex}`: the script passes it to meshcore_py as `bytes`.
func bytesArg(_ bytes: [UInt8]) -> JSON { ["$bytes": hex(bytes)] }

/// SNR × 4 as meshcore_py presents it (float dB).
func snr<I: BinaryInteger>(_ x4: I) -> Double { Double(x4) / 4 }

/// u32 little-endian bytes (AckCode carries the codec's own byte order).
func le32(_ v: UInt32) -> [UInt8] { AckCode(v).bytes }

func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }

/// A deterministic but random-looking 32-byte key per label (SHA-256 of the label).
func sampleKey(_ label: String) throws -> PublicKey {
    try require(PublicKey(SHA256.hash(Array(label.utf8))), "sample key \(label)")
}

/// Keys and values shared by frame and command cases.
struct Fixtures {
    let companion: PublicKey   // our own node
    let alice: PublicKey       // a chat peer
    let repeater: PublicKey
    let room: PublicKey
    let sensor: PublicKey

    init() throws {
        companion = try sampleKey("meshport companion")
        alice = try sampleKey("alice")
        repeater = try sampleKey("repeater Hochwacht")
        room = try sampleKey("room Stammtisch")
        sensor = try sampleKey("sensor Wetterstation")
    }

    /// A repeater with a 2-hop path of 2-byte hashes (one of them 0x00-led), south of the equator.
    func repeaterContact() throws -> Contact {
        Contact(publicKey: repeater, type: .repeater, flags: [.favourite, .telemetryBase],
                outPath: try require(Path(hops: [[0xAA, 0x00], [0xBB, 0xCC]], hashSize: 2), "path"),
                name: "Rpt-Sydney-é", lastAdvert: 1_767_225_600, position: Coordinates(latitudeE6: -33_868_800, longitudeE6: 151_209_300),
                lastModified: 1_767_225_700)
    }
}
