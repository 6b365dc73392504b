import Foundation
import MeshCodec
import MeshCrypto
@testable import MeshGateway
import MeshportTestSupport
import Testing

/// The community broker token and when to renew it (Docs/gateway.md, "Token").
@Suite(.timeLimit(.minutes(1))) struct GatewayTokenTests {
    static func pair() throws -> Ed25519.KeyPair { try Ed25519.KeyPair(seed: [UInt8](repeating: 3, count: 32)) }
    /// The key RFC 8032 derives from that seed (as Python's `cryptography` does).
    static func key() throws -> PublicKey { try #require(PublicKey(pair().publicKey)) }
    static let instant = Date(timeIntervalSince1970: 1_790_000_000.9)

    static func token(audience: String = "mqtt-us-v1.letsmesh.net", lifetime: Int = 3600) async throws -> GatewayToken {
        let pair = try pair()
        return try await GatewayToken.make(publicKey: key(), audience: audience, issuedAt: instant, lifetime: lifetime) { pair.sign($0) }
    }

    @Test func hasTheCommunityHeaderClaimsAndHexSignature() async throws {
        #expect(Hex.encode(try Self.key().bytes).uppercased() == "ED4928C628D1C2C6EAE90338905995612959273A5C63F93636C14614AC8737D1")
        let token = try await Self.token()
        let parts = token.text.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        #expect(parts[0] == "eyJhbGciOiJFZDI1NTE5IiwidHlwIjoiSldUIn0", #"{"alg":"Ed25519","typ":"JWT"}"#)
        let claims = try #require(Data(base64Encoded: parts[1].padding(toLength: (parts[1].count + 3) / 4 * 4, withPad: "=", startingAt: 0)))
        let keyHex = Hex.encode(try Self.key().bytes).uppercased()
        #expect(String(decoding: claims, as: UTF8.self)
                == #"{"publicKey":"\#(keyHex)","iat":1790000000,"exp":1790003600,"aud":"mqtt-us-v1.letsmesh.net"}"#)
        #expect(!parts[0].contains("=") && !parts[1].contains("=") && !parts[1].contains("+") && !parts[1].contains("/"))
        let signature = try #require(Hex.decode(parts[2]))
        #expect(parts[2] == parts[2].uppercased() && signature.count == 64)
        #expect(Ed25519.verify(signature: signature, message: Array("\(parts[0]).\(parts[1])".utf8), publicKey: try Self.key().bytes))
        #expect(token.issuedAt == 1_790_000_000 && token.expiresAt == 1_790_003_600)
        #expect(GatewayToken.username(for: try Self.key()) == "v1_" + keyHex)
    }

    @Test func pythonCryptographyVerifiesIt() async throws {
        let token = try await Self.token(audience: "broker \"odd\" \\ name")
        let run = try await runPythonScript("Tools/Interop/gateway_check.py", ["token"], input: "\(token.text) \(Hex.encode(try Self.key().bytes))")
        #expect(run.status == 0 && run.out == "1 checked, 0 failed\n", "\(run.out)\n\(run.err)")
    }

    @Test func badArgumentsAndSignaturesAreTypedErrors() async throws {
        await #expect(throws: GatewayError.badLifetime(seconds: 0)) { try await Self.token(lifetime: 0) }
        await #expect(throws: GatewayError.missingAudience) { try await Self.token(audience: "") }
        await #expect(throws: GatewayError.badSignature(count: 3)) {
            try await GatewayToken.make(publicKey: try Self.key(), audience: "a", issuedAt: Self.instant) { _ in [1, 2, 3] }
        }
    }

    @Test func renewsAtEightyPercentOfItsLifetime() async throws {
        let token = try await Self.token()
        let clock = TestClock(Date(timeIntervalSince1970: 1_790_000_000))
        let keeper = try TokenKeeper(now: { clock.now })
        #expect(keeper.needsRenewal(nil))
        #expect(keeper.renewalTime(of: token) == Date(timeIntervalSince1970: 1_790_002_880))
        #expect(!keeper.needsRenewal(token) && keeper.delayUntilRenewal(of: token) == .seconds(2880))
        clock.now = Date(timeIntervalSince1970: 1_790_002_879)
        #expect(!keeper.needsRenewal(token) && keeper.delayUntilRenewal(of: token) == .seconds(1))
        clock.now = Date(timeIntervalSince1970: 1_790_002_880)
        #expect(keeper.needsRenewal(token) && keeper.delayUntilRenewal(of: token) == .zero)
        clock.now = Date(timeIntervalSince1970: 1_790_009_999)
        #expect(keeper.needsRenewal(token), "an expired token")
        #expect(throws: GatewayError.badRenewalShare(0)) { try TokenKeeper(renewalShare: 0) }
        #expect(throws: GatewayError.badRenewalShare(1.5)) { try TokenKeeper(renewalShare: 1.5) }
    }
}

/// A clock the test sets.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    init(_ start: Date) { current = start }
    var now: Date {
        get { lock.withLock { current } }
        set { lock.withLock { current = newValue } }
    }
}
