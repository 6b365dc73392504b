import MeshCodec

/// Where a gateway publishes on a community broker (Docs/gateway.md, "Topics"):
/// `meshcore/{IATA}/{KEY}/packets` and `meshcore/{IATA}/{KEY}/status`, the region code and the
/// radio's public key both in upper case.
public struct GatewayTopics: Hashable, Sendable {
    public let region: String
    public let publicKey: PublicKey

    /// `region` is the IATA-style code of the gateway's area (`AMS`, `SEA`): letters and digits,
    /// since it becomes one topic level.
    public init(region: String, publicKey: PublicKey) throws(GatewayError) {
        let code = region.uppercased()
        guard !code.isEmpty, code.utf8.count <= 16, code.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }) else {
            throw .badRegion(region)
        }
        self.region = code
        self.publicKey = publicKey
    }

    /// The key as the topics and messages spell it: 64 upper-case hex digits.
    public var keyHex: String { Self.keyHex(publicKey) }

    /// How every topic spells a radio's key: 64 upper-case hex digits.
    public static func keyHex(_ key: PublicKey) -> String { UpperHex.encode(key.bytes) }

    public var packets: String { "meshcore/\(region)/\(keyHex)/packets" }
    public var status: String { "meshcore/\(region)/\(keyHex)/status" }
}
