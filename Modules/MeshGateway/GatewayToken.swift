import Foundation
import MeshCodec

/// The password a community broker takes from a gateway (Docs/gateway.md, "Token"): a JWT with
/// header `{"alg":"Ed25519","typ":"JWT"}` and claims `publicKey` (upper-case hex), `iat`, `exp`
/// and `aud` (the broker's host), each part base64url without padding, then the Ed25519
/// signature of `header.claims` by the radio's own key, in upper-case hex. The user name that
/// goes with it is `v1_` and the key.
public struct GatewayToken: Hashable, Sendable {
    /// Signs bytes with the radio's key and returns the 64-byte signature (on a radio:
    /// `SigningService.sign`; the private key never leaves it).
    public typealias Signer = @Sendable ([UInt8]) async throws -> [UInt8]

    public let text: String
    /// Seconds since 1970, as in the claims.
    public let issuedAt: Int64
    public let expiresAt: Int64

    /// How long a token lasts unless told otherwise: one hour, as the community bridge makes them.
    public static let standardLifetime = 3600

    public static func username(for publicKey: PublicKey) -> String {
        "v1_" + GatewayTopics.keyHex(publicKey)
    }

    /// A token for `audience` issued at `instant`, signed through `sign`. Throws
    /// `GatewayError` for bad arguments or a signature of the wrong size, and whatever `sign`
    /// throws (the radio cannot sign, the link is gone).
    public static func make(publicKey: PublicKey, audience: String, issuedAt instant: Date,
                            lifetime: Int = standardLifetime, sign: Signer) async throws -> GatewayToken {
        guard lifetime > 0 else { throw GatewayError.badLifetime(seconds: lifetime) }
        guard !audience.isEmpty else { throw GatewayError.missingAudience }
        let iat = Int64(instant.timeIntervalSince1970.rounded(.down))
        let exp = iat + Int64(lifetime)
        let header = #"{"alg":"Ed25519","typ":"JWT"}"#
        let claims = #"{"publicKey":"\#(GatewayTopics.keyHex(publicKey))","iat":\#(iat),"exp":\#(exp),"aud":\#(jsonString(audience))}"#
        let signingInput = base64URL(Array(header.utf8)) + "." + base64URL(Array(claims.utf8))
        let signature = try await sign(Array(signingInput.utf8))
        guard signature.count == 64 else { throw GatewayError.badSignature(count: signature.count) }
        return GatewayToken(text: signingInput + "." + Hex.encode(signature).uppercased(), issuedAt: iat, expiresAt: exp)
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    static func jsonString(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
