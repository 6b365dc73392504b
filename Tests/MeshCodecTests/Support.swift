import Testing
@testable import MeshCodec

/// Test key: bytes 0x01...0x20.
let keyHex = "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20"
let key = PublicKey(hex: keyHex)!
let prefixHex = "010203040506"
let prefix6 = KeyPrefix(Array(1...6))!

func bytes(_ hex: String) -> [UInt8] {
    let clean = hex.filter { !$0.isWhitespace }
    guard let b = Hex.decode(clean) else { fatalError("bad hex in test: \(hex)") }
    return b
}

/// Zero bytes as hex.
func zeros(_ n: Int) -> String { String(repeating: "00", count: n) }

/// UTF-8 text as hex, NUL-padded to `width` when given.
func text(_ s: String, width: Int? = nil) -> String {
    var b = Array(s.utf8)
    if let width { b += [UInt8](repeating: 0, count: width - b.count) }
    return Hex.encode(b)
}

func le32(_ v: UInt32) -> String { Hex.encode([UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)]) }
func le16(_ v: UInt16) -> String { Hex.encode([UInt8(v & 0xFF), UInt8(v >> 8)]) }

/// Asserts both directions against a golden byte string, and the value round trip.
func expectGolden(_ hex: String, _ command: Command, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let golden = bytes(hex)
    #expect(try command.encode() == golden, "encode", sourceLocation: sourceLocation)
    #expect(try Command(decoding: golden) == command, "decode", sourceLocation: sourceLocation)
    #expect(try Command(decoding: command.encode()) == command, "round trip", sourceLocation: sourceLocation)
}

func expectGolden(_ hex: String, _ frame: RadioFrame, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let golden = bytes(hex)
    #expect(try frame.encode() == golden, "encode", sourceLocation: sourceLocation)
    #expect(try RadioFrame(decoding: golden) == frame, "decode", sourceLocation: sourceLocation)
    #expect(try RadioFrame(decoding: frame.encode()) == frame, "round trip", sourceLocation: sourceLocation)
}
