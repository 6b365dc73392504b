import MeshCodec
import Testing

/// The packet hash (Modules/MeshCodec/AirPacketHash.swift). The golden texts were computed
/// independently of this code, with Python's hashlib over the bytes the rule names.
@Suite struct AirPacketHashTests {
    @Test func goldenHashes() throws {
        let cases: [(raw: [UInt8], hash: String)] = [
            // FLOOD | ADVERT, no path.
            ([0x11, 0x00, 0xDE, 0xAD, 0xBE, 0xEF], "7C7E12F3F9673C0A"),
            // The same payload on a transport route with a hop: codes, route and path do not count.
            ([0x10, 0x01, 0x02, 0x03, 0x04, 0x01, 0xAA, 0xDE, 0xAD, 0xBE, 0xEF], "7C7E12F3F9673C0A"),
            // FLOOD | GRP_TXT.
            ([0x15, 0x00, 0x11, 0x22, 0x33], "C244D7085E506646"),
            // DIRECT | TRACE with two hops so far: the path length counts, as a little-endian u16.
            ([0x26, 0x02, 0xAA, 0xBB] + Array(1...11), "95876B1DFFC815E1"),
            ([0x26, 0x00] + Array(1...11), "558F7CE2AE73D98C"),
        ]
        for (raw, hash) in cases {
            #expect(try AirPacket(decoding: raw).hashText == hash, "\(Hex.encode(raw))")
        }
    }

    @Test func theHashIgnoresThePathExceptOnTraces() {
        let a = AirPacket(route: .flood, payloadType: .groupText, path: Path(hops: [[1]])!, payload: [7, 7, 7])
        var b = a
        b.path = Path(hops: [[1], [2]])!
        #expect(a.hash() == b.hash() && a.hash() == Array(SHA256.hash([5, 7, 7, 7]).prefix(8)))
        let t = AirPacket(route: .direct, payloadType: .trace, path: Path(hops: [[1]])!, payload: [7])
        var u = t
        u.path = Path(hops: [[1], [2]])!
        #expect(t.hash() == Array(SHA256.hash([9, 1, 0, 7]).prefix(8)) && t.hash() != u.hash())
        #expect(a.hashText.count == 16 && a.hashText == a.hashText.uppercased())
    }
}
