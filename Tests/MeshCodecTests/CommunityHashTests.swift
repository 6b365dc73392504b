import MeshCodec
import Testing

/// `AirPacket.hashText`, the `hash` field gateways publish: vectors computed with the community companion tool's own hash function
/// (meshcore-packet-capture, `calculate_packet_hash`) on the same raw packets.
@Suite struct CommunityHashTests {
    static let vectors: [(raw: String, hash: String, what: String)] = [
        ("0E00A1B2C3D4", "B3615D57EAB44F1F", "ACK, direct, no path"),
        ("1501AA112233445566778899", "1FE183F9943CAFEB", "GRP_TXT, flood, one hop"),
        ("1502BBCC112233445566778899", "1FE183F9943CAFEB", "the same GRP_TXT over two other hops"),
        ("260255F44D0000000500000000AABB", "CD548B1BDDE1F8B6", "TRACE, direct, two SNRs"),
        ("2601EE4D0000000500000000AA", "9EE835D061D0FD5B", "TRACE one hop on: the path length counts"),
        ("1034120000000001020304", "985A5DA4885646CB", "ADVERT, transport flood with codes"),
        ("0A4211223344AABBCCDD", "164D94FF1BF7EBC0", "TXT_MSG, direct, two 2-byte hops"),
    ]

    @Test(arguments: vectors.indices) func matchesTheCommunityTool(_ i: Int) throws {
        let vector = Self.vectors[i]
        let packet = try AirPacket(decoding: try #require(Hex.decode(vector.raw)))
        #expect(packet.hashText == vector.hash, "\(vector.what)")
    }
}
